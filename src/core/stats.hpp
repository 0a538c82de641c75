// Small statistics helpers shared by every estimator.
#pragma once

namespace ldp {

// Two-sided normal critical value: z with P(|Z| <= z) = confidence.
// Throws InvalidParameter unless 0 < confidence < 1.
double normal_critical_value(double confidence);

// An estimate with its standard error; has_std_error is false when the data
// cannot support one (for example a sample variance from a single report).
struct Estimate {
  double value = 0;
  double std_error = 0;
  bool has_std_error = false;
};

}  // namespace ldp
