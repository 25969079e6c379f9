#include "core/mcmc/step_size_adapter.h"

#include <cmath>
#include <stdexcept>

namespace dpsynth::core::mcmc {

StepSizeAdapter::StepSizeAdapter(double targetAccept, double gamma, double t0, double kappa)
    : targetAccept_(targetAccept), gamma_(gamma), t0_(t0), kappa_(kappa) {
  if (!(targetAccept > 0 && targetAccept < 1)) {
    throw std::invalid_argument("StepSizeAdapter: target acceptance must lie in (0, 1)");
  }
  if (!(gamma > 0) || !(t0 >= 0) || !(kappa > 0 && kappa <= 1)) {
    throw std::invalid_argument("StepSizeAdapter: need gamma > 0, t0 >= 0, 0 < kappa <= 1");
  }
}

void StepSizeAdapter::restart() {
  counter_ = 0;
  sBar_ = 0.0;
  xBar_ = 0.0;
}

double StepSizeAdapter::learn(double acceptStat) {
  ++counter_;
  const double a = acceptStat > 1.0 ? 1.0 : acceptStat;
  const double n = static_cast<double>(counter_);
  const double eta = 1.0 / (n + t0_);
  sBar_ = (1.0 - eta) * sBar_ + eta * (targetAccept_ - a);
  const double x = mu_ - sBar_ * std::sqrt(n) / gamma_;
  const double xEta = std::pow(n, -kappa_);
  xBar_ = (1.0 - xEta) * xBar_ + xEta * x;
  return std::exp(x);
}

double StepSizeAdapter::finalStepSize() const { return std::exp(xBar_); }

}  // namespace dpsynth::core::mcmc
