// Inside the core only: what the heavy-hitters files share (UTF-8, the protocol's
// fields in the text and binary forms). The glue uses heavy_protocol.hpp and
// heavy_summary.hpp, never this header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/byte_reader.hpp"
#include "common/text_cursor.hpp"
#include "heavy/heavy_protocol.hpp"

namespace ldp {

// The length of the UTF-8 character at s[0] (1 to 4), or 0 when s does not begin with a
// valid one (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
int utf8_char_length(std::string_view s);
// s as the beginning of UTF-8 text: -1 when no valid text begins so, else the number
// of continuation bytes its last character still needs (0: s is complete).
int utf8_prefix_state(std::string_view s);

// The protocol's fields in the text form, "epsilon=...,...,expected_users=..." (no
// braces), shared by the protocol's text and the summary's; the parser validates
// (InvalidText naming the cursor's type).
void heavy_render_fields(const HeavyProtocol& p, TextOut& o);
HeavyProtocol heavy_parse_fields(TextCursor& c, HeavyMechanism m);
// The envelope's lookup: the mechanism of a name, as a pointer to a static value.
const HeavyMechanism* heavy_mechanism_by_name(const char* name, size_t len);
std::string heavy_mechanism_names();
// Binary: u8 mechanism, u8 domain, f64 epsilon, i64 max_length, chars_per_level,
// levels, hashes, width, expected_users, u16 alphabet bytes and the alphabet.
size_t heavy_fields_binary_size(const HeavyProtocol& p);
void heavy_put_fields(uint8_t*& o, const HeavyProtocol& p);
HeavyProtocol heavy_read_fields(ByteReader& r);  // validated: InvalidBinary

}  // namespace ldp
