#include "core/infer/release_file.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/exec/cancellation.h"
#include "core/infer/release_header.h"
#include "core/infer/release_reader.h"
#include "core/privacy/perturbed_histogram.h"

namespace dpsynth::core::infer {

NaiveBayesModel NaiveBayesRelease::model() const {
  return NaiveBayesModel(layout, n, noisyCounts, laplaceScale(), priorAlpha);
}

namespace {

/// t = ε/Δ1 as num/den with den = Δ1·10^6 and num = ⌊ε·10^6⌋, rounded down from the decimal ε
/// exactly (privacy::decimalMicrosDown, as privacy::phNoiseRate does), so t never exceeds ε/Δ1.
void naiveBayesNoiseRate(double epsilon, int sensitivity, std::uint64_t& num, std::uint64_t& den) {
  constexpr std::uint64_t kScale = 1'000'000;
  const std::uint64_t whole = privacy::decimalMicrosDown(epsilon);
  if (whole < 1) throw std::invalid_argument("epsilon must be at least 1e-6");
  num = whole;
  den = static_cast<std::uint64_t>(sensitivity) * kScale;
}

}  // namespace

NaiveBayesRelease makeNaiveBayesRelease(const NaiveBayesLayout& layout, const CodedRecords& records,
                                        double epsilon, privacy::BitSource& bits,
                                        bool notForRelease, double priorAlpha,
                                        const std::stop_token& stop) {
  const std::vector<std::string> problems = layout.validate();
  if (!problems.empty()) throw std::invalid_argument(problems.front());
  if (!(epsilon > 0.0 && epsilon <= 1e6)) {
    throw std::invalid_argument("epsilon must be in (0, 1e6]");
  }
  if (records.empty()) throw std::invalid_argument("no records to release");
  // Every record has the same width (CodedRecords): checked once, as record 1's.
  if (records.width() != static_cast<std::size_t>(layout.featureCount()) + 1)
    throw std::invalid_argument("record 1 is outside the layout");
  exec::StopCheck check(stop);
  for (std::size_t r = 0; r < records.size(); ++r) {
    check.tick();
    const auto rec = records[r];
    bool ok = rec[0] >= 0 && rec[0] < layout.classCount();
    for (int k = 0; ok && k < layout.featureCount(); ++k) {
      const int code = rec[static_cast<std::size_t>(k) + 1];
      ok = code >= 0 && code < layout.levelCount(k);
    }
    if (!ok)
      throw std::invalid_argument("record " + std::to_string(r + 1) + " is outside the layout");
  }
  NaiveBayesRelease release;
  release.layout = layout;
  release.n = static_cast<int>(records.size());
  release.epsilon = epsilon;
  release.priorAlpha = priorAlpha;
  release.notForRelease = notForRelease;
  naiveBayesNoiseRate(epsilon, 2 * layout.featureCount(), release.rateNum, release.rateDen);
  release.noisyCounts = naiveBayesCounts(layout, records, stop);
  for (Eigen::Index c = 0; c < release.noisyCounts.size(); ++c) {
    release.noisyCounts[c] +=
        static_cast<double>(privacy::discreteLaplace(bits, release.rateNum, release.rateDen));
  }
  return release;
}

std::string releaseToJson(const NaiveBayesRelease& r) {
  const ReleaseHeader header{"naive-bayes", "discrete-laplace", r.epsilon, r.neighbours,
                             r.n,           r.notForRelease};
  nlohmann::ordered_json j;
  writeReleaseHeader(j, header);
  nlohmann::ordered_json features = nlohmann::ordered_json::array();
  for (int k = 0; k < r.layout.featureCount(); ++k) {
    features.push_back({{"name", r.layout.features[static_cast<std::size_t>(k)]},
                        {"levels", r.layout.levels[static_cast<std::size_t>(k)]}});
  }
  j["layout"] = {{"classes", r.layout.classes},
                 {"features", features},
                 {"order", "class, then feature, then level"}};
  j["sensitivity"] = 2 * r.layout.featureCount();
  j["noise_rate"] = {{"numerator", r.rateNum}, {"denominator", r.rateDen}};
  j["noisy_counts"] =
      std::vector<double>(r.noisyCounts.data(), r.noisyCounts.data() + r.noisyCounts.size());
  j["model"] = "naive-bayes log-linear (004 section 4)";
  j["prior"] = {{"dirichlet", r.priorAlpha}};
  writeReleaseMark(j, header);
  return j.dump(2) + "\n";
}

NaiveBayesRelease releaseFromJson(const std::string& text, const std::string& file) {
  const nlohmann::json j = parseReleaseJson(text, file);
  const io::JsonReader r = releaseReader(j, file);
  const ReleaseHeader header = readReleaseHeader(r, {"naive-bayes", {"discrete-laplace"}});
  NaiveBayesRelease out;
  out.neighbours = header.neighbours;
  out.epsilon = header.epsilon;
  out.n = header.n;
  out.notForRelease = header.notForRelease;
  const io::JsonReader layout = r.object("layout");
  out.layout.classes = layout.strings("classes");
  const nlohmann::json& features = layout.array("features");
  for (std::size_t k = 0; k < features.size(); ++k) {
    const io::JsonReader f = layout.objectAt(features[k], "features[" + std::to_string(k) + "]");
    out.layout.features.push_back(f.string("name"));
    out.layout.levels.push_back(f.strings("levels"));
  }
  const io::JsonReader rate = r.object("noise_rate");
  out.rateNum = rate.integer<std::uint64_t>("numerator", 1);
  out.rateDen = rate.integer<std::uint64_t>("denominator", 1);
  // The rate must not exceed ε/(2K), or the file claims a guarantee its noise does not give.
  const auto sensitivity = 2.0L * static_cast<long double>(out.layout.features.size());
  if (static_cast<long double>(out.rateNum) * sensitivity >
      static_cast<long double>(out.epsilon) * static_cast<long double>(out.rateDen) *
          (1.0L + 1e-12L)) {
    r.fail("noise_rate", "is above epsilon / (2 x features): the noise does not give this epsilon");
  }
  const std::vector<double> counts = r.numberList("noisy_counts");
  out.noisyCounts =
      Eigen::Map<const Eigen::VectorXd>(counts.data(), static_cast<Eigen::Index>(counts.size()));
  out.priorAlpha = r.object("prior").number("dirichlet");
  try {
    out.model();  // checks layout, counts, n and prior
  } catch (const std::invalid_argument& e) {
    r.fail("", e.what());
  }
  return out;
}

}  // namespace dpsynth::core::infer
