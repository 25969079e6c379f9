#pragma once
/// A Monte Carlo study (SPEC §8) as a value: where each replicate's data comes from, the grid of
/// mechanisms × ε × tuning run on it, R replicates, sampler settings and a seed. Read from and
/// written to JSON ("version": 1); the minimal config of SPEC §8 is accepted as it is.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/models/family.h"
#include "core/pipeline/mechanism.h"
#include "core/privacy/neighbours.h"

namespace dpsynth::core::study {

/// A study config that cannot be used; the message names the file and key and what is wrong.
class ConfigError : public Error {
 public:
  explicit ConfigError(const std::string& message) : Error(Kind::badInput, message) {}
};

/// A parametric generator of one outcome column (no covariates).
///  - beta(a,b):               Beta(a, b), family beta;
///  - poisson(mu):             Poisson(mu), family poisson;
///  - negbin(mu,phi):          NB2 with mean mu and size phi, family negbin;
///  - nbmix(w,mu1,phi1,mu2,phi2): w·NB(mu1,phi1) + (1−w)·NB(mu2,phi2), family negbin;
///  - normal(mu,sigma):        Normal(mu, sigma), family normal (mu may be any number).
struct Generator {
  enum class Kind { beta, poisson, negbin, nbmix, normal };
  Kind kind = Kind::poisson;
  std::vector<double> parameters;  ///< in the order of the spelling above

  /// Parses "beta(0.5,3)", "poisson(100)"... (spaces allowed); throws std::invalid_argument
  /// saying what is wrong (unknown name, wrong count, non-numbers, out-of-range values).
  static Generator parse(const std::string& text);
  /// The canonical spelling, e.g. "beta(0.5,3)"; parse(spelling()) gives the same generator.
  std::string spelling() const;
  models::Family family() const;
};

/// The analyst's own CSV resampled with replacement: an INTERNAL study of the data, never a
/// release (every output says so).
struct Bootstrap {
  std::string file;
  std::string outcome;
  std::vector<std::string> covariates;
  models::Family family = models::Family::negbin;
  /// "reference": {"COLUMN": "LEVEL"}: the reference level of categorical covariates
  /// (data::DatasetSpec::referenceLevels).
  std::map<std::string, std::string> referenceLevels;
};

struct StudySource {
  std::optional<Generator> generator;  ///< exactly one of generator / bootstrap is set
  std::optional<Bootstrap> bootstrap;
  std::size_t n = 0;  ///< records per replicate; 0 with a bootstrap = the file's size
};

/// Tuning axes crossed with mechanisms and ε (a mechanism is crossed only with the axes it
/// uses: c and g by the weighted ones, downscale by weighted-e and censor-w).
struct TuningGrid {
  std::vector<double> c{1.0};
  std::vector<double> g{0.0};
  std::vector<std::optional<double>> downscale{1.0};  ///< nullopt = "auto"
};

struct StudySampler {
  int chains = 2;
  int warmup = 200;
  int draws = 200;
};

/// Public bounds for the perturbed histogram (never from the data, SPEC §4); beta defaults to
/// [0, 1].
struct HistogramBounds {
  std::optional<double> lower, upper;
  int bins = 0;  ///< 0 = ceil(sqrt(n))
};

struct StudyConfig {
  int version = 1;
  StudySource source;
  std::vector<pipeline::Mechanism> mechanisms;
  std::vector<double> epsilon;
  TuningGrid tuning;
  privacy::Neighbours neighbours = privacy::Neighbours::replaceOne;
  int replicates = 1;
  StudySampler sampler;
  HistogramBounds histogram;
  std::uint64_t seed = 1;
  std::string note;  ///< free text kept with the study (e.g. why add-remove)

  /// Empty when usable; otherwise one message per problem, each naming its key.
  std::vector<std::string> validate() const;
  /// The family of every replicate's dataset (normal when no source is set).
  models::Family family() const;
};

/// Reads a config (text of the file named `file`, for messages). Throws ConfigError naming the
/// key and problem, including every problem of validate().
StudyConfig studyConfigFromJson(const std::string& text, const std::string& file);
/// Reads the file (ConfigError when it cannot be read). A relative bootstrap path is taken
/// relative to the config file's folder, so a config and its data can move together.
StudyConfig loadStudyConfig(const std::string& path);
/// The text of a study config file of any kind (ConfigError naming the file when it cannot be
/// read, is not a regular file or exceeds 16 MiB).
std::string readStudyConfigText(const std::string& path);
/// Canonical JSON with every key written (defaults included), stable across runs: stored with a
/// study's outputs and hashed to recognise the same study on resume and merge.
std::string studyConfigToJson(const StudyConfig& config);
/// SHA-256 (hex) of studyConfigToJson(config).
std::string studyConfigHash(const StudyConfig& config);

}  // namespace dpsynth::core::study
