// A progress bar on stderr for the long-running tools. It draws only when stderr is a
// terminal (never into logs or pipes), redraws at most about ten times a second, and
// shows the percentage, the rate and the time left:
//
//   loading rr [##########..........]  50.1%  1.52M reports/s  ETA 0:03
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace ldp::tools {

class Progress {
 public:
  // total <= 0: unknown (no percentage or ETA).
  Progress(std::string label, int64_t total, std::string unit = "reports");
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Cheap to call often: draws only if 100 ms have passed since the last drawing.
  void update(int64_t done);
  // Draws the final state and ends the line (only if something was drawn).
  void finish();
  // Erases the bar without a final line, e.g. before printing an error.
  void clear();

  bool enabled() const { return enabled_; }

  // "1.52M", "830k", "12" (for rates and counts).
  static std::string human(double v);
  // "0:03", "1:02:03"
  static std::string duration(double seconds);

 private:
  void draw(int64_t done, bool final);

  std::string label_, unit_;
  int64_t total_;
  bool enabled_;
  bool drawn_ = false;
  bool finished_ = false;
  int64_t last_done_ = 0;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace ldp::tools
