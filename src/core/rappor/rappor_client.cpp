// The RAPPOR client: Bloom filter, PRR, IRR and bit order (rappor_client.hpp;
// docs/algorithms/rappor.md#client-bloom-filter-prr-and-irr; google/rappor
// client/python/rappor.py). MD5 and HMAC-SHA256 from OpenSSL's libcrypto.
#include "core/rappor/rappor_client.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cinttypes>
#include <cstring>

#include "core/common/error.hpp"

namespace ldp {

namespace {

// One MD5 context per thread, fetched once: the design matrix of a decode takes
// candidates × cohorts digests.
struct Md5 {
  EVP_MD* md = nullptr;
  EVP_MD_CTX* ctx = nullptr;
  Md5() {
    md = EVP_MD_fetch(nullptr, "MD5", nullptr);
    ctx = EVP_MD_CTX_new();
  }
  ~Md5() {
    EVP_MD_CTX_free(ctx);
    EVP_MD_free(md);
  }
  void digest(const uint8_t* prefix, size_t plen, std::string_view item, uint8_t out[16]) {
    unsigned int len = 0;
    if (md == nullptr || ctx == nullptr || EVP_DigestInit_ex(ctx, md, nullptr) != 1 ||
        EVP_DigestUpdate(ctx, prefix, plen) != 1 || EVP_DigestUpdate(ctx, item.data(), item.size()) != 1 ||
        EVP_DigestFinal_ex(ctx, out, &len) != 1 || len != 16)
      throw_error(ErrorKind::Internal, "RAPPOR: OpenSSL's MD5 failed");
  }
};

void be32(uint32_t v, uint8_t* o) {
  o[0] = static_cast<uint8_t>(v >> 24);
  o[1] = static_cast<uint8_t>(v >> 16);
  o[2] = static_cast<uint8_t>(v >> 8);
  o[3] = static_cast<uint8_t>(v);
}

void hmac_sha256(std::string_view key, const uint8_t* msg, size_t len, uint8_t out[32]) {
  unsigned int outlen = 0;
  static const uint8_t kEmpty = 0;  // HMAC with an empty key still needs a pointer
  const void* k = key.empty() ? static_cast<const void*>(&kEmpty) : key.data();
  if (HMAC(EVP_sha256(), k, static_cast<int>(key.size()), msg, len, out, &outlen) == nullptr || outlen != 32)
    throw_error(ErrorKind::Internal, "RAPPOR: OpenSSL's HMAC-SHA256 failed");
}

void check_cohort(int64_t cohort) {
  if (cohort < 0 || cohort > kRapporMaxCohorts)
    throw_error(ErrorKind::InvalidParameter, "RAPPOR cohort must be in [0, 2^31 - 1], got %" PRId64, cohort);
}

// The filter as ⌈k/8⌉ bytes, most significant first (the message of the word rule for k > 32).
size_t filter_bytes_be(const RapporBits& v, int64_t bits, uint8_t* out) {
  const size_t nb = static_cast<size_t>((bits + 7) / 8);
  for (size_t j = 0; j < nb; ++j) {
    const size_t low_bit = 8 * (nb - 1 - j);  // bit position of this byte's lowest bit
    out[j] = static_cast<uint8_t>(v.w[low_bit >> 6] >> (low_bit & 63));
  }
  return nb;
}

}  // namespace

void check_rappor_hashing(int64_t bits, int64_t hashes) {
  if (bits < 1 || bits > kRapporMaxBits)
    throw_error(ErrorKind::InvalidParameter, "RAPPOR bits must be in [1, %" PRId64 "], got %" PRId64, kRapporMaxBits,
                bits);
  if (hashes < 1 || hashes > kRapporMaxHashes)
    throw_error(ErrorKind::InvalidParameter,
                "RAPPOR hashes must be in [1, %" PRId64 "] (one MD5 byte each), got %" PRId64, kRapporMaxHashes,
                hashes);
}

void check_rappor_noise(double f, double p, double q) {
  const char* names[3] = {"f", "p", "q"};
  const double v[3] = {f, p, q};
  for (int i = 0; i < 3; ++i)
    if (!(v[i] >= 0 && v[i] <= 1))
      throw_error(ErrorKind::InvalidParameter, "RAPPOR %s must be in [0, 1], got %g", names[i], v[i]);
  if (!(f < 1)) throw_error(ErrorKind::InvalidParameter, "RAPPOR f must be below 1 (f = 1 reports pure noise)");
  if (!(p < q))
    throw_error(ErrorKind::InvalidParameter, "RAPPOR needs p < q (got p = %g, q = %g): the IRR carries no signal", p,
                q);
}

void rappor_bloom_positions(std::string_view item, uint32_t cohort, int64_t bits, int64_t hashes, int64_t* out) {
  thread_local Md5 md5;
  uint8_t prefix[4];
  be32(cohort, prefix);
  uint8_t d[16];
  md5.digest(prefix, 4, item, d);
  for (int64_t i = 0; i < hashes; ++i) out[i] = d[i] % bits;  // ord(digest[i]) % num_bloombits
}

RapporBits rappor_bloom(std::string_view item, int64_t cohort, int64_t bits, int64_t hashes) {
  check_rappor_hashing(bits, hashes);
  check_cohort(cohort);
  int64_t pos[kRapporMaxHashes];
  rappor_bloom_positions(item, static_cast<uint32_t>(cohort), bits, hashes, pos);
  RapporBits b;
  for (int64_t i = 0; i < hashes; ++i) b.set(pos[i]);
  return b;
}

RapporBits rappor_prr(const RapporBits& bloom, std::string_view secret, int64_t bits, double f) {
  const double threshold128 = f * 128;  // prob_f * 128, compared as a real number
  RapporBits uniform, fmask;
  uint8_t d[32];
  if (bits <= 32) {
    uint8_t msg[4];
    be32(static_cast<uint32_t>(bloom.w[0]), msg);  // to_big_endian(bits)
    hmac_sha256(secret, msg, 4, d);
  }
  for (int64_t i = 0; i < bits; ++i) {
    if (bits > 32 && i % 32 == 0) {  // the word rule for k > 32 (ours)
      uint8_t msg[4 + 32];
      be32(static_cast<uint32_t>(i / 32), msg);
      const size_t nb = filter_bytes_be(bloom, bits, msg + 4);
      hmac_sha256(secret, msg, 4 + nb, d);
    }
    const uint8_t byte = d[i % 32];
    if (byte & 1) uniform.set(i);
    if ((byte >> 1) < threshold128) fmask.set(i);
  }
  RapporBits prr;
  for (int j = 0; j < 4; ++j) prr.w[j] = (bloom.w[j] & ~fmask.w[j]) | (uniform.w[j] & fmask.w[j]);
  return prr;
}

RapporBits rappor_irr(const RapporBits& prr, int64_t bits, double p, double q, RandomSource& rng) {
  RapporBits irr;
  for (int64_t i = 0; i < bits; ++i)
    if (rng.uniform() < (prr.test(i) ? q : p)) irr.set(i);
  return irr;
}

RapporBits rappor_encode(std::string_view item, int64_t cohort, std::string_view secret, int64_t bits,
                         int64_t hashes, double f, double p, double q, RandomSource& rng) {
  check_rappor_noise(f, p, q);
  const RapporBits bloom = rappor_bloom(item, cohort, bits, hashes);
  return rappor_irr(rappor_prr(bloom, secret, bits, f), bits, p, q, rng);
}

std::string rappor_bit_string(const RapporBits& v, int64_t bits) {
  std::string s(static_cast<size_t>(bits), '0');
  for (int64_t j = 0; j < bits; ++j)
    if (v.test(bits - 1 - j)) s[static_cast<size_t>(j)] = '1';
  return s;
}

void rappor_to_varbit(const RapporBits& v, int64_t bits, uint8_t* out) {
  std::memset(out, 0, static_cast<size_t>((bits + 7) / 8));
  for (int64_t j = 0; j < bits; ++j)
    if (v.test(bits - 1 - j)) out[j / 8] |= static_cast<uint8_t>(0x80 >> (j % 8));
}

RapporBits rappor_from_varbit(const uint8_t* data, int64_t bits) {
  RapporBits v;
  for (int64_t j = 0; j < bits; ++j)
    if (data[j / 8] & (0x80 >> (j % 8))) v.set(bits - 1 - j);
  return v;
}

}  // namespace ldp
