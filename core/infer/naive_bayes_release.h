#pragma once
/// Instance (a) of SPEC §6, paper 004 §4: the naive-Bayes log-linear model. A record is a class
/// y ∈ {0..I−1} and K categorical features x_k ∈ {0..J_k−1}; p = P(y) and p_{ik} = P(x_k | y = i)
/// have Dirichlet(α) priors. The release is, as in 004 (§4 and eq. S7–S9), the class×feature
/// counts n_{ijk} = #(y = i, x_k = j) plus i.i.d. Laplace noise of scale 2K/ε (one record moves
/// two cells per feature under replace-one, so the L1 sensitivity is 2K). The class counts are
/// not released separately: 004 releases the n_{ijk} only, and n is public.
#include <Eigen/Dense>
#include <cstddef>
#include <span>
#include <stop_token>
#include <string>
#include <vector>

#include "core/infer/record_additive.h"

namespace dpsynth::core::infer {

struct NaiveBayesLayout {
  std::vector<std::string> classes;              ///< I labels
  std::vector<std::string> features;             ///< K names
  std::vector<std::vector<std::string>> levels;  ///< J_k labels per feature

  int classCount() const { return static_cast<int>(classes.size()); }
  int featureCount() const { return static_cast<int>(features.size()); }
  int levelCount(int k) const {
    return static_cast<int>(levels[static_cast<std::size_t>(k)].size());
  }
  /// Σ_k J_k: the cells of one class.
  int cellsPerClass() const;
  /// Index of n_{ijk} in the statistic: i·ΣJ + (J_0 + … + J_{k−1}) + j.
  int cell(int i, int k, int j) const;
  /// One message per problem: at least 2 classes, 1 feature, 2 levels per feature, sizes match.
  std::vector<std::string> validate() const;
};

/// Records coded for naive Bayes (a class y, then x_1..x_K), held flat: record r is
/// codes r·width … r·width + width − 1. One allocation for 10^7 records rather than one each:
/// building them is faster and a cancelled release frees them at once (SPEC §3: 100 ms).
class CodedRecords {
 public:
  explicit CodedRecords(std::size_t width) : width_(width) {}
  /// From one vector per record (tests, small callers); every record must have the first one's
  /// length (std::invalid_argument naming the record otherwise).
  CodedRecords(const std::vector<std::vector<int>>& records);  // NOLINT: implicit by design

  std::size_t size() const { return width_ == 0 ? 0 : codes_.size() / width_; }
  bool empty() const { return codes_.empty(); }
  std::size_t width() const { return width_; }
  std::span<const int> operator[](std::size_t r) const {
    return {codes_.data() + r * width_, width_};
  }
  void reserve(std::size_t records) { codes_.reserve(records * width_); }
  /// Appends one code of the record being built; a record is complete after width() codes.
  void push(int code) { codes_.push_back(code); }

 private:
  std::size_t width_ = 0;
  std::vector<int> codes_;
};

/// Class×feature counts of records given as codes (row: y, x_1..x_K), in cell() order.
/// `stop` is checked every few thousand records (exec::Cancelled).
Eigen::VectorXd naiveBayesCounts(const NaiveBayesLayout& layout, const CodedRecords& records,
                                 const std::stop_token& stop = {});

class NaiveBayesModel final : public RecordAdditiveModel {
 public:
  /// noisyCounts in cell() order; laplaceScale = 2K/ε; prior α for every Dirichlet.
  /// Throws std::invalid_argument for an invalid layout, a wrong number of counts, n < 1,
  /// a non-positive scale or α.
  NaiveBayesModel(NaiveBayesLayout layout, int records, Eigen::VectorXd noisyCounts,
                  double laplaceScale, double priorAlpha = 2.0);

  int recordCount() const override { return n_; }
  int recordWidth() const override { return 1 + layout_.featureCount(); }
  int statisticDim() const override { return static_cast<int>(noisy_.size()); }
  /// θ = (p_0..p_{I−1}, then p_{ikj} in cell() order).
  int parameterDim() const override { return layout_.classCount() + statisticDim(); }
  /// "p[class]" and "p[feature=level|class]".
  std::vector<std::string> parameterNames() const override;

  Eigen::VectorXd initialTheta(random::Rng& rng) const override;
  /// The prior draw initialTheta makes.
  std::optional<Eigen::VectorXd> drawPriorTheta(random::Rng& rng) const override {
    return initialTheta(rng);
  }
  void drawRecord(const Eigen::VectorXd& theta, random::Rng& rng, double* out) const override;
  void addStatistic(const double* record, Eigen::VectorXd& T) const override;
  double moveStatistic(Eigen::VectorXd& T, const double* from, const double* to) const override;
  Eigen::VectorXd drawTheta(const Eigen::VectorXd& T, random::Rng& rng) const override;

  const NaiveBayesLayout& layout() const { return layout_; }
  double laplaceScale() const { return scale_; }
  double priorAlpha() const { return alpha_; }

 private:
  /// θ | counts: p ~ Dir(α + n_i), p_{ik} ~ Dir(α + n_{i·k}); counts in cell() order.
  Eigen::VectorXd drawDirichlets(const Eigen::VectorXd& counts, random::Rng& rng) const;

  NaiveBayesLayout layout_;
  int n_;
  Eigen::VectorXd noisy_;
  double scale_;
  double alpha_;
  std::vector<int> offsets_;  ///< J_0 + … + J_{k−1}
};

}  // namespace dpsynth::core::infer
