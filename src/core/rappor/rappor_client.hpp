// The RAPPOR client (docs/algorithms/rappor.md#client-bloom-filter-prr-and-irr; google/rappor
// client/python/rappor.py): what a
// device links. Bloom filter, memoized PRR, fresh IRR, and the report's bit order.
//
// Bloom filter (get_bloom_bits): d = MD5(BE32(cohort) ‖ item bytes); hash i < h sets
// bit d[i] mod k. Items are their bytes as given (UTF-8 text); the empty item is an item.
//
// PRR (get_prr_masks), fixed per (secret, Bloom filter): for k <= 32 the message is
// BE32(bloom) and bit i uses byte i of d = HMAC-SHA256(secret, message), exactly as
// Python; for k > 32 (ours) word w = ⌊i/32⌋ uses d_w = HMAC-SHA256(secret, BE32(w) ‖
// the filter as ⌈k/8⌉ bytes, most significant first) and bit i byte i mod 32 of d_w.
// Byte b gives uniform_i = b & 1 and fmask_i = (b >> 1) < 128·f (Python's real-valued
// comparison: the PRR probability is ⌈128f⌉/128, which is ⌊128f⌋/128 when 128f is an
// integer, as for f = 0.5 or 0.25); prr = (bloom & ~fmask) | (uniform & fmask).
//
// IRR (Encoder._internal_encode_bits): bit i is 1 with probability q where the PRR has
// a 1, p where it has a 0, drawn fresh from a RandomSource for every report.
//
// Bit order: a report's text (bit_string) is most significant first, so character j is
// Bloom bit k-1-j; a PostgreSQL varbit holds characters in order, the first in the high
// bit of its first byte (rappor_to_varbit, rappor_from_varbit).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/common/random.hpp"

namespace ldp {

// Bounds of the hashing: one MD5 byte per hash (16 bytes), bit = byte mod k (k <= 256).
constexpr int64_t kRapporMaxBits = 256;
constexpr int64_t kRapporMaxHashes = 16;
constexpr int64_t kRapporMaxCohorts = INT32_MAX;  // 2^31 - 1

// k Bloom bits: bit b is (w[b / 64] >> (b % 64)) & 1; bits at or above k are 0.
struct RapporBits {
  uint64_t w[4] = {0, 0, 0, 0};
  bool test(int64_t b) const { return (w[b >> 6] >> (b & 63)) & 1; }
  void set(int64_t b) { w[b >> 6] |= uint64_t{1} << (b & 63); }
  bool operator==(const RapporBits& o) const {
    return w[0] == o.w[0] && w[1] == o.w[1] && w[2] == o.w[2] && w[3] == o.w[3];
  }
};

// InvalidParameter unless 1 <= bits <= 256 and 1 <= hashes <= 16.
void check_rappor_hashing(int64_t bits, int64_t hashes);
// InvalidParameter unless f, p and q are in [0, 1], f < 1 and p < q (otherwise the
// reports carry nothing to decode): what the encoder and the aggregate accept.
void check_rappor_noise(double f, double p, double q);

// The positions of the h hashes (get_bloom_bits; repeats possible), into out[0..hashes).
// cohort in [0, 2^32) is hashed as BE32. Validated by the caller (check_rappor_hashing).
void rappor_bloom_positions(std::string_view item, uint32_t cohort, int64_t bits, int64_t hashes,
                            int64_t* out);
// The Bloom filter (validates bits and hashes; cohort must be in [0, 2^31 - 1]).
RapporBits rappor_bloom(std::string_view item, int64_t cohort, int64_t bits, int64_t hashes);
// The PRR of a Bloom filter under a device secret (any bytes, possibly empty).
RapporBits rappor_prr(const RapporBits& bloom, std::string_view secret, int64_t bits, double f);
// A fresh IRR of a PRR.
RapporBits rappor_irr(const RapporBits& prr, int64_t bits, double p, double q, RandomSource& rng);
// Bloom filter, PRR, IRR: the report a device sends with its cohort. Validates all
// parameters (check_rappor_hashing, check_rappor_noise, cohort in [0, 2^31 - 1]).
RapporBits rappor_encode(std::string_view item, int64_t cohort, std::string_view secret, int64_t bits,
                         int64_t hashes, double f, double p, double q, RandomSource& rng);

// Python's bit_string: k characters '0'/'1', Bloom bit k-1 first.
std::string rappor_bit_string(const RapporBits& v, int64_t bits);
// The same order as a varbit's data: ⌈k/8⌉ bytes, character j in bit 7 - j mod 8 of byte
// j / 8, the unused low bits of the last byte zero.
void rappor_to_varbit(const RapporBits& v, int64_t bits, uint8_t* out);
RapporBits rappor_from_varbit(const uint8_t* data, int64_t bits);

}  // namespace ldp
