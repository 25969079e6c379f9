#pragma once
/// The perturbed histogram (PH) mechanism (SPEC §4): ε-DP bin counts with exact discrete
/// Laplace noise, then synthetic values drawn from the noisy histogram.
#include <Eigen/Dense>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/random/rng.h"

namespace dpsynth::core::privacy {

/// A source of uniformly random 64-bit words.
class BitSource {
 public:
  virtual ~BitSource() = default;
  virtual std::uint64_t next64() = 0;
};

/// The operating system's CSPRNG (getrandom(2)). This is what releases use.
std::unique_ptr<BitSource> makeOsRandomSource();
/// A seeded source for studies and tests: NOT for release.
std::unique_ptr<BitSource> makeSeededSource(random::Seed seed);

/// Exact discrete Laplace sample: P(K = k) ∝ exp(-|k| t) with t = num/den (rational, so that the
/// sampler is exact in integer arithmetic; Canonne, Kamath & Steinke 2020).
std::int64_t discreteLaplace(BitSource& bits, std::uint64_t num, std::uint64_t den);

/// ⌊ε·10^6/divisor⌋ computed exactly for the decimal number ε stands for: its shortest
/// round-trip form, which is what the user typed ("0.000001") and what every file prints. The
/// double nearest to 1e-6 lies a hair below it, so rounding the double's product down gave 0 and
/// refused an ε the option check had accepted. Throws std::invalid_argument for ε not finite and
/// > 0, divisor < 1, or a result of 2^62 or more.
std::uint64_t decimalMicrosDown(double epsilon, std::uint64_t divisor = 1);

/// The rational rate t = num/den of discreteLaplace for ε-DP with L1 sensitivity Δ1 ∈ {1, 2}:
/// ε/Δ1 rounded DOWN to a multiple of 1/den (den = 10^6; decimalMicrosDown), so the guarantee
/// never exceeds the ε asked for. `what` names the mechanism in the std::invalid_argument messages
/// (ε not finite and > 0, too large, or too small to give a rate of at least 1e-6).
void discreteLaplaceRate(double epsilon, int sensitivity, const std::string& what,
                         std::uint64_t& num, std::uint64_t& den);

/// The rational t = num/den used for ε-DP with L1 sensitivity Δ1 (2 under replace-one
/// neighbours, 1 under add-remove; SPEC §0): t = ε/Δ1 rounded DOWN to a multiple of 1/den
/// (den = 10^6), so the guarantee never exceeds the ε asked for.
void phNoiseRate(double epsilon, int sensitivity, std::uint64_t& num, std::uint64_t& den);
inline void phNoiseRate(double epsilon, std::uint64_t& num, std::uint64_t& den) {
  phNoiseRate(epsilon, 2, num, den);
}

struct PhConfig {
  std::optional<double> lower;  ///< public bound a (required)
  std::optional<double> upper;  ///< public bound b (required, > a)
  int bins = 0;  ///< m; 0 = phDefaultBins(y.size()) (callers pass the published size)
  double epsilon = 1.0;
  /// L1 sensitivity of the count vector: 2 (replace-one neighbours) or 1 (add-remove).
  int sensitivity = 2;
  bool integer = false;  ///< integer-valued family: synthetic values are integers
  /// Seeded, reproducible noise (studies, tests): not for release. nullopt = OS CSPRNG.
  std::optional<random::Seed> reproducibleSeed;

  /// Empty when usable; e.g. "perturbed histogram needs public bounds: give --lower and --upper".
  std::vector<std::string> validate() const;
};

struct PhRelease {
  std::vector<double> edges;          ///< m + 1 bin edges from lower to upper
  std::vector<std::int64_t> counts;   ///< confidential counts C_j (never exported)
  std::vector<std::int64_t> noisy;    ///< D_j = C_j + noise
  std::vector<double> probabilities;  ///< q_j = max(D_j, 0) / sum (uniform if all zero)
  bool forRelease = true;             ///< false when reproducibleSeed was used
  bool integer = false;
  int sensitivity = 2;  ///< the L1 sensitivity the noise was calibrated to
};

/// Post-processing of the noisy counts: q_j = max(D_j, 0) / sum over eligible bins of max(D, 0)
/// (eligible empty = every bin; ineligible bins get q = 0). When no eligible bin has a positive
/// noisy count, q is uniform over the eligible bins: the noise has swamped the data and the flat
/// histogram is the least informative choice. Throws if eligible is given with the wrong size or
/// no bin is eligible.
std::vector<double> phProbabilities(const std::vector<std::int64_t>& noisy,
                                    const std::vector<bool>& eligible = {});

/// The m + 1 edges of m equal bins from lower to upper; the last edge is upper exactly.
std::vector<double> phEdges(double lower, double upper, std::size_t m);

/// The bin perturbHistogram counts v in: bins are [e_j, e_{j+1}) except the last, [e_{m−1}, e_m];
/// v ≤ e_0 (also −inf) falls in the first bin and v ≥ e_m (also +inf) in the last, so values
/// outside the bounds are counted as if clamped to them. Decided by comparing with the stored
/// edges, so counting and sampling agree on boundary values. v must not be NaN.
std::size_t phBinOf(double v, const std::vector<double>& edges);

/// The default number of bins for a histogram published with `size` records: ⌈√size⌉ (at least
/// 1). `size` must be a published size (SPEC §0: never the confidential n under add-remove).
std::size_t phDefaultBins(std::size_t size);

/// Values below lower/above upper are counted in the first/last bin (phBinOf). Throws
/// std::invalid_argument with validate()'s message when bounds are missing or inverted.
PhRelease perturbHistogram(const Eigen::VectorXd& y, const PhConfig& config);

/// n synthetic values: bin ~ Categorical(q), value ~ Uniform(bin) (integers in the bin for
/// integer families; a bin holding no integer is skipped from the categorical).
Eigen::VectorXd samplePerturbedHistogram(const PhRelease& release, std::size_t n, random::Rng& rng);

}  // namespace dpsynth::core::privacy
