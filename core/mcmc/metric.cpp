#include "core/mcmc/metric.h"

namespace dpsynth::core::mcmc {

std::string metricKindName(MetricKind kind) { return kind == MetricKind::dense ? "dense" : "diag"; }

}  // namespace dpsynth::core::mcmc
