/// Google Benchmark micro-benchmarks of the hot paths: the log density with gradient (what NUTS
/// calls ~10^5 times per fit), the streaming Lipschitz reduction and CW's isolation risk.
/// Whole-pipeline timings are `dpsynth bench`.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "app/bench/import_fixture.h"
#include "core/data/csv_table.h"
#include "core/data/dataset.h"
#include "core/data/generators.h"
#include "core/mcmc/sampler.h"
#include "core/models/model.h"
#include "core/privacy/lipschitz.h"
#include "core/privacy/weights.h"
#include "core/random/rng.h"

namespace {

using namespace dpsynth::core;

data::Dataset sample(const std::string& kind, models::Family family) {
  const auto table = data::generateSample(kind, data::defaultSampleSize(kind),
                                          data::defaultSampleSeed(kind));
  data::DatasetSpec spec;
  spec.outcome = table.header.back();
  spec.family = family;
  return data::buildDataset(table, spec);
}

void logDensity(benchmark::State& state, const std::string& kind, models::Family family,
                double clamp) {
  const auto dataset = sample(kind, family);
  auto model = models::makeModel(dataset, {family}, {{}, clamp});
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
  logDensity(s, "nbmix", models::Family::negbin, INFINITY);
}
void BM_LogDensityBeta(benchmark::State& s) {
  logDensity(s, "beta", models::Family::beta, INFINITY);
}
void BM_LogDensityBetaCensored(benchmark::State& s) {
  logDensity(s, "beta", models::Family::beta, 2.0);
}
void BM_LogDensityPoisson(benchmark::State& s) {
  logDensity(s, "poisson", models::Family::poisson, INFINITY);
}
BENCHMARK(BM_LogDensityNegbin);
BENCHMARK(BM_LogDensityBeta);
BENCHMARK(BM_LogDensityBetaCensored);
BENCHMARK(BM_LogDensityPoisson);

void BM_Lipschitz(benchmark::State& state) {
  const auto dataset = sample("beta", models::Family::beta);
  auto model = models::makeModel(dataset, {models::Family::beta});
  random::Rng rng = random::makeRng(1);
  Eigen::MatrixXd draws(state.range(0), model->dim());
  for (Eigen::Index s = 0; s < draws.rows(); ++s)
    for (Eigen::Index j = 0; j < draws.cols(); ++j)
      draws(s, j) = model->initialPoint()[j] + 0.05 * random::standardNormal(rng);
  for (auto _ : state)
    benchmark::DoNotOptimize(privacy::computeLipschitz(*model, draws, {}, INFINITY, 1).max);
  state.SetItemsProcessed(state.iterations() * draws.rows() * dataset.size());
}
BENCHMARK(BM_Lipschitz)->Arg(4000)->Unit(benchmark::kMillisecond);

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
