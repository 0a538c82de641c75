// What a family's SummaryCodec and its type's I/O functions do with nothing but the
// core's eight codec functions (binary: parse size, read, size, write; text: the same),
// written once for every family (mean, frequency, sketch, heavy hitters, RAPPOR): read
// the current stored form into palloc'd memory, write the stored form, and the type's
// input, output and receive functions. A family that also reads an earlier version's
// stored values (mean, frequency: memory images) reads them in its own read_flat and
// hands the stored form to CoreCodec::read_flat.
#pragma once

#include "pg/common/summary_datum.hpp"  // postgres.h first

namespace ldp_pg {

template <class S, size_t (*BinaryParseSize)(const uint8_t*, size_t),
          void (*FromBinary)(const uint8_t*, size_t, S*, size_t), size_t (*BinarySize)(const S&),
          void (*ToBinary)(const S&, uint8_t*, size_t), size_t (*TextParseSize)(const char*),
          void (*FromText)(const char*, S*, size_t), size_t (*TextSize)(const S&),
          void (*ToText)(const S&, char*, size_t)>
struct CoreCodec {
  // SummaryCodec::read_flat: the body after the length word, validated (22P03), palloc'd.
  static const void* read_flat(const char* content, size_t len) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(content);
    size_t size = 0;
    LDP_CORE(size = BinaryParseSize(bytes, len));
    auto* s = static_cast<S*>(palloc_extended(size, MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO));
    LDP_CORE(FromBinary(bytes, len, s, size));
    return s;
  }
  static size_t stored_size(const void* core) { return BinarySize(*static_cast<const S*>(core)); }
  static void write_stored(const void* core, uint8_t* out, size_t len) { ToBinary(*static_cast<const S*>(core), out, len); }

  // The type's input (text, validated: 22P02), output and receive (the stored form).
  static Datum in(FunctionCallInfo fcinfo, const SummaryCodec* codec) {
    const char* text = PG_GETARG_CSTRING(0);
    size_t size = 0;
    LDP_CORE(size = TextParseSize(text));
    auto* s = static_cast<S*>(palloc_extended(size, MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO));
    LDP_CORE(FromText(text, s, size));
    PG_RETURN_DATUM(stored_datum(codec, s));
  }
  static Datum out(FunctionCallInfo fcinfo, const SummaryCodec* codec) {
    const S& s = *static_cast<const S*>(summary_arg(fcinfo, 0, codec));
    size_t len = 0;
    LDP_CORE(len = TextSize(s));
    char* text = static_cast<char*>(palloc_extended(len, MCXT_ALLOC_HUGE));
    LDP_CORE(ToText(s, text, len));
    PG_RETURN_CSTRING(text);
  }
  static Datum recv(FunctionCallInfo fcinfo, const SummaryCodec* codec) {
    StringInfo buf = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
    const void* s = read_flat(buf->data + buf->cursor, static_cast<size_t>(buf->len - buf->cursor));
    buf->cursor = buf->len;
    PG_RETURN_DATUM(stored_datum(codec, s));
  }
};

}  // namespace ldp_pg

// The CoreCodec of core summary S, whose eight codec functions every family names alike
// (core/<family>/<family>_summary.hpp): ldp::<prefix>_binary_parse_size, _from_binary,
// _binary_size, _to_binary, _parse_size, _from_text, _text_size and _to_text, prefix
// freq_summary, heavy_summary, ...
#define LDP_CORE_CODEC(S, prefix)                                                                               \
  ::ldp_pg::CoreCodec<S, ::ldp::prefix##_binary_parse_size, ::ldp::prefix##_from_binary, ::ldp::prefix##_binary_size, \
                      ::ldp::prefix##_to_binary, ::ldp::prefix##_parse_size, ::ldp::prefix##_from_text,          \
                      ::ldp::prefix##_text_size, ::ldp::prefix##_to_text>
