#include "ui/document/run_types.h"

#include <algorithm>

namespace dpsynth::ui {

double StageProgress::fraction() const {
  long long done = 0, total = 0;
  for (const auto& c : chains) {
    done += c.iteration;
    total += c.total;
  }
  return total > 0 ? std::clamp(double(done) / double(total), 0.0, 1.0) : 0.0;
}

double StageProgress::remainingSeconds() const {
  const double f = fraction();
  if (f <= 0.01 || elapsedSeconds <= 0) return -1;
  return elapsedSeconds * (1.0 - f) / f;
}

}  // namespace dpsynth::ui
