#pragma once
/// Deterministic fake inputs for the plot tests (no library distributions, so the numbers are
/// the same on every platform).
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "ui/plots/plots_view.h"

namespace dpsynth::ui::test {

class FakeData {
 public:
  explicit FakeData(std::uint64_t seed) : engine_(seed) {}

  double uniform() { return (static_cast<double>(engine_() >> 11) + 0.5) / 9007199254740992.0; }
  double normal() {
    const double u = uniform(), v = uniform();
    return std::sqrt(-2 * std::log(u)) * std::cos(6.283185307179586 * v);
  }
  /// Right-skewed positive values (log-normal), like by-record Lipschitz bounds.
  std::vector<double> skewed(int n, double scale) {
    std::vector<double> out;
    for (int i = 0; i < n; ++i) out.push_back(scale * std::exp(0.6 * normal()));
    return out;
  }
  /// Weights in [0, 1], many at exactly 1.
  std::vector<double> weights(int n) {
    std::vector<double> out;
    for (int i = 0; i < n; ++i) out.push_back(std::min(1.0, 1.3 * uniform()));
    return out;
  }
  std::vector<double> normals(int n, double mean, double sd) {
    std::vector<double> out;
    for (int i = 0; i < n; ++i) out.push_back(mean + sd * normal());
    return out;
  }
  /// Poisson-ish counts by rounding a skewed value.
  std::vector<double> counts(int n, double mean) {
    std::vector<double> out;
    for (int i = 0; i < n; ++i) out.push_back(std::floor(mean * std::exp(0.5 * normal())));
    return out;
  }

  /// Realistic results for `mechanisms` mechanisms over `records` records.
  std::vector<MechanismPlotData> mechanisms(int mechanisms, int records) {
    static const char* kNames[] = {"unweighted", "lw", "lw-final", "cw", "weighted-e", "censor-w"};
    std::vector<MechanismPlotData> out;
    for (int m = 0; m < mechanisms; ++m) {
      MechanismPlotData d;
      d.name = QString::fromLatin1(kNames[m % 6]);
      d.strictDp = m % 2 == 1;
      d.epsilon = 6.0;
      d.weights =
          m == 0 ? std::vector<double>(static_cast<size_t>(records), 1.0) : weights(records);
      d.deltaPerRecord = skewed(records, 1.0 + 0.3 * m);
      for (size_t i = 0; i < d.weights.size(); ++i) d.deltaPerRecord[i] *= 0.3 + d.weights[i];
      if (m == 2) {
        d.weightsBefore = weights(records);
        d.deltaBefore = skewed(records, 2.0);
      }
      d.synthetic = normals(records, 10 + 0.5 * m, 2.0);
      d.parameterNames = {QStringLiteral("beta[1]"), QStringLiteral("sigma")};
      d.parameterDraws = {normals(800, 10 + 0.2 * m, 0.2), skewed(800, 2.0)};
      out.push_back(std::move(d));
    }
    return out;
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace dpsynth::ui::test
