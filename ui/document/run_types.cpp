#include "ui/document/run_types.h"

#include <algorithm>

namespace dpsynth::ui {

double StageProgress::fraction() const {
  // A chain that has not reported yet (total 0) has as many iterations to go as the others.
  int perChain = 0;
  for (const auto& c : chains) perChain = std::max(perChain, c.total);
  long long done = 0, total = 0;
  for (const auto& c : chains) {
    done += c.iteration;
    total += c.total > 0 ? c.total : perChain;
  }
  return total > 0 ? std::clamp(double(done) / double(total), 0.0, 1.0) : 0.0;
}

double StageProgress::remainingSeconds() const {
  const double f = fraction();
  if (f <= 0.01 || elapsedSeconds <= 0) return -1;
  return elapsedSeconds * (1.0 - f) / f;
}

}  // namespace dpsynth::ui
