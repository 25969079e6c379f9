#pragma once
/// The coverage study of paper 004 §4 ("coverage of credible intervals", its Table 1) as a study
/// kind: `"kind": "da-coverage"` in a study config (version 1). The naive-Bayes parameters are
/// fixed once: the class probabilities as given (normalised to sum 1) and every feature's
/// conditional probabilities drawn from their Dirichlet(α) prior with the study seed. Replicate
/// r draws one confidential table of N records from them; for each ε it makes one noisy
/// naive-Bayes release of that table (seeded noise: an internal study, never a release), runs
/// the data-augmentation sampler (SPEC §6) and records, per class probability p_i, whether the
/// central credible interval of the given level covers the true value. The same tables are used
/// at every ε (common random numbers), so differences between ε rows come from the noise alone.
///
/// Seeds, all from s_r = replicateSeed(seed, r) (study_plan.h):
///   records of replicate r:    makeRng(deriveSeed(s_r, 1));
///   release noise at ε index e: makeSeededSource(deriveSeed(s_r, 100 + e));
///   DA sampler at ε index e:    deriveSeed(s_r, 200 + e);
///   feature conditionals:       makeRng(deriveSeed(seed, 7)).
#include <Eigen/Dense>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/infer/naive_bayes_release.h"
#include "core/study/study_runner.h"
#include "core/study/study_store.h"

namespace dpsynth::core::study {

struct CoverageConfig {
  int version = 1;
  std::string note;
  int records = 100;                       ///< N
  std::vector<double> classProbabilities;  ///< the true p (I of them), normalised on reading
  std::vector<int> levels;                 ///< J_k for each of the K features
  double priorAlpha = 2.0;                 ///< Dirichlet(α) for every probability vector
  std::vector<double> epsilon;
  int replicates = 100;
  int iterations = 10000;  ///< DA sweeps per chain, warm-up included
  int warmup = 5000;
  int chains = 1;
  double level = 0.9;  ///< credible level of the central interval
  std::uint64_t seed = 1;
  /// A published coverage table to print beside ours: ε (as written) → coverage of each p_i.
  std::map<std::string, std::vector<double>> reference;
  std::string referenceName;  ///< e.g. "004 Table 1"

  int classes() const { return static_cast<int>(classProbabilities.size()); }
  /// The layout: classes "1".."I", features "x1".."xK" with levels "1".."J_k".
  infer::NaiveBayesLayout layout() const;
  /// One message per problem, each naming its key.
  std::vector<std::string> validate() const;
};

/// True when the config text declares `"kind": "da-coverage"` (false for any other text,
/// including text that is not JSON: the synthesis-study reader then reports it).
bool isCoverageConfigText(const std::string& text);
/// Reads a coverage config; ConfigError naming the file and key for anything wrong (including
/// what validate() finds).
CoverageConfig coverageConfigFromJson(const std::string& text, const std::string& file);
/// The canonical JSON (fixed key order, exact numbers): read back it gives the same config, and
/// its SHA-256 identifies the study in a study folder.
std::string coverageConfigToJson(const CoverageConfig& config);
std::string coverageConfigHash(const CoverageConfig& config);

/// The study folder identity (study_store.h) of a coverage study.
StoreIdentity coverageStoreIdentity(const CoverageConfig& config);

/// The fixed true parameters: θ in NaiveBayesModel order (p, then p_{ikj} in cell() order).
Eigen::VectorXd coverageTruth(const CoverageConfig& config);

/// "replicate", "epsilon", "parameter", "truth", "mean", "lower", "upper", "covered",
/// "mean_acceptance", "min_acceptance", "acceptance_bound", "rhat", "seconds".
std::vector<std::string> coverageHeader();

/// One replicate: for every ε, one row per class probability. nullopt when stopped.
std::optional<ReplicateRows> runCoverageReplicate(const CoverageConfig& config, int replicate,
                                                  std::stop_token stop = {});

/// Runs the given replicates, `threads` at a time (0 = all cores), as runStudy does.
StudyOutcome runCoverageStudy(const CoverageConfig& config, const std::vector<int>& replicates,
                              int threads,
                              const std::function<void(const ReplicateRows&)>& onReplicate,
                              const std::function<void(const StudyProgress&)>& onProgress = {},
                              std::stop_token stop = {});

struct CoverageCell {
  std::string epsilon;    ///< as in the rows
  std::string parameter;  ///< "p[1]"…
  double truth = 0;
  int replicates = 0;
  int covered = 0;
  double meanAcceptance = 0;   ///< mean over replicates
  double minAcceptance = 1;    ///< smallest over replicates
  double acceptanceBound = 0;  ///< e^{−ε}
  double coverage() const { return replicates > 0 ? double(covered) / replicates : 0.0; }
};

/// Coverage per ε × parameter, in row order.
std::vector<CoverageCell> summarizeCoverage(const std::vector<std::vector<std::string>>& rows);

/// The files writeCoverageOutputs writes: coverage.json, coverage.md.
std::vector<std::string> coverageOutputNames();

/// Writes coverage.json and coverage.md (ε rows × p_i columns, the reference table beside when
/// the config has one) into the study folder, each atomically, and records them in the folder's
/// ownership manifest (report::recordOwnedFiles).
void writeCoverageOutputs(const std::string& folder, const CoverageConfig& config,
                          const std::vector<std::vector<std::string>>& rows);

}  // namespace dpsynth::core::study
