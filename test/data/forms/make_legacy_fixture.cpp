// Writes forms_legacy.txt: a real-valued summary (given as its text form) in the
// memory layout of the 0.1.0 library (ExactSum without its hot sums), as the
// unit test LegacyLayout builds it. Built against the core of 0.4.0 (commit 6392ac3):
//   g++ -std=c++17 -Isrc make_legacy_fixture.cpp build/cmake/libldp_core.a -lxxhash
#include <cstdio>
#include <cstring>
#include <vector>
#include "core/mean/mean_summary.hpp"
using namespace ldp;
int main(int argc, char** argv) {
  alignas(8) unsigned char buf[kMaxMeanSummarySize];
  mean_summary_from_text(argv[1], buf);
  auto* s = reinterpret_cast<MeanSummary*>(buf);
  mean_flush_hot(s);
  std::vector<unsigned char> img(kLegacyRealSummarySize, 0);
  std::memcpy(img.data(), s, sizeof(MeanSummary));
  const size_t one = (ExactSum::kLimbs + 1) * sizeof(int64_t);
  std::memcpy(img.data() + sizeof(MeanSummary), &s->sums()->sum, one);
  std::memcpy(img.data() + sizeof(MeanSummary) + one, &s->sums()->sumsq_unit, one);
  printf("\\x00000000");  // the 0.1.0 varlena's padding word
  for (unsigned char c : img) printf("%02x", c);
  printf("\n");
}
