/// Google Benchmark micro-benchmarks of the hot paths: the log density with gradient (what NUTS
/// calls ~10^5 times per fit), the streaming Lipschitz reduction and CW's isolation risk.
/// Whole-pipeline timings are `dpsynth bench`.
///
/// The Lipschitz cases report items = draws × records (record contributions per second) and
/// patterns = draws × patterns (model evaluations per second); BM_StreamingSum is the physical
/// yardstick: one pass over an n-vector of doubles, from memory (n = 10⁶) or from cache (one
/// tile), in elements per second.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>

#include "app/bench/import_fixture.h"
#include "core/data/csv_table.h"
#include "core/data/dataset.h"
#include "core/data/generators.h"
#include "core/data/regression_samples.h"
#include "core/mcmc/sampler.h"
#include "core/models/model.h"
#include "core/privacy/lipschitz.h"
#include "core/privacy/weights.h"
#include "core/random/rng.h"

namespace {

using namespace dpsynth::core;

data::Dataset sample(const std::string& kind, models::Family family) {
  const auto table =
      data::generateSample(kind, data::defaultSampleSize(kind), data::defaultSampleSeed(kind));
  data::DatasetSpec spec;
  spec.outcome = table.header.back();
  spec.family = family;
  return data::buildDataset(table, spec);
}

/// n values of a one-column kind as an intercept-only dataset, without text.
data::Dataset large(const std::string& kind, models::Family family, std::size_t n) {
  Eigen::VectorXd y = data::generateValues(kind, n, data::defaultSampleSeed(kind));
  Eigen::MatrixXd X = Eigen::MatrixXd::Ones(y.size(), 1);
  return data::numericDataset("y", family, std::move(y), std::move(X), {"(Intercept)"});
}

void logDensity(benchmark::State& state, const data::Dataset& dataset, double clamp,
                bool sufficient = true) {
  const models::Family family = dataset.family;
  auto model = models::makeModel(dataset, {family, 1.0, sufficient}, {{}, -clamp, clamp});
  Eigen::VectorXd u = model->initialPoint();
  Eigen::VectorXd grad(model->dim());
  for (auto _ : state) {
    benchmark::DoNotOptimize(model->logDensity(u, grad));
    u[0] += 1e-9;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["records"] = static_cast<double>(dataset.size());
}

void BM_LogDensityNegbin(benchmark::State& s) {
  logDensity(s, sample("nbmix", models::Family::negbin), INFINITY);
}
void BM_LogDensityBeta(benchmark::State& s) {
  logDensity(s, sample("beta", models::Family::beta), INFINITY);
}
void BM_LogDensityBetaCensored(benchmark::State& s) {
  logDensity(s, sample("beta", models::Family::beta), 2.0);
}
void BM_LogDensityPoisson(benchmark::State& s) {
  logDensity(s, sample("poisson", models::Family::poisson), INFINITY);
}
BENCHMARK(BM_LogDensityNegbin);
BENCHMARK(BM_LogDensityBeta);
BENCHMARK(BM_LogDensityBetaCensored);
BENCHMARK(BM_LogDensityPoisson);

/// Per-gradient cost at 10⁵–10⁶ records: sufficient statistics (arg 1) against the pattern by
/// pattern path (arg 0).
void BM_LogDensityNormalRegression1e5(benchmark::State& s) {
  static const auto d = data::normalRegressionSample(100000, 20261201);
  logDensity(s, d, INFINITY, s.range(0) != 0);
}
void BM_LogDensityBeta1e6(benchmark::State& s) {
  static const auto d = large("beta", models::Family::beta, 1000000);
  logDensity(s, d, INFINITY, s.range(0) != 0);
}
void BM_LogDensityPoissonRegression1e5(benchmark::State& s) {
  static const auto d = data::poissonRegressionSample(100000, 20261202);
  logDensity(s, d, INFINITY);
}
/// The scale case: negbin, five continuous covariates, 10⁶ records (each its own
/// pattern); the per-gradient cost that sets a default fit's minutes.
void BM_LogDensityNegbinContinuous1e6(benchmark::State& s) {
  static const auto d = data::continuousNegbinSample(1000000, 20261205);
  logDensity(s, d, INFINITY);
}
/// The rstan comparison's design (README): region, sector, age and income, n = 1500, every
/// record its own pattern; one gradient per family.
void BM_LogDensitySurvey(benchmark::State& s) {
  const auto family = static_cast<models::Family>(s.range(0));
  static std::map<int, data::Dataset> samples;
  auto it = samples.find(static_cast<int>(family));
  if (it == samples.end()) {
    it =
        samples
            .emplace(static_cast<int>(family), data::surveyRegressionSample(family, 1500, 20261127))
            .first;
  }
  s.SetLabel(models::familyName(family));
  logDensity(s, it->second, INFINITY);
}
BENCHMARK(BM_LogDensitySurvey)
    ->Arg(static_cast<int>(models::Family::poisson))
    ->Arg(static_cast<int>(models::Family::negbin))
    ->Arg(static_cast<int>(models::Family::beta))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LogDensityNegbinContinuous1e6)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LogDensityNormalRegression1e5)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LogDensityBeta1e6)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LogDensityPoissonRegression1e5)->Unit(benchmark::kMicrosecond);

Eigen::MatrixXd jitteredDraws(const models::SynthesisModel& model, Eigen::Index S) {
  random::Rng rng = random::makeRng(1);
  Eigen::MatrixXd draws(S, model.dim());
  const Eigen::VectorXd start = model.initialPoint();
  for (Eigen::Index s = 0; s < draws.rows(); ++s)
    for (Eigen::Index j = 0; j < draws.cols(); ++j)
      draws(s, j) = start[j] + 0.05 * random::standardNormal(rng);
  return draws;
}

/// One Lipschitz pass with `threads` workers; clamp finite: the censored variant.
void lipschitz(benchmark::State& state, const data::Dataset& dataset, Eigen::Index S, int threads,
               double clamp = INFINITY) {
  auto model = models::makeModel(dataset, {dataset.family});
  const Eigen::MatrixXd draws = jitteredDraws(*model, S);
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        privacy::computeLipschitz(*model, draws, {{}, -clamp, clamp}, threads).max);
  }
  state.SetItemsProcessed(state.iterations() * S * static_cast<Eigen::Index>(dataset.size()));
  state.counters["patterns_per_second"] = benchmark::Counter(
      static_cast<double>(state.iterations() * S) * static_cast<double>(model->patternCount()),
      benchmark::Counter::kIsRate);
}

void BM_Lipschitz(benchmark::State& state) {
  lipschitz(state, sample("beta", models::Family::beta), state.range(0), 1);
}
BENCHMARK(BM_Lipschitz)->Arg(4000)->Unit(benchmark::kMillisecond);

/// 400 draws (a tenth of a default fit) over every record: arg = threads.
void BM_LipschitzNormalRegression1e5(benchmark::State& state) {
  static const auto d = data::normalRegressionSample(100000, 20261201);
  lipschitz(state, d, 400, static_cast<int>(state.range(0)));
}
void BM_LipschitzNormalRegression1e5Censored(benchmark::State& state) {
  static const auto d = data::normalRegressionSample(100000, 20261201);
  lipschitz(state, d, 400, static_cast<int>(state.range(0)), 3.0);
}
void BM_LipschitzBeta1e6(benchmark::State& state) {
  static const auto d = large("beta", models::Family::beta, 1000000);
  lipschitz(state, d, 400, static_cast<int>(state.range(0)));
}
void BM_LipschitzNbmix1e6(benchmark::State& state) {
  static const auto d = large("nbmix", models::Family::negbin, 1000000);
  lipschitz(state, d, 4000, static_cast<int>(state.range(0)));
}
// Wall-clock rates: the workers are not the benchmark's own thread.
BENCHMARK(BM_LipschitzNormalRegression1e5)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LipschitzNormalRegression1e5Censored)
    ->Arg(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
/// 40 draws over the negbin regression at 10⁶ records: the pass of a default fit is
/// 100 times this.
void BM_LipschitzNegbinContinuous1e6(benchmark::State& state) {
  static const auto d = data::continuousNegbinSample(1000000, 20261205);
  lipschitz(state, d, 40, static_cast<int>(state.range(0)));
}
BENCHMARK(BM_LipschitzNegbinContinuous1e6)->Arg(1)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LipschitzBeta1e6)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LipschitzNbmix1e6)->Arg(1)->UseRealTime()->Unit(benchmark::kMillisecond);

/// What the pass did before records were grouped (kept here as the comparison): every record
/// under every draw through recordLogLik, then running maxima over all n records.
void BM_LipschitzRecordByRecord(benchmark::State& state, const data::Dataset& dataset,
                                Eigen::Index S) {
  auto model = models::makeModel(dataset, {dataset.family});
  const Eigen::MatrixXd draws = jitteredDraws(*model, S);
  const auto n = static_cast<Eigen::Index>(dataset.size());
  for (auto _ : state) {
    Eigen::VectorXd f(n), perRecord = Eigen::VectorXd::Zero(n);
    Eigen::VectorXd u(draws.cols());
    double overall = 0.0;
    for (Eigen::Index s = 0; s < S; ++s) {
      u = draws.row(s).transpose();
      model->recordLogLik(u, f);
      double drawMax = 0.0;
      for (Eigen::Index i = 0; i < n; ++i) {
        const double a = std::abs(f[i]);
        const double c = std::isnan(a) ? INFINITY : a;
        perRecord[i] = std::max(perRecord[i], c);
        drawMax = std::max(drawMax, c);
      }
      overall = std::max(overall, drawMax);
    }
    benchmark::DoNotOptimize(overall);
  }
  state.SetItemsProcessed(state.iterations() * S * n);
}
void BM_LipschitzRecordByRecordNormalRegression1e5(benchmark::State& state) {
  static const auto d = data::normalRegressionSample(100000, 20261201);
  BM_LipschitzRecordByRecord(state, d, 400);
}
void BM_LipschitzRecordByRecordBeta1e6(benchmark::State& state) {
  static const auto d = large("beta", models::Family::beta, 1000000);
  BM_LipschitzRecordByRecord(state, d, 40);
}
void BM_LipschitzRecordByRecordNbmix1e6(benchmark::State& state) {
  static const auto d = large("nbmix", models::Family::negbin, 1000000);
  BM_LipschitzRecordByRecord(state, d, 40);
}
BENCHMARK(BM_LipschitzRecordByRecordNormalRegression1e5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LipschitzRecordByRecordBeta1e6)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LipschitzRecordByRecordNbmix1e6)->Unit(benchmark::kMillisecond);

/// The yardstick: sum of an n-vector of doubles, the cheapest pass over n values there is.
/// n = 4096 (one Lipschitz tile) stays in L1/L2; n = 10⁶ (8 MB, the layout of the beta
/// case's per-pattern values) fits a large L3; n = 2²⁴ (128 MB) streams from memory.
void BM_StreamingSum(benchmark::State& state) {
  std::vector<double> v(static_cast<std::size_t>(state.range(0)));
  std::iota(v.begin(), v.end(), 1.0);
  for (auto _ : state) {
    // Eight independent partial sums, so that the loop is limited by loads, not by the latency
    // of one chain of additions.
    double acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    std::size_t i = 0;
    for (; i + 8 <= v.size(); i += 8)
      for (int k = 0; k < 8; ++k) acc[k] += v[i + static_cast<std::size_t>(k)];
    for (; i < v.size(); ++i) acc[0] += v[i];
    benchmark::DoNotOptimize(acc[0] + acc[1] + acc[2] + acc[3] + acc[4] + acc[5] + acc[6] + acc[7]);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetBytesProcessed(state.iterations() * state.range(0) *
                          static_cast<std::int64_t>(sizeof(double)));
}
BENCHMARK(BM_StreamingSum)->Arg(4096)->Arg(1000000)->Arg(1 << 24);

void BM_IsolationRisk(benchmark::State& state) {
  random::Rng rng = random::makeRng(2);
  Eigen::VectorXd y(state.range(0));
  for (Eigen::Index i = 0; i < y.size(); ++i) y[i] = random::gamma(rng, 2.0) * 50;
  for (auto _ : state) benchmark::DoNotOptimize(privacy::isolationRisk(y, 0.2, true).sum());
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_IsolationRisk)->RangeMultiplier(10)->Range(1000, 1000000)->Complexity();

// ---- CSV import: readCsv and buildDataset on an agency-sized file ---------------------------

/// The import benchmark's file for `rows` records, written once to the temp folder and removed
/// at exit; its text is kept for the byte counts.
struct ImportFile {
  std::string path;
  std::size_t bytes = 0;
};

const ImportFile& importFile(std::size_t rows) {
  static std::map<std::size_t, ImportFile> files;
  auto [it, inserted] = files.try_emplace(rows);
  if (inserted) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "dpsynth-bench-import-XXXXXX").string();
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) std::abort();
    ::close(fd);
    const std::string text = dpsynth::bench::importBenchmarkCsv(rows);
    std::ofstream(pattern, std::ios::binary) << text;
    it->second = {pattern, text.size()};
    static const bool cleanup = [] {
      std::atexit([] {
        for (const auto& [n, f] : files) std::filesystem::remove(f.path);
      });
      return true;
    }();
    (void)cleanup;
  }
  return it->second;
}

void BM_ReadCsv(benchmark::State& state) {
  const auto rows = static_cast<std::size_t>(state.range(0));
  const ImportFile& file = importFile(rows);
  for (auto _ : state) benchmark::DoNotOptimize(data::readCsv(file.path).rows.size());
  state.SetItemsProcessed(state.iterations() * state.range(0));  // rows/s
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(file.bytes));
}
BENCHMARK(BM_ReadCsv)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_BuildDataset(benchmark::State& state) {
  const auto rows = static_cast<std::size_t>(state.range(0));
  const ImportFile& file = importFile(rows);
  const data::CsvTable table = data::readCsv(file.path);
  const data::DatasetSpec spec = dpsynth::bench::importBenchmarkSpec();
  for (auto _ : state) benchmark::DoNotOptimize(data::buildDataset(table, spec).X.data());
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(file.bytes));
}
BENCHMARK(BM_BuildDataset)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
