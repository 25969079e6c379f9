#include "core/infer/ph_release.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/data/csv_writer.h"
#include "core/infer/release_header.h"
#include "core/infer/release_reader.h"

namespace dpsynth::core::infer {

namespace {
constexpr const char* kPhMechanism = "perturbed histogram, discrete Laplace noise";
}  // namespace

std::vector<double> PhReleaseFile::edges() const {
  return privacy::phEdges(lower, upper, static_cast<std::size_t>(bins));
}

double PhReleaseFile::acceptanceBound() const { return std::exp(-2.0 * rate()); }

std::vector<std::string> PhReleaseFile::validate() const {
  std::vector<std::string> problems;
  if (!std::isfinite(lower) || !std::isfinite(upper) || !(lower < upper) ||
      !std::isfinite(upper - lower)) {
    problems.push_back("ph release: the bounds must be finite with lower < upper");
  }
  if (bins < 1) problems.push_back("ph release: bins must be at least 1");
  if (static_cast<long long>(noisyCounts.size()) != bins) {
    problems.push_back("ph release: expected " + std::to_string(bins) + " noisy counts, got " +
                       std::to_string(noisyCounts.size()));
  }
  if (n < 1) problems.push_back("ph release: n must be at least 1");
  if (!(epsilon > 0.0) || !std::isfinite(epsilon)) {
    problems.push_back("ph release: epsilon must be positive");
  }
  if (rateNum == 0 || rateDen == 0) {
    problems.push_back("ph release: noise_rate must be positive");
  } else if (std::isfinite(epsilon) && static_cast<long double>(rateNum) * sensitivity() >
                                           static_cast<long double>(epsilon) *
                                               static_cast<long double>(rateDen) *
                                               (1.0L + 1e-12L)) {
    problems.push_back("ph release: the noise rate is above epsilon / sensitivity");
  }
  if (clampedAtZero &&
      std::any_of(noisyCounts.begin(), noisyCounts.end(), [](std::int64_t d) { return d < 0; })) {
    problems.push_back("ph release: counts clamped at zero cannot be negative");
  }
  return problems;
}

PhReleaseFile phReleaseFile(const privacy::PhRelease& release, double epsilon,
                            privacy::Neighbours neighbours, int n,
                            std::optional<models::Family> family, privacy::SizeSource nSource,
                            double sizeEpsilon) {
  if (release.edges.size() < 2 || release.noisy.size() + 1 != release.edges.size()) {
    throw std::invalid_argument("phReleaseFile: edges and noisy counts do not match");
  }
  PhReleaseFile r;
  r.lower = release.edges.front();
  r.upper = release.edges.back();
  r.bins = static_cast<int>(release.noisy.size());
  r.integer = release.integer;
  r.epsilon = epsilon;
  r.neighbours = neighbours;
  if (release.sensitivity != r.sensitivity()) {
    throw std::invalid_argument("phReleaseFile: the release's sensitivity does not match " +
                                privacy::neighboursName(neighbours));
  }
  privacy::phNoiseRate(epsilon, release.sensitivity, r.rateNum, r.rateDen);
  r.noisyCounts = release.noisy;
  r.n = n;
  r.nSource = nSource;
  r.sizeEpsilon = nSource == privacy::SizeSource::noisy ? sizeEpsilon : 0.0;
  r.synthesizerFamily = family;
  r.notForRelease = !release.forRelease;
  return r;
}

std::string phReleaseToJson(const PhReleaseFile& r) {
  const ReleaseHeader header{"ph", kPhMechanism, r.epsilon, r.neighbours, r.n, r.notForRelease};
  nlohmann::ordered_json j;
  writeReleaseHeader(j, header);
  j["n_source"] = privacy::sizeSourceName(r.nSource);
  if (r.nSource == privacy::SizeSource::noisy) {
    j["size_epsilon"] = r.sizeEpsilon;
    j["epsilon_total"] = r.epsilon + r.sizeEpsilon;
    j["n_note"] =
        "n is a noisy count of the records (two-sided geometric noise at size_epsilon, clamped to "
        "at least 1), not the confidential n; the default bin count ceil(sqrt(n)) uses it. The "
        "release spends epsilon_total = epsilon + size_epsilon";
  } else if (r.nSource == privacy::SizeSource::declared) {
    j["n_note"] = "n was declared public by the user, not counted from the confidential data";
  }
  j["bounds"] = {{"lower", r.lower}, {"upper", r.upper}};
  j["bins"] = r.bins;
  j["edges"] = r.edges();
  j["binning"] =
      "bin j is [edge j, edge j+1), the last bin also holds the upper bound; values below the "
      "lower bound count in the first bin and values above the upper bound in the last";
  j["integer"] = r.integer;
  j["sensitivity"] = r.sensitivity();
  j["noise_rate"] = {{"numerator", r.rateNum}, {"denominator", r.rateDen}};
  j["noise"] = "P(noise = k) proportional to exp(-|k| numerator / denominator)";
  j["noisy_counts"] = r.noisyCounts;
  j["noisy_counts_clamped_at_zero"] = r.clampedAtZero;
  if (r.synthesizerFamily) j["synthesizer_family"] = models::familyName(*r.synthesizerFamily);
  j["model"] = "any synthesizer family, chosen at inference (dpsynth infer --family)";
  writeReleaseMark(j, header);
  return j.dump(2) + "\n";
}

PhReleaseFile phReleaseFromJson(const std::string& text, const std::string& file) {
  const nlohmann::json j = parseReleaseJson(text, file);
  const io::JsonReader r = releaseReader(j, file);
  // Any mechanism text: files written before the wording settled stay readable.
  const ReleaseHeader header = readReleaseHeader(r, {"ph", {}, /*addRemove=*/true});
  PhReleaseFile out;
  out.epsilon = header.epsilon;
  out.neighbours = header.neighbours;
  out.n = header.n;
  out.notForRelease = header.notForRelease;
  const io::JsonReader bounds = r.object("bounds");
  out.lower = bounds.number("lower");
  out.upper = bounds.number("upper");
  out.bins = r.integer<int>("bins", 1, kMaxReleaseBins);
  out.integer = r.boolean("integer");
  if (r.integer<long long>("sensitivity") != out.sensitivity()) {
    r.fail("sensitivity", "does not match the neighbour relation");
  }
  const io::JsonReader rate = r.object("noise_rate");
  out.rateNum = rate.integer<std::uint64_t>("numerator", 1);
  out.rateDen = rate.integer<std::uint64_t>("denominator", 1);
  out.noisyCounts = r.integers<std::int64_t>("noisy_counts");
  out.clampedAtZero = r.boolean("noisy_counts_clamped_at_zero", false);
  if (r.has("synthesizer_family")) {
    try {
      out.synthesizerFamily = models::parseFamily(r.string("synthesizer_family"));
    } catch (const std::invalid_argument& e) {
      r.fail("synthesizer_family", e.what());
    }
  }
  if (r.has("n_source")) {
    try {
      out.nSource = privacy::parseSizeSource(r.string("n_source"));
    } catch (const std::invalid_argument& e) {
      r.fail("n_source", e.what());
    }
  }
  if (out.nSource == privacy::SizeSource::noisy) {
    out.sizeEpsilon = r.number("size_epsilon");
    if (!(out.sizeEpsilon > 0.0) || !std::isfinite(out.sizeEpsilon))
      r.fail("size_epsilon", "must be positive");
  }
  const std::vector<std::string> problems = out.validate();
  if (!problems.empty()) r.fail("", problems.front());
  if (r.has("edges") && r.numberList("edges") != out.edges()) {
    r.fail("edges", "do not match the bounds and bins");
  }
  return out;
}

PhModel::PhModel(PhReleaseFile release, models::Family family, double sdScale)
    : release_(std::move(release)), family_(makeLatentFamily(family, sdScale)) {
  const std::vector<std::string> problems = release_.validate();
  if (!problems.empty()) throw std::invalid_argument(problems.front());
  // Records outside the bounds are counted in the edge bins: a family whose support misses
  // (a, b) puts every latent record in one bin whatever its parameters, so the release could
  // say nothing about them (the sampler ran to the end with every acceptance 1).
  const double a = release_.lower, b = release_.upper;
  const bool misses = family == models::Family::beta  ? (b <= 0.0 || a >= 1.0)
                      : models::isCountFamily(family) ? b <= 0.0
                                                      : false;
  if (misses) {
    throw std::invalid_argument(
        "the " + models::familyName(family) + " family's values lie outside the histogram's " +
        "bounds [" + data::formatNumber(a) + ", " + data::formatNumber(b) +
        "], so every latent record would fall in one edge bin and the release says nothing "
        "about the parameters: choose the family of the released variable");
  }
  edges_ = release_.edges();
  rate_ = release_.rate();
  noisy_.resize(release_.bins);
  for (int j = 0; j < release_.bins; ++j) {
    noisy_[j] = static_cast<double>(release_.noisyCounts[static_cast<std::size_t>(j)]);
  }
  // Pseudo-outcomes for the starting point: about 1000 values at the bins' centres in
  // proportion to max(D_j, 0) (flat when no count is positive), moved into the family's support.
  double total = 0.0;
  for (int j = 0; j < release_.bins; ++j) total += std::max(0.0, noisy_[j]);
  std::vector<double> pseudo;
  for (int j = 0; j < release_.bins; ++j) {
    const double w = total > 0.0 ? std::max(0.0, noisy_[j]) / total : 1.0 / release_.bins;
    const int copies = static_cast<int>(std::lround(w * 1000.0));
    double centre =
        0.5 * (edges_[static_cast<std::size_t>(j)] + edges_[static_cast<std::size_t>(j) + 1]);
    if (models::isCountFamily(family)) centre = std::max(0.0, std::round(centre));
    if (family == models::Family::beta) centre = std::clamp(centre, 1e-3, 1.0 - 1e-3);
    pseudo.insert(pseudo.end(), static_cast<std::size_t>(copies), centre);
  }
  if (pseudo.size() < 2) {
    pseudo = {edges_.front(), edges_.back()};
    for (double& v : pseudo) {
      if (models::isCountFamily(family)) v = std::max(0.0, std::round(v));
      if (family == models::Family::beta) v = std::clamp(v, 1e-3, 1.0 - 1e-3);
    }
  }
  start_ = family_->initialPoint(
      Eigen::Map<const Eigen::VectorXd>(pseudo.data(), static_cast<Eigen::Index>(pseudo.size())));
}

Eigen::VectorXd PhModel::initialTheta(random::Rng& rng) const {
  Eigen::VectorXd u = start_;
  for (Eigen::Index k = 0; k < u.size(); ++k) u[k] += random::uniform01(rng) - 0.5;
  return family_->constrain(u);
}

void PhModel::drawRecord(const Eigen::VectorXd& theta, random::Rng& rng, double* out) const {
  out[0] = family_->draw(theta, rng);
}

void PhModel::addStatistic(const double* record, Eigen::VectorXd& T) const {
  T[static_cast<Eigen::Index>(binOf(record[0]))] += 1.0;
}

double PhModel::moveStatistic(Eigen::VectorXd& T, const double* from, const double* to) const {
  const auto a = static_cast<Eigen::Index>(binOf(from[0]));
  const auto b = static_cast<Eigen::Index>(binOf(to[0]));
  if (a == b) return 0.0;
  // log η = −t Σ_j |D_j − C_j| + const (raw or clamped counts alike, see the header).
  const double before = std::abs(noisy_[a] - T[a]) + std::abs(noisy_[b] - T[b]);
  T[a] -= 1.0;
  T[b] += 1.0;
  return rate_ * (before - std::abs(noisy_[a] - T[a]) - std::abs(noisy_[b] - T[b]));
}

Eigen::VectorXd PhModel::drawTheta(const Eigen::VectorXd&, random::Rng&) const {
  throw std::logic_error("a ph release has no conjugate parameter draw: use makeThetaStep");
}

std::unique_ptr<ThetaStep> PhModel::makeThetaStep(int warmup) const {
  return family_->makeThetaStep(warmup, 0.5 * (release_.lower + release_.upper));
}

}  // namespace dpsynth::core::infer
