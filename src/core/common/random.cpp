#include "core/common/random.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cmath>

#include "core/common/error.hpp"

namespace ldp {

double RandomSource::laplace(double scale) {
  // u uniform on (-1/2, 1/2); x = -scale * sgn(u) * ln(1 - 2|u|)
  double u = uniform_open() - 0.5;
  double a = std::fabs(u);
  double x = -scale * std::log1p(-2.0 * a);
  return u < 0 ? -x : x;
}

double RandomSource::normal() {
  double u1 = uniform_open();
  double u2 = uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

uint64_t RandomSource::below(uint64_t n) {
  if (n <= 1) return 0;
  // Lemire's nearly divisionless method with rejection.
  uint64_t x = next_u64();
  unsigned __int128 m = static_cast<unsigned __int128>(x) * n;
  uint64_t low = static_cast<uint64_t>(m);
  if (low < n) {
    uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      x = next_u64();
      m = static_cast<unsigned __int128>(x) * n;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

uint64_t SecureRandom::next_u64() {
  if (used_ == 64) {
    size_t got = 0;
    auto* p = reinterpret_cast<unsigned char*>(buffer_);
    while (got < sizeof buffer_) {
      ssize_t r = getrandom(p + got, sizeof buffer_ - got, 0);
      if (r < 0) {
        if (errno == EINTR) continue;
        throw_error(ErrorKind::Internal, "getrandom failed: errno %d", errno);
      }
      got += static_cast<size_t>(r);
    }
    used_ = 0;
  }
  return buffer_[used_++];
}

}  // namespace ldp
