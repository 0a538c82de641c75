// What the parts of ldp_summary_fuzz share: a seed (a valid summary of one family, in
// both forms) and the small helpers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace ldp_fuzz {

using Bytes = std::vector<uint8_t>;

struct Family;  // a row of kFamilies (summary_fuzz.cpp)

struct Seed {
  const Family* family;
  std::string label;  // where it came from
  std::string text;   // valid text form
  Bytes binary;       // valid binary form (the send function's output)
  size_t fields_start = 7;    // the binary form's first 8-byte field (after the mechanism byte)
  size_t counter_width_at = 0;  // format 3: the byte saying how wide the counters are; else 0
};

template <class T>
const T& pick(const std::vector<T>& v, std::mt19937_64& g) {
  return v[g() % v.size()];
}

// Lower-case hex of the bytes.
std::string hex(const Bytes& b);

// A mutated text / binary form of `in`: edits aimed at the forms' fields, numbers at the
// edges of what the parsers accept, pieces of other seeds spliced in (mutations.cpp).
std::string mutate_text(const std::string& in, const std::vector<Seed>& seeds, std::mt19937_64& g);
Bytes mutate_binary(const Seed& in, const std::vector<Seed>& seeds, std::mt19937_64& g);

}  // namespace ldp_fuzz
