#include "core/infer/linreg_release.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "core/infer/release_header.h"
#include "core/infer/release_reader.h"

namespace dpsynth::core::infer {

namespace {

double linregNormalise(double v, double lower, double upper) {
  const double clamped = std::clamp(v, lower, upper);
  // Monotone rounding keeps the result in [−1, 1]; the clamp only guards the endpoints.
  return std::clamp(2.0 * (clamped - lower) / (upper - lower) - 1.0, -1.0, 1.0);
}

/// v rounded to the nearest multiple of 2^−10 (ties to even), for |v| ≤ 2^40: adding and taking
/// away 1.5·2^52 rounds v·1024 to an integer in IEEE arithmetic, inline (std::nearbyint is a
/// library call, and this runs d times per proposal).
double linregRound(double v) {
  constexpr double kMagic = 6755399441055744.0;  // 1.5 · 2^52
  const double scaled = v * 1024.0;
  return ((scaled + kMagic) - kMagic) / 1024.0;
}

/// Two independent standard normals from one polar (Marsaglia) step: the model needs q per
/// proposal, and rng's standardNormal discards the second value of each pair.
void linregNormalPair(random::Rng& rng, double& a, double& b) {
  for (;;) {
    const double u = 2.0 * random::uniform01(rng) - 1.0;
    const double v = 2.0 * random::uniform01(rng) - 1.0;
    const double s = u * u + v * v;
    if (s > 0.0 && s < 1.0) {
      const double f = std::sqrt(-2.0 * std::log(s) / s);
      a = u * f;
      b = v * f;
      return;
    }
  }
}

[[noreturn]] void linregInvalid(const std::string& what) {
  throw std::invalid_argument("linreg release: " + what);
}

}  // namespace

int LinregLayout::statisticCount() const {
  const int p = predictorCount();
  return (p + 1) * (p + 4) / 2;
}

std::vector<std::string> LinregLayout::statisticNames() const {
  // Release order: x̃ᵀỹ, ỹᵀỹ, then x̃ᵀx̃ without its constant entry (row-major upper triangle).
  std::vector<std::string> names{outcome};
  for (const auto& x : predictors) names.push_back(x + "*" + outcome);
  names.push_back(outcome + "*" + outcome);
  for (const auto& x : predictors) names.push_back(x);
  for (std::size_t j = 0; j < predictors.size(); ++j) {
    for (std::size_t k = j; k < predictors.size(); ++k) {
      names.push_back(predictors[j] + "*" + predictors[k]);
    }
  }
  return names;
}

int LinregLayout::sensitivity() const {
  const int p = predictorCount();
  return p * p + 3 * p + 3;
}

std::uint64_t LinregLayout::gridSensitivity() const {
  return static_cast<std::uint64_t>(sensitivity()) * 1024u +
         static_cast<std::uint64_t>(statisticCount());
}

std::vector<std::string> LinregLayout::validate() const {
  std::vector<std::string> problems;
  const int p = predictorCount();
  if (p < 1 || p > kLinregMaxPredictors) {
    problems.push_back("a linear regression needs 1 to " + std::to_string(kLinregMaxPredictors) +
                       " predictors");
  }
  if (lower.size() != predictors.size() || upper.size() != predictors.size()) {
    problems.push_back("every predictor needs public bounds");
    return problems;
  }
  std::set<std::string> seen{outcome};
  if (outcome.empty()) problems.push_back("the outcome needs a name");
  for (std::size_t j = 0; j < predictors.size(); ++j) {
    if (predictors[j].empty() || !seen.insert(predictors[j]).second) {
      problems.push_back("predictor '" + predictors[j] + "' is empty or named twice");
    }
    if (!(std::isfinite(lower[j]) && std::isfinite(upper[j]) && lower[j] < upper[j])) {
      problems.push_back("bounds of '" + predictors[j] + "' must be finite with lower < upper");
    }
  }
  if (!(std::isfinite(outcomeLower) && std::isfinite(outcomeUpper) &&
        outcomeLower < outcomeUpper)) {
    problems.push_back("bounds of '" + outcome + "' must be finite with lower < upper");
  }
  return problems;
}

void linregNormalisedContribution(int predictors, const double* z, double* out) {
  const int p = predictors;
  const double y = z[p];
  int at = 0;
  out[at++] = linregRound(y);
  for (int j = 0; j < p; ++j) out[at++] = linregRound(z[j] * y);
  out[at++] = linregRound(y * y);
  for (int j = 0; j < p; ++j) out[at++] = linregRound(z[j]);
  for (int j = 0; j < p; ++j) {
    for (int k = j; k < p; ++k) out[at++] = linregRound(z[j] * z[k]);
  }
}

void linregContribution(const LinregLayout& layout, const double* raw, double* out) {
  const int p = layout.predictorCount();
  if (p > kLinregMaxPredictors) linregInvalid("too many predictors");
  double z[kLinregMaxPredictors + 1];
  for (int j = 0; j < p; ++j) {
    z[j] = linregNormalise(raw[j], layout.lower[static_cast<std::size_t>(j)],
                           layout.upper[static_cast<std::size_t>(j)]);
  }
  z[p] = linregNormalise(raw[p], layout.outcomeLower, layout.outcomeUpper);
  linregNormalisedContribution(p, z, out);
}

Eigen::VectorXd linregStatistic(const LinregLayout& layout,
                                const std::vector<std::vector<double>>& records) {
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(layout.statisticCount());
  Eigen::VectorXd one(layout.statisticCount());
  for (const auto& r : records) {
    linregContribution(layout, r.data(), one.data());
    sum += one;
  }
  return sum;
}

std::vector<std::string> LinregModelSpec::validate(int predictors) const {
  std::vector<std::string> problems;
  if (!(sigma > 0.0) || !std::isfinite(sigma)) problems.push_back("sigma must be positive");
  if (!(priorSd > 0.0) || !std::isfinite(priorSd)) {
    problems.push_back("the prior sd must be positive");
  }
  if (static_cast<int>(predictorMeans.size()) != predictors ||
      static_cast<int>(predictorSds.size()) != predictors) {
    problems.push_back("the predictor distribution needs a mean and an sd for every predictor");
    return problems;
  }
  for (int j = 0; j < predictors; ++j) {
    const auto i = static_cast<std::size_t>(j);
    if (!std::isfinite(predictorMeans[i]) || !(predictorSds[i] > 0.0) ||
        !std::isfinite(predictorSds[i])) {
      problems.push_back("a predictor mean must be finite and its sd positive");
      break;
    }
  }
  return problems;
}

LinregModel::LinregModel(LinregLayout layout, LinregModelSpec spec, int records,
                         Eigen::VectorXd noisy, double laplaceScale)
    : layout_(std::move(layout)),
      spec_(std::move(spec)),
      n_(records),
      q_(layout_.predictorCount() + 1),
      d_(layout_.statisticCount()),
      noisy_(std::move(noisy)),
      scale_(laplaceScale) {
  std::vector<std::string> problems = layout_.validate();
  if (!problems.empty()) linregInvalid(problems.front());
  problems = spec_.validate(layout_.predictorCount());
  if (!problems.empty()) linregInvalid(problems.front());
  if (noisy_.size() != d_) {
    linregInvalid("expected " + std::to_string(d_) + " noisy sums, got " +
                  std::to_string(noisy_.size()));
  }
  if (!noisy_.allFinite()) linregInvalid("a noisy sum is not finite");
  if (n_ < 1) linregInvalid("n must be at least 1");
  if (!(scale_ > 0.0) || !std::isfinite(scale_))
    linregInvalid("the Laplace scale must be positive");
}

std::vector<std::string> LinregModel::parameterNames() const {
  std::vector<std::string> names{"beta[(Intercept)]"};
  for (const auto& x : layout_.predictors) names.push_back("beta[" + x + "]");
  return names;
}

Eigen::VectorXd LinregModel::initialTheta(random::Rng& rng) const {
  Eigen::VectorXd beta(q_);
  for (int j = 0; j < q_; ++j) beta[j] = random::normal(rng, 0.0, spec_.priorSd);
  return beta;
}

void LinregModel::completeRecord(double* record) const {
  const int p = q_ - 1;
  linregContribution(layout_, record, record + q_);
  // Raw xᵀx (upper triangle of (1, x)(1, x)ᵀ, row-major) and xᵀy on the unclamped values.
  double* raw = record + q_ + d_;
  const double y = record[p];
  int at = 0;
  for (int j = 0; j <= p; ++j) {
    const double xj = j == 0 ? 1.0 : record[j - 1];
    for (int k = j; k <= p; ++k) raw[at++] = xj * (k == 0 ? 1.0 : record[k - 1]);
  }
  raw[at++] = y;
  for (int j = 0; j < p; ++j) raw[at++] = record[j] * y;
}

void LinregModel::drawRecord(const Eigen::VectorXd& theta, random::Rng& rng, double* out) const {
  const int p = q_ - 1;
  double z[kLinregMaxPredictors + 2];
  for (int j = 0; j < q_; j += 2) linregNormalPair(rng, z[j], z[j + 1]);
  double mean = theta[0];
  for (int j = 0; j < p; ++j) {
    const auto i = static_cast<std::size_t>(j);
    out[j] = spec_.predictorMeans[i] + spec_.predictorSds[i] * z[j];
    mean += theta[j + 1] * out[j];
  }
  out[p] = mean + spec_.sigma * z[p];
  completeRecord(out);
}

void LinregModel::addStatistic(const double* record, Eigen::VectorXd& T) const {
  const double* t = record + q_;
  for (int k = 0; k < d_ + rawDim(); ++k) T[k] += t[k];
}

double LinregModel::moveStatistic(Eigen::VectorXd& T, const double* from, const double* to) const {
  // log η = −Σ_k |s_k − T_k| / b over the released sums. They are multiples of 2^−10 and stay
  // exact, so moving back restores them bit for bit; the raw sums (η ignores them) are restored
  // up to rounding.
  const double* a = from + q_;
  const double* b = to + q_;
  double delta = 0.0;
  for (int k = 0; k < d_; ++k) {
    const double before = std::abs(noisy_[k] - T[k]);
    T[k] += b[k] - a[k];
    delta += before - std::abs(noisy_[k] - T[k]);
  }
  const int total = d_ + rawDim();
  for (int k = d_; k < total; ++k) T[k] += b[k] - a[k];
  return delta / scale_;
}

Eigen::MatrixXd LinregModel::posteriorPrecision(const Eigen::VectorXd& T,
                                                Eigen::VectorXd& score) const {
  // β | x, y ~ N(μ, Σ), Σ = (xᵀx/σ² + I/τ²)^−1, μ = Σ xᵀy/σ² (004 S-5); T holds the raw xᵀx
  // (upper triangle, row-major) and xᵀy after the d released sums.
  Eigen::MatrixXd precision(q_, q_);
  int at = d_;
  for (int j = 0; j < q_; ++j) {
    for (int k = j; k < q_; ++k) precision(j, k) = precision(k, j) = T[at++];
  }
  const double s2 = spec_.sigma * spec_.sigma;
  precision /= s2;
  precision.diagonal().array() += 1.0 / (spec_.priorSd * spec_.priorSd);
  score = T.segment(at, q_) / s2;
  return precision;
}

void LinregModel::conjugatePosterior(const Eigen::VectorXd& T, Eigen::VectorXd& mean,
                                     Eigen::MatrixXd& covariance) const {
  Eigen::VectorXd score;
  const Eigen::LLT<Eigen::MatrixXd> llt(posteriorPrecision(T, score));
  mean = llt.solve(score);
  covariance = llt.solve(Eigen::MatrixXd::Identity(q_, q_));
}

Eigen::VectorXd LinregModel::drawTheta(const Eigen::VectorXd& T, random::Rng& rng) const {
  Eigen::VectorXd score;
  const Eigen::LLT<Eigen::MatrixXd> llt(posteriorPrecision(T, score));  // positive definite
  const Eigen::VectorXd mean = llt.solve(score);
  // β = μ + L^−ᵀ z with precision = L Lᵀ has covariance (L Lᵀ)^−1.
  Eigen::VectorXd z(q_);
  for (int j = 0; j < q_; ++j) z[j] = random::standardNormal(rng);
  return mean + llt.matrixU().solve(z);
}

double LinregRelease::laplaceScale() const {
  return kLinregGrid * static_cast<double>(rateDen) / static_cast<double>(rateNum);
}

LinregModel LinregRelease::model() const {
  return LinregModel(layout, spec, n, noisy, laplaceScale());
}

LinregRelease makeLinregRelease(const LinregLayout& layout, const LinregModelSpec& spec,
                                const std::vector<std::vector<double>>& records, double epsilon,
                                privacy::BitSource& bits, bool notForRelease) {
  std::vector<std::string> problems = layout.validate();
  if (!problems.empty()) linregInvalid(problems.front());
  problems = spec.validate(layout.predictorCount());
  if (!problems.empty()) linregInvalid(problems.front());
  if (!(epsilon >= 1e-6 && epsilon <= 1e6)) linregInvalid("epsilon must be in [1e-6, 1e6]");
  if (records.empty()) linregInvalid("no records to release");
  const auto width = static_cast<std::size_t>(layout.predictorCount()) + 1;
  for (std::size_t r = 0; r < records.size(); ++r) {
    if (records[r].size() != width)
      linregInvalid("record " + std::to_string(r + 1) + " has the wrong width");
    for (const double v : records[r]) {
      if (!std::isfinite(v))
        linregInvalid("record " + std::to_string(r + 1) + " has a value that is not finite");
    }
  }
  LinregRelease release;
  release.layout = layout;
  release.spec = spec;
  release.n = static_cast<int>(records.size());
  release.epsilon = epsilon;
  release.notForRelease = notForRelease;
  // t = ε/Δ_γ rounded down: num = ⌊ε·10^6⌋, den = Δ_γ·10^6 (as privacy::phNoiseRate).
  std::uint64_t num = 0, den = 0;
  try {
    privacy::phNoiseRate(epsilon, 1, num, den);
  } catch (const std::invalid_argument&) {
    linregInvalid("epsilon is too small (it is rounded down to a multiple of 1e-6)");
  }
  release.rateNum = num;
  release.rateDen = den * layout.gridSensitivity();
  release.noisy = linregStatistic(layout, records);
  for (Eigen::Index k = 0; k < release.noisy.size(); ++k) {
    release.noisy[k] += kLinregGrid * static_cast<double>(privacy::discreteLaplace(
                                          bits, release.rateNum, release.rateDen));
  }
  return release;
}

std::string linregReleaseToJson(const LinregRelease& r) {
  const ReleaseHeader header{"linreg", "discrete-laplace", r.epsilon, r.neighbours,
                             r.n,      r.notForRelease};
  nlohmann::ordered_json j;
  writeReleaseHeader(j, header);
  nlohmann::ordered_json predictors = nlohmann::ordered_json::array();
  for (int k = 0; k < r.layout.predictorCount(); ++k) {
    const auto i = static_cast<std::size_t>(k);
    predictors.push_back({{"name", r.layout.predictors[i]},
                          {"lower", r.layout.lower[i]},
                          {"upper", r.layout.upper[i]}});
  }
  j["layout"] = {
      {"predictors", predictors},
      {"outcome",
       {{"name", r.layout.outcome},
        {"lower", r.layout.outcomeLower},
        {"upper", r.layout.outcomeUpper}}},
      {"normalisation", "clamp to [lower, upper], then 2 (v - lower) / (upper - lower) - 1"},
      {"statistics", r.layout.statisticNames()},
      {"grid", kLinregGrid}};
  j["sensitivity"] = r.layout.sensitivity();
  j["grid_sensitivity"] = r.layout.gridSensitivity();
  j["noise_rate"] = {{"numerator", r.rateNum}, {"denominator", r.rateDen}};
  j["noisy_statistics"] = std::vector<double>(r.noisy.data(), r.noisy.data() + r.noisy.size());
  nlohmann::ordered_json dist = nlohmann::ordered_json::array();
  for (int k = 0; k < r.layout.predictorCount(); ++k) {
    const auto i = static_cast<std::size_t>(k);
    dist.push_back({{"name", r.layout.predictors[i]},
                    {"mean", r.spec.predictorMeans[i]},
                    {"sd", r.spec.predictorSds[i]}});
  }
  j["model"] = {{"name", "normal linear regression with intercept (004 section 5)"},
                {"sigma", r.spec.sigma},
                {"predictors", dist}};
  j["prior"] = {{"beta_sd", r.spec.priorSd}};
  writeReleaseMark(j, header);
  return j.dump(2) + "\n";
}

LinregRelease linregReleaseFromJson(const std::string& text, const std::string& file) {
  const nlohmann::json j = parseReleaseJson(text, file);
  const io::JsonReader r = releaseReader(j, file);
  const ReleaseHeader header = readReleaseHeader(r, {"linreg", {"discrete-laplace"}});
  LinregRelease out;
  out.neighbours = header.neighbours;
  out.epsilon = header.epsilon;
  out.n = header.n;
  out.notForRelease = header.notForRelease;
  const io::JsonReader layout = r.object("layout");
  const nlohmann::json& predictors = layout.array("predictors");
  for (std::size_t k = 0; k < predictors.size(); ++k) {
    const io::JsonReader x =
        layout.objectAt(predictors[k], "predictors[" + std::to_string(k) + "]");
    out.layout.predictors.push_back(x.string("name"));
    out.layout.lower.push_back(x.number("lower"));
    out.layout.upper.push_back(x.number("upper"));
  }
  const io::JsonReader outcome = layout.object("outcome");
  out.layout.outcome = outcome.string("name");
  out.layout.outcomeLower = outcome.number("lower");
  out.layout.outcomeUpper = outcome.number("upper");
  if (layout.number("grid") != kLinregGrid) layout.fail("grid", "is unsupported (expected 2^-10)");
  const auto problems = out.layout.validate();
  if (!problems.empty()) r.fail("", problems.front());
  if (r.integer<long long>("sensitivity", 0) != out.layout.sensitivity() ||
      r.integer<std::uint64_t>("grid_sensitivity") != out.layout.gridSensitivity()) {
    r.fail("sensitivity", "does not match the layout");
  }
  const io::JsonReader rate = r.object("noise_rate");
  out.rateNum = rate.integer<std::uint64_t>("numerator", 1);
  out.rateDen = rate.integer<std::uint64_t>("denominator", 1);
  // The rate must not exceed ε/Δ_γ, or the file claims a guarantee its noise does not give.
  if (static_cast<long double>(out.rateNum) *
          static_cast<long double>(out.layout.gridSensitivity()) >
      static_cast<long double>(out.epsilon) * static_cast<long double>(out.rateDen) *
          (1.0L + 1e-12L)) {
    r.fail("noise_rate", "is above epsilon / grid_sensitivity");
  }
  const std::vector<double> sums = r.numberList("noisy_statistics");
  out.noisy =
      Eigen::Map<const Eigen::VectorXd>(sums.data(), static_cast<Eigen::Index>(sums.size()));
  const io::JsonReader model = r.object("model");
  out.spec.sigma = model.number("sigma");
  const nlohmann::json& dist = model.array("predictors");
  if (dist.size() != out.layout.predictors.size()) {
    model.fail("predictors", "must give a mean and an sd for every predictor");
  }
  for (std::size_t k = 0; k < dist.size(); ++k) {
    const io::JsonReader d = model.objectAt(dist[k], "predictors[" + std::to_string(k) + "]");
    if (d.string("name") != out.layout.predictors[k]) {
      model.fail("predictors", "must follow the layout's predictor order");
    }
    out.spec.predictorMeans.push_back(d.number("mean"));
    out.spec.predictorSds.push_back(d.number("sd"));
  }
  out.spec.priorSd = r.object("prior").number("beta_sd");
  try {
    out.model();  // checks the spec, the number of sums, n and the scale
  } catch (const std::invalid_argument& e) {
    r.fail("", e.what());
  }
  return out;
}

}  // namespace dpsynth::core::infer
