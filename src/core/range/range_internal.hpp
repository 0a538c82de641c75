// Inside the core only: what the range family's files share (the protocol's fields in
// the text and binary forms). The glue uses range_protocol.hpp and range_summary.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/common/byte_reader.hpp"
#include "core/common/text_cursor.hpp"
#include "core/range/range_protocol.hpp"

namespace ldp {

// The protocol's fields in the text form, "epsilon=...,domain_bits=...,mapping=...[,lo=...,
// hi=...]" (no braces), shared by the protocol's text and the summary's; the parser
// validates (InvalidText naming the cursor's type).
void range_render_fields(const RangeProtocol& p, TextOut& o);
RangeProtocol range_parse_fields(TextCursor& c, RangeMechanism m);
// The envelope's lookup: the mechanism of a name, as a pointer to a static value.
const RangeMechanism* range_mechanism_by_name(const char* name, size_t len);
std::string range_mechanism_names();
// Binary: u8 mechanism, u8 mapping, f64 epsilon, i64 domain_bits, f64 lo, f64 hi.
constexpr size_t kRangeFieldsBinarySize = 2 + 4 * 8;
void range_put_fields(uint8_t*& o, const RangeProtocol& p);
RangeProtocol range_read_fields(ByteReader& r);  // validated: InvalidBinary

}  // namespace ldp
