#include "core/infer/naive_bayes_release.h"

#include <cmath>
#include <optional>
#include <set>
#include <stdexcept>

#include "core/data/quote_value.h"
#include "core/exec/cancellation.h"

namespace dpsynth::core::infer {
namespace {

/// The first name that occurs twice in `names`, quoted for a message.
std::optional<std::string> namedTwice(const std::vector<std::string>& names) {
  std::set<std::string> seen;
  for (const auto& name : names)
    if (!seen.insert(name).second) return data::quoteForMessage(name, 40);
  return std::nullopt;
}

}  // namespace

int NaiveBayesLayout::cellsPerClass() const {
  int s = 0;
  for (const auto& l : levels) s += static_cast<int>(l.size());
  return s;
}

int NaiveBayesLayout::cell(int i, int k, int j) const {
  int offset = 0;
  for (int f = 0; f < k; ++f) offset += levelCount(f);
  return i * cellsPerClass() + offset + j;
}

std::vector<std::string> NaiveBayesLayout::validate() const {
  std::vector<std::string> problems;
  if (classes.size() < 2) problems.push_back("naive Bayes needs at least 2 classes");
  if (features.empty()) problems.push_back("naive Bayes needs at least 1 feature");
  // A name given twice would make two cells of one value: a record would be counted in the
  // first only, and the release would publish a count that can only ever hold noise.
  if (const auto twice = namedTwice(classes))
    problems.push_back("class " + *twice + " is named twice in the class levels");
  if (const auto twice = namedTwice(features))
    problems.push_back("feature " + *twice + " is named twice");
  if (levels.size() != features.size()) {
    problems.push_back("naive Bayes layout: one list of levels per feature is required");
  } else {
    for (std::size_t k = 0; k < levels.size(); ++k) {
      if (levels[k].size() < 2) {
        problems.push_back("feature '" + features[k] + "' needs at least 2 levels");
      }
      if (const auto twice = namedTwice(levels[k]))
        problems.push_back("feature '" + features[k] + "': level " + *twice + " is named twice");
    }
  }
  return problems;
}

CodedRecords::CodedRecords(const std::vector<std::vector<int>>& records)
    : width_(records.empty() ? 0 : records.front().size()) {
  codes_.reserve(records.size() * width_);
  for (std::size_t r = 0; r < records.size(); ++r) {
    if (records[r].size() != width_)
      throw std::invalid_argument("record " + std::to_string(r + 1) + " has " +
                                  std::to_string(records[r].size()) + " codes, the first has " +
                                  std::to_string(width_));
    codes_.insert(codes_.end(), records[r].begin(), records[r].end());
  }
}

Eigen::VectorXd naiveBayesCounts(const NaiveBayesLayout& layout, const CodedRecords& records,
                                 const std::stop_token& stop) {
  if (!records.empty() && records.width() != static_cast<std::size_t>(layout.featureCount()) + 1)
    throw std::invalid_argument("naive Bayes counts: records of " +
                                std::to_string(records.width()) + " codes for " +
                                std::to_string(layout.featureCount()) + " features");
  Eigen::VectorXd counts = Eigen::VectorXd::Zero(layout.classCount() * layout.cellsPerClass());
  exec::StopCheck check(stop);
  for (std::size_t i = 0; i < records.size(); ++i) {
    check.tick();
    const auto r = records[i];
    for (int k = 0; k < layout.featureCount(); ++k) {
      counts[layout.cell(r[0], k, r[static_cast<std::size_t>(k) + 1])] += 1.0;
    }
  }
  return counts;
}

NaiveBayesModel::NaiveBayesModel(NaiveBayesLayout layout, int records, Eigen::VectorXd noisyCounts,
                                 double laplaceScale, double priorAlpha)
    : layout_(std::move(layout)),
      n_(records),
      noisy_(std::move(noisyCounts)),
      scale_(laplaceScale),
      alpha_(priorAlpha) {
  const std::vector<std::string> problems = layout_.validate();
  if (!problems.empty()) throw std::invalid_argument(problems.front());
  if (noisy_.size() != layout_.classCount() * layout_.cellsPerClass()) {
    throw std::invalid_argument("naive Bayes release: expected " +
                                std::to_string(layout_.classCount() * layout_.cellsPerClass()) +
                                " noisy counts, got " + std::to_string(noisy_.size()));
  }
  if (!noisy_.allFinite())
    throw std::invalid_argument("naive Bayes release: a count is not finite");
  if (n_ < 1) throw std::invalid_argument("naive Bayes release: n must be at least 1");
  if (!(scale_ > 0.0) || !std::isfinite(scale_)) {
    throw std::invalid_argument("naive Bayes release: the Laplace scale must be positive");
  }
  if (!(alpha_ > 0.0) || !std::isfinite(alpha_)) {
    throw std::invalid_argument("naive Bayes release: the Dirichlet prior must be positive");
  }
  int offset = 0;
  for (int k = 0; k < layout_.featureCount(); ++k) {
    offsets_.push_back(offset);
    offset += layout_.levelCount(k);
  }
}

std::vector<std::string> NaiveBayesModel::parameterNames() const {
  std::vector<std::string> names;
  for (const auto& c : layout_.classes) names.push_back("p[" + c + "]");
  for (const auto& c : layout_.classes) {
    for (int k = 0; k < layout_.featureCount(); ++k) {
      for (const auto& level : layout_.levels[static_cast<std::size_t>(k)]) {
        names.push_back("p[" + layout_.features[static_cast<std::size_t>(k)] + "=" + level + "|" +
                        c + "]");
      }
    }
  }
  return names;
}

Eigen::VectorXd NaiveBayesModel::drawDirichlets(const Eigen::VectorXd& counts,
                                                random::Rng& rng) const {
  const int classes = layout_.classCount();
  const int perClass = layout_.cellsPerClass();
  Eigen::VectorXd theta(parameterDim());
  // Class counts n_i = Σ_j n_{ij0}: every record has a level of feature 0.
  double sum = 0.0;
  for (int i = 0; i < classes; ++i) {
    double ni = 0.0;
    for (int j = 0; j < layout_.levelCount(0); ++j) ni += counts[i * perClass + j];
    theta[i] = random::gamma(rng, alpha_ + ni);
    sum += theta[i];
  }
  theta.head(classes) /= sum;
  for (int i = 0; i < classes; ++i) {
    for (int k = 0; k < layout_.featureCount(); ++k) {
      const int first = i * perClass + offsets_[static_cast<std::size_t>(k)];
      double s = 0.0;
      for (int j = 0; j < layout_.levelCount(k); ++j) {
        theta[classes + first + j] = random::gamma(rng, alpha_ + counts[first + j]);
        s += theta[classes + first + j];
      }
      theta.segment(classes + first, layout_.levelCount(k)) /= s;
    }
  }
  return theta;
}

Eigen::VectorXd NaiveBayesModel::initialTheta(random::Rng& rng) const {
  return drawDirichlets(Eigen::VectorXd::Zero(statisticDim()), rng);
}

namespace {
/// Index drawn from probabilities p[0..m−1] (summing to 1 up to rounding: the last index takes
/// what is left).
int naiveBayesCategorical(const double* p, int m, random::Rng& rng) {
  double u = random::uniform01(rng);
  for (int j = 0; j < m - 1; ++j) {
    if (u < p[j]) return j;
    u -= p[j];
  }
  return m - 1;
}
}  // namespace

void NaiveBayesModel::drawRecord(const Eigen::VectorXd& theta, random::Rng& rng,
                                 double* out) const {
  const int classes = layout_.classCount();
  const int y = naiveBayesCategorical(theta.data(), classes, rng);
  out[0] = y;
  const double* conditional = theta.data() + classes + y * layout_.cellsPerClass();
  for (int k = 0; k < layout_.featureCount(); ++k) {
    out[k + 1] = naiveBayesCategorical(conditional + offsets_[static_cast<std::size_t>(k)],
                                       layout_.levelCount(k), rng);
  }
}

void NaiveBayesModel::addStatistic(const double* record, Eigen::VectorXd& T) const {
  const int base = static_cast<int>(record[0]) * layout_.cellsPerClass();
  for (int k = 0; k < layout_.featureCount(); ++k) {
    T[base + offsets_[static_cast<std::size_t>(k)] + static_cast<int>(record[k + 1])] += 1.0;
  }
}

double NaiveBayesModel::moveStatistic(Eigen::VectorXd& T, const double* from,
                                      const double* to) const {
  // log η = −Σ_c |m_c − T_c| / b: only the cells the two records fall in change.
  const int perClass = layout_.cellsPerClass();
  const int baseFrom = static_cast<int>(from[0]) * perClass;
  const int baseTo = static_cast<int>(to[0]) * perClass;
  double delta = 0.0;
  for (int k = 0; k < layout_.featureCount(); ++k) {
    const int offset = offsets_[static_cast<std::size_t>(k)];
    const int a = baseFrom + offset + static_cast<int>(from[k + 1]);
    const int b = baseTo + offset + static_cast<int>(to[k + 1]);
    if (a == b) continue;
    const double before = std::abs(noisy_[a] - T[a]) + std::abs(noisy_[b] - T[b]);
    T[a] -= 1.0;
    T[b] += 1.0;
    delta += before - std::abs(noisy_[a] - T[a]) - std::abs(noisy_[b] - T[b]);
  }
  return delta / scale_;
}

Eigen::VectorXd NaiveBayesModel::drawTheta(const Eigen::VectorXd& T, random::Rng& rng) const {
  return drawDirichlets(T, rng);
}

}  // namespace dpsynth::core::infer
