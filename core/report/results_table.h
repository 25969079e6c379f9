#pragma once
/// The results table now lives in core/summary (typed rows with their CSV codec, and the one run
/// summary that draws the first synthetic datasets): these names are kept for the studio and
/// scripts written against core::report. New code uses core/summary/run_summary.h.
#include "core/summary/results_rows.h"

namespace dpsynth::core::report {

using summary::mechanismLabels;
using summary::resultsCsvRows;
using summary::resultsHeader;
using summary::ResultsRow;
using summary::resultsTable;
using summary::writeResultsCsv;

}  // namespace dpsynth::core::report
