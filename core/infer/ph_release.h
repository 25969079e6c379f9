#pragma once
/// Instance (c) of SPEC §6: a perturbed-histogram release made by this tool, analysed with any
/// synthesizer family of SPEC §2 (intercept-only).
///
/// The release (kind "ph") holds the public settings and the DP output: bounds [a, b], m equal
/// bins, the neighbour relation and its L1 sensitivity Δ1 (2 replace-one, 1 add-remove), the
/// discrete Laplace rate t = num/den ≤ ε/Δ1, the noisy counts D_j = C_j + K_j with
/// P(K = k) ∝ exp(−t|k|), and n. The exact confidential counts C_j never enter it.
///
/// Model: latent y_i ~ family(θ); record statistic t_i = one-hot of the bin perturbHistogram
/// counts y_i in (privacy::phBinOf: values below a in the first bin, above b in the last, as
/// if clamped); η(D | C) = Π_j t-discrete-Laplace(D_j − C_j) ∝ exp(−t Σ_j |D_j − C_j|).
/// A file may instead hold D̃_j = max(D_j, 0) (noisy_counts_clamped_at_zero). Then, for C ≥ 0,
/// P(D̃ = 0 | C) = P(K ≤ −C) = e^{−tC}/(1 + e^{−t}) and P(D̃ = d | C) = p(d − C) for d > 0:
/// both are exp(−t|D̃ − C|) times a constant that depends on D̃ alone, so the same ratio is
/// exact for the clamped counts (tested against the discrete Laplace distribution function).
///
/// Moving one latent record changes two counts by one, so |Δ log η| ≤ 2t: the acceptance
/// probability is ≥ e^{−2t} ≥ e^{−ε} under replace-one (e^{−2ε} under add-remove, where one
/// record replaced is two neighbour steps).
#include <Eigen/Dense>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/infer/nuts_theta_step.h"
#include "core/infer/record_additive.h"
#include "core/models/family.h"
#include "core/privacy/neighbours.h"
#include "core/privacy/perturbed_histogram.h"
#include "core/privacy/size_release.h"

namespace dpsynth::core::infer {

struct PhReleaseFile {
  double lower = 0.0;
  double upper = 1.0;
  int bins = 1;
  bool integer = false;  ///< made for a count family (synthetic values were integers)
  double epsilon = 0.0;
  privacy::Neighbours neighbours = privacy::Neighbours::replaceOne;
  std::uint64_t rateNum = 0, rateDen = 1;  ///< t = rateNum / rateDen ≤ ε / Δ1
  std::vector<std::int64_t> noisyCounts;   ///< D_j (or D̃_j when clampedAtZero)
  bool clampedAtZero = false;
  /// The published number of records (SPEC §0): n only where n is public; under add-remove
  /// (or after dropping incomplete records) a noisy or a declared size. The latent records of
  /// `dpsynth infer` are this many.
  int n = 0;
  /// Where n comes from ("n_source"); files written before it existed say nothing and read as
  /// public.
  privacy::SizeSource nSource = privacy::SizeSource::publicSize;
  /// ε_n spent on a noisy n (0 otherwise): the release as a whole spends epsilon + sizeEpsilon.
  double sizeEpsilon = 0.0;
  std::optional<models::Family> synthesizerFamily;  ///< the family of the run (informational)
  bool notForRelease = false;

  int sensitivity() const { return privacy::histogramSensitivity(neighbours); }
  double rate() const { return static_cast<double>(rateNum) / static_cast<double>(rateDen); }
  std::vector<double> edges() const;
  /// e^{−2t}: the smallest possible acceptance probability of a proposal.
  double acceptanceBound() const;
  /// One message per problem (bounds, bins, counts, n, ε, rate above ε/Δ1, negative clamped
  /// counts).
  std::vector<std::string> validate() const;
};

/// The publishable part of a ph mechanism's output: never the exact counts. n is the published
/// size (privacy::PublishedSize::rows) with its source and ε_n.
PhReleaseFile phReleaseFile(const privacy::PhRelease& release, double epsilon,
                            privacy::Neighbours neighbours, int n,
                            std::optional<models::Family> family,
                            privacy::SizeSource nSource = privacy::SizeSource::publicSize,
                            double sizeEpsilon = 0.0);

/// JSON text (version 1, kind "ph"; README "Release files").
std::string phReleaseToJson(const PhReleaseFile& release);
/// Throws std::invalid_argument with one line naming `file` and the problem.
PhReleaseFile phReleaseFromJson(const std::string& text, const std::string& file);

class PhModel final : public RecordAdditiveModel {
 public:
  /// Throws std::invalid_argument when the release does not validate or sdScale is not > 0.
  PhModel(PhReleaseFile release, models::Family family, double sdScale = 1.0);

  int recordCount() const override { return release_.n; }
  int recordWidth() const override { return 1; }
  int statisticDim() const override { return release_.bins; }
  int parameterDim() const override { return family_->dim(); }
  std::vector<std::string> parameterNames() const override { return family_->parameterNames(); }

  /// The family's starting point for pseudo-outcomes at the bins' centres weighted by
  /// max(D_j, 0) (post-processing of the release), jittered by U(−½, ½) per unconstrained
  /// coordinate so that chains start apart.
  Eigen::VectorXd initialTheta(random::Rng& rng) const override;
  void drawRecord(const Eigen::VectorXd& theta, random::Rng& rng, double* out) const override;
  void addStatistic(const double* record, Eigen::VectorXd& T) const override;
  double moveStatistic(Eigen::VectorXd& T, const double* from, const double* to) const override;
  /// No conjugate draw exists: throws std::logic_error (the sampler uses makeThetaStep).
  Eigen::VectorXd drawTheta(const Eigen::VectorXd& T, random::Rng& rng) const override;
  std::unique_ptr<ThetaStep> makeThetaStep(int warmup) const override;

  const PhReleaseFile& release() const { return release_; }
  std::size_t binOf(double y) const { return privacy::phBinOf(y, edges_); }

 private:
  PhReleaseFile release_;
  std::unique_ptr<LatentFamily> family_;
  std::vector<double> edges_;
  Eigen::VectorXd noisy_;
  double rate_;
  Eigen::VectorXd start_;  ///< unconstrained starting point before jitter
};

}  // namespace dpsynth::core::infer
