#include "core/infer/release_file.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>


namespace dpsynth::core::infer {

NaiveBayesModel NaiveBayesRelease::model() const {
  return NaiveBayesModel(layout, n, noisyCounts, laplaceScale(), priorAlpha);
}

namespace {

/// t = ε/Δ1 as num/den with den = Δ1·10^6 and num = ⌊ε·10^6⌋ (the exact product rounded down, as
/// privacy::phNoiseRate does), so t never exceeds ε/Δ1.
void naiveBayesNoiseRate(double epsilon, int sensitivity, std::uint64_t& num, std::uint64_t& den) {
  constexpr double kScale = 1e6;
  const double product = epsilon * kScale;
  double whole = std::floor(product);
  if (whole == product && std::fma(epsilon, kScale, -product) < 0.0) whole -= 1.0;
  if (whole < 1.0) throw std::invalid_argument("epsilon must be at least 1e-6");
  num = static_cast<std::uint64_t>(whole);
  den = static_cast<std::uint64_t>(sensitivity) * static_cast<std::uint64_t>(kScale);
}

}  // namespace

NaiveBayesRelease makeNaiveBayesRelease(const NaiveBayesLayout& layout,
                                        const std::vector<std::vector<int>>& records,
                                        double epsilon, privacy::BitSource& bits,
                                        bool notForRelease, double priorAlpha) {
  const std::vector<std::string> problems = layout.validate();
  if (!problems.empty()) throw std::invalid_argument(problems.front());
  if (!(epsilon > 0.0 && epsilon <= 1e6)) {
    throw std::invalid_argument("epsilon must be in (0, 1e6]");
  }
  if (records.empty()) throw std::invalid_argument("no records to release");
  for (std::size_t r = 0; r < records.size(); ++r) {
    const auto& rec = records[r];
    bool ok = static_cast<int>(rec.size()) == 1 + layout.featureCount() && rec[0] >= 0 &&
              rec[0] < layout.classCount();
    for (int k = 0; ok && k < layout.featureCount(); ++k) {
      const int code = rec[static_cast<std::size_t>(k) + 1];
      ok = code >= 0 && code < layout.levelCount(k);
    }
    if (!ok) throw std::invalid_argument("record " + std::to_string(r + 1) + " is outside the layout");
  }
  NaiveBayesRelease release;
  release.layout = layout;
  release.n = static_cast<int>(records.size());
  release.epsilon = epsilon;
  release.priorAlpha = priorAlpha;
  release.notForRelease = notForRelease;
  naiveBayesNoiseRate(epsilon, 2 * layout.featureCount(), release.rateNum, release.rateDen);
  release.noisyCounts = naiveBayesCounts(layout, records);
  for (Eigen::Index c = 0; c < release.noisyCounts.size(); ++c) {
    release.noisyCounts[c] +=
        static_cast<double>(privacy::discreteLaplace(bits, release.rateNum, release.rateDen));
  }
  return release;
}

std::string releaseToJson(const NaiveBayesRelease& r) {
  nlohmann::ordered_json j;
  j["version"] = 1;
  j["kind"] = "naive-bayes";
  j["mechanism"] = "discrete-laplace";
  j["epsilon"] = r.epsilon;
  j["neighbours"] = r.neighbours;
  j["n"] = r.n;
  nlohmann::ordered_json features = nlohmann::ordered_json::array();
  for (int k = 0; k < r.layout.featureCount(); ++k) {
    features.push_back({{"name", r.layout.features[static_cast<std::size_t>(k)]},
                        {"levels", r.layout.levels[static_cast<std::size_t>(k)]}});
  }
  j["layout"] = {{"classes", r.layout.classes}, {"features", features},
                 {"order", "class, then feature, then level"}};
  j["sensitivity"] = 2 * r.layout.featureCount();
  j["noise_rate"] = {{"numerator", r.rateNum}, {"denominator", r.rateDen}};
  j["noisy_counts"] = std::vector<double>(r.noisyCounts.data(),
                                          r.noisyCounts.data() + r.noisyCounts.size());
  j["model"] = "naive-bayes log-linear (004 section 4)";
  j["prior"] = {{"dirichlet", r.priorAlpha}};
  if (r.notForRelease) j["not_for_release"] = true;
  return j.dump(2) + "\n";
}

namespace {

[[noreturn]] void releaseFileError(const std::string& file, const std::string& what) {
  throw std::invalid_argument(file + ": " + what);
}

}  // namespace

NaiveBayesRelease releaseFromJson(const std::string& text, const std::string& file) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) releaseFileError(file, "not a JSON object");
  try {
    if (!j.contains("version") || j.at("version") != 1) {
      releaseFileError(file, "unsupported release version (expected \"version\": 1)");
    }
    const std::string kind = j.at("kind").get<std::string>();
    if (kind != "naive-bayes") releaseFileError(file, "unknown release kind '" + kind + "'");
    if (j.at("mechanism").get<std::string>() != "discrete-laplace") {
      releaseFileError(file, "unknown mechanism for a naive-bayes release");
    }
    NaiveBayesRelease r;
    r.neighbours = j.at("neighbours").get<std::string>();
    if (r.neighbours != "replace-one") {
      releaseFileError(file, "naive-bayes releases are defined for replace-one neighbours only");
    }
    r.epsilon = j.at("epsilon").get<double>();
    r.n = j.at("n").get<int>();
    r.layout.classes = j.at("layout").at("classes").get<std::vector<std::string>>();
    for (const auto& f : j.at("layout").at("features")) {
      r.layout.features.push_back(f.at("name").get<std::string>());
      r.layout.levels.push_back(f.at("levels").get<std::vector<std::string>>());
    }
    r.rateNum = j.at("noise_rate").at("numerator").get<std::uint64_t>();
    r.rateDen = j.at("noise_rate").at("denominator").get<std::uint64_t>();
    if (r.rateNum == 0 || r.rateDen == 0) releaseFileError(file, "noise_rate must be positive");
    const auto counts = j.at("noisy_counts").get<std::vector<double>>();
    r.noisyCounts = Eigen::Map<const Eigen::VectorXd>(counts.data(),
                                                      static_cast<Eigen::Index>(counts.size()));
    r.priorAlpha = j.at("prior").at("dirichlet").get<double>();
    r.notForRelease = j.value("not_for_release", false);
    if (!(r.epsilon > 0.0)) releaseFileError(file, "epsilon must be positive");
    r.model();  // checks layout, counts, n and prior
    return r;
  } catch (const nlohmann::json::exception& e) {
    releaseFileError(file, std::string("missing or ill-typed key (") + e.what() + ")");
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    if (what.rfind(file + ": ", 0) == 0) throw;
    releaseFileError(file, what);
  }
}

}  // namespace dpsynth::core::infer
