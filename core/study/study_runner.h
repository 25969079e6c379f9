#pragma once
/// Runs the replicates of a study (SPEC §8). One replicate = its data (replicate_source), ONE
/// runMechanisms call over every cell with a stage cache of its own (so the unweighted and lw
/// fits are shared across ε and tuning), reduced at once to rows; the fits are dropped.
///
/// Threads: replicates run in parallel, `threads` at a time, and everything inside a replicate
/// (chains, the Lipschitz pass) runs on the replicate's own thread. Replicates are equal-sized
/// and independent, so this keeps every core busy without synchronisation, where parallel
/// chains wait for the slowest chain at every stage boundary; and it never nests pools.
#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/study/replicate_source.h"
#include "core/study/study_config.h"
#include "core/study/study_plan.h"

namespace dpsynth::core::study {

/// The rows of one replicate, in studyHeader() order, all fields as text (numbers exact and
/// round-trip, data::formatNumber; empty = not applicable). The first row is the replicate's
/// "confidential" row (its data's own statistics), then one row per cell in studyCells order.
struct ReplicateRows {
  int replicate = 0;
  std::vector<std::vector<std::string>> rows;
};

/// "replicate", "cell", "cell_mechanism", "cell_epsilon", "cell_c", "cell_g", "cell_downscale",
/// then every column of report::resultsHeader() (taken as it is, so measures added there
/// appear here), then "divergences", "max_rhat", "seconds".
std::vector<std::string> studyHeader();

/// One replicate; nullopt when `stop` was requested before it finished.
std::optional<ReplicateRows> runReplicate(const StudyConfig& config, const ReplicateSource& source,
                                          int replicate, std::stop_token stop = {});

struct StudyProgress {
  int done = 0;   ///< replicates finished in this run
  int total = 0;  ///< replicates this run was asked for
  double elapsedSeconds = 0;
};

enum class StudyOutcome { completed, cancelled };

/// The replicate loop of every study kind: run(r, stop) makes replicate r's rows (nullopt when
/// stopped); up to `threads` run at a time (0 = all cores, core/exec/parallel_for). onReplicate
/// receives each finished replicate (serialised: one call at a time, in order of completion) and
/// then onProgress is called. Exceptions from a replicate or a callback stop the others and are
/// rethrown.
StudyOutcome runReplicates(
    const std::vector<int>& replicates, int threads,
    const std::function<std::optional<ReplicateRows>(int, std::stop_token)>& run,
    const std::function<void(const ReplicateRows&)>& onReplicate,
    const std::function<void(const StudyProgress&)>& onProgress, std::stop_token stop);

/// Runs the given replicates with up to `threads` at a time (0 = hardware concurrency).
/// onReplicate receives each finished replicate (serialised: one call at a time, in order of
/// completion) and then onProgress is called. Exceptions from a replicate or a callback stop
/// the others and are rethrown. A stop request lets no new replicate start and abandons the
/// running ones; the finished ones have been handed over.
StudyOutcome runStudy(const StudyConfig& config, const std::vector<int>& replicates, int threads,
                      const std::function<void(const ReplicateRows&)>& onReplicate,
                      const std::function<void(const StudyProgress&)>& onProgress = {},
                      std::stop_token stop = {});
/// As above with the replicates' data from `source` (e.g. a bootstrap of data in memory).
StudyOutcome runStudy(const StudyConfig& config, const ReplicateSource& source,
                      const std::vector<int>& replicates, int threads,
                      const std::function<void(const ReplicateRows&)>& onReplicate,
                      const std::function<void(const StudyProgress&)>& onProgress = {},
                      std::stop_token stop = {});

}  // namespace dpsynth::core::study
