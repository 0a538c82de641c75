#include "tools/common/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ldp::tools {

namespace {
bool stderr_is_terminal() {
  if (!isatty(STDERR_FILENO)) return false;
  const char* term = std::getenv("TERM");
  return !(term != nullptr && std::strcmp(term, "dumb") == 0);
}

int terminal_width() {
  struct winsize ws;
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}
}  // namespace

Progress::Progress(std::string label, int64_t total, std::string unit)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      enabled_(stderr_is_terminal()),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

Progress::~Progress() {
  if (!finished_) clear();
}

std::string Progress::human(double v) {
  char buf[32];
  if (!std::isfinite(v)) return "?";
  if (v >= 1e9)
    std::snprintf(buf, sizeof buf, "%.2fG", v / 1e9);
  else if (v >= 1e6)
    std::snprintf(buf, sizeof buf, "%.2fM", v / 1e6);
  else if (v >= 1e4)
    std::snprintf(buf, sizeof buf, "%.0fk", v / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

std::string Progress::duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  auto s = static_cast<long long>(std::llround(seconds));
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, (s / 60) % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%lld:%02lld", s / 60, s % 60);
  return buf;
}

void Progress::update(int64_t done) {
  if (!enabled_ || finished_) return;
  last_done_ = done;
  auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  draw(done, false);
}

void Progress::finish() {
  if (finished_) return;
  if (enabled_ && drawn_) {
    draw(total_ > 0 ? std::max(last_done_, total_) : last_done_, true);
    std::fputc('\n', stderr);
    std::fflush(stderr);
  }
  finished_ = true;
}

void Progress::clear() {
  if (enabled_ && drawn_) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
  drawn_ = false;
  finished_ = true;
}

void Progress::draw(int64_t done, bool final) {
  double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
  std::string line = label_;
  std::string tail;
  if (total_ > 0) {
    double frac = std::min(1.0, static_cast<double>(done) / static_cast<double>(total_));
    char pct[16];
    std::snprintf(pct, sizeof pct, "%5.1f%%", 100.0 * frac);
    tail = std::string(" ") + pct + "  " + human(rate) + " " + unit_ + "/s";
    if (final)
      tail += "  in " + duration(elapsed);
    else if (rate > 0)
      tail += "  ETA " + duration(static_cast<double>(total_ - done) / rate);
    int width = terminal_width();
    int bar = std::clamp(width - static_cast<int>(line.size() + tail.size()) - 4, 0, 30);
    if (bar >= 5) {
      int full = static_cast<int>(std::floor(frac * bar));
      line += " [" + std::string(static_cast<size_t>(full), '#') +
              std::string(static_cast<size_t>(bar - full), '.') + "]";
    }
  } else {
    tail = "  " + human(static_cast<double>(done)) + " " + unit_ + "  " + human(rate) + " " +
           unit_ + "/s";
  }
  line += tail;
  int width = terminal_width();
  if (static_cast<int>(line.size()) >= width) line.resize(static_cast<size_t>(std::max(width - 1, 1)));
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace ldp::tools
