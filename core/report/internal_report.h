#pragma once
/// The internal report (internal_report.html): everything an analyst needs to judge a run,
/// including what must never be published (confidential summary statistics, weights, per-record
/// Lipschitz bounds, ECDF distances to the confidential data). Marked CONFIDENTIAL throughout.
#include <string>

#include "core/report/report_inputs.h"

namespace dpsynth::core::report {

/// A self-contained HTML document (inline CSS and SVG; no scripts, no external files).
std::string internalReportHtml(const ReportInputs& inputs);

}  // namespace dpsynth::core::report
