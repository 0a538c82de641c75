// Inside the core only: what each frequency-oracle mechanism file contributes to
// the registry in freq_summary.cpp, and the helpers the mechanism files share.
// The glue uses freq_summary.hpp and freq_encoders.hpp, never this header.
//
// Adding a mechanism: one file in mechanisms/ defining its encoder, its
// freq_add_* function and a FreqMechanismImpl, plus one line in the registry.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/common/error.hpp"
#include "core/freq/freq_summary.hpp"

namespace ldp {

struct FreqMechanismImpl {
  FreqMechanismInfo info;
  bool uses_d;           // dBitFlip: d buckets per report (a field of both codecs)
  bool signed_counters;  // Hadamard: row sums may be negative
  bool arrays_over_g;    // each counter array has g entries (Hadamard's K rows), else k
  // Names of the counter arrays in the text form, in order; the second may be null.
  const char* arrays[2];
  // Checks the mechanism's own limits on parameters that passed the generic
  // checks (epsilon, k, d) and returns g (OLH: hash range; Hadamard: K), or 0.
  // Throws InvalidParameter.
  int64_t (*derive_g)(const FreqParams&);
  // Throws `kind` unless the counters can come from s.n reports (n >= 0 checked).
  void (*check_counts)(const FreqSummary& s, ErrorKind kind);
  // Unbiased frequencies and standard errors of every item; s.n > 0.
  void (*estimate)(const FreqSummary& s, double* freq, double* std_error);

  int arrays_count() const { return arrays[1] != nullptr ? 2 : 1; }
  int64_t array_length(int64_t k, int64_t g) const { return arrays_over_g ? g : k; }
  int64_t width(int64_t k, int64_t g) const { return arrays_count() * array_length(k, g); }
};

// The registry: Internal error for an unknown id; nullptr for an unknown byte.
const FreqMechanismImpl& freq_impl(FreqMechanism id);
const FreqMechanismImpl* freq_impl_from_byte(uint8_t id);

// derive_g of the mechanisms without a g.
inline int64_t freq_no_g(const FreqParams&) { return 0; }
// Validates the parameters (InvalidParameter) and returns g.
int64_t freq_validated_g(const FreqMechanismImpl& m, const FreqParams& p);

// ---- pure protocols (Wang et al., USENIX Security 2017) ----
// Support of item v has probability p if the user holds v, q otherwise.
// gap = p - q and rest = 1 - p - q are given in closed form by each mechanism,
// so that small epsilons do not lose digits to cancellation.
struct PureProbs {
  double p, q, gap, rest;
};
// f̂(v) = (C_v/n - q)/(p - q); Var = q(1-q)/(n (p-q)^2) + f(1-p-q)/(n (p-q)),
// the variance for a fixed population, with f = f̂ clamped to [0, 1].
void pure_estimate(const FreqSummary& s, const PureProbs& pr, double* freq, double* std_error);

// ---- helpers ----
// Encoders: the user's value must be an item of [0, k) (OutOfRange).
void check_encoder_value(int64_t value, int64_t k);
// Adders: the summary must be of this mechanism (Internal: a bug of the caller).
void check_summary_mechanism(const FreqSummary& s, FreqMechanism id);
// Counter checks of the codecs: every c[i] in [lo, hi], else `kind` naming the array.
void check_counter_range(const FreqSummary& s, ErrorKind kind, const char* array,
                         const int64_t* c, int64_t len, int64_t lo, int64_t hi);
[[noreturn]] void throw_bad_counts(const FreqSummary& s, ErrorKind kind, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));

}  // namespace ldp
