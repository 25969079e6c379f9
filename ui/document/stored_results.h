#pragma once
/// Between a finished run and what a session file keeps of it (core::session::SessionResults):
/// the results table's rows, the warnings, posterior summaries and reductions of the per-record
/// Lipschitz bounds and weights. Reopening a session shows the rows at once, marked with when
/// and on which data they were made.
#include <QDateTime>
#include <QStringList>
#include <string>
#include <vector>

#include "core/report/results_table.h"
#include "core/session/session_results.h"
#include "ui/document/run_types.h"

namespace dpsynth::ui {

/// What a session keeps of `output`, finished at `finishedAt`. Never the records, never one
/// value per record, never draws.
core::session::SessionResults storedResultsOf(const RunOutput& output, const QDateTime& finishedAt);

std::vector<core::report::ResultsRow> storedRows(const core::session::SessionResults& results);
/// One warnings list per mechanism row (the table's layout).
std::vector<QStringList> storedWarnings(const core::session::SessionResults& results);

/// Stored results are stale when the loaded data is not the data they were made on, or the
/// settings were changed after their run before the session was saved.
bool storedResultsStale(const core::session::SessionResults& results,
                        const std::string& loadedSha256);
/// When the stored run finished: "2026-11-23 06:50 UTC".
QString storedResultsTime(const core::session::SessionResults& results);
/// "Results from 2026-11-23 06:50 UTC on data 3fa2c1d9e0b4 (session)", plus why they are stale
/// when they are (changedSince: the settings were changed after reopening).
QString storedResultsNote(const core::session::SessionResults& results,
                          const std::string& loadedSha256, bool changedSince = false);

}  // namespace dpsynth::ui
