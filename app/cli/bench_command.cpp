/// dpsynth bench: whole-pipeline throughput on the bundled sample distributions. Prints a table
/// and writes JSON so that numbers can be compared across versions and machines.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <thread>

#include <nlohmann/json.hpp>

#include "app/bench/import_fixture.h"
#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "core/data/csv_writer.h"
#include "core/data/dataset.h"
#include "core/data/generators.h"
#include "core/pipeline/pipeline.h"
#include "core/version.h"

namespace dpsynth::cli {

namespace core = dpsynth::core;

void addBenchCommand(CLI::App& app, BenchOptions& o) {
  auto* bench = app.add_subcommand("bench", "Time whole fits and pipelines; print a table, write JSON");
  bench->add_flag("--quick", o.quick, "Small settings (a smoke test of the benchmark)");
  bench->add_option("--out", o.out, "JSON output")->capture_default_str();
}

namespace {

struct Scenario {
  std::string name, sample, outcome;
  core::models::Family family;
  core::pipeline::MechanismConfig config;
};

core::data::Dataset sampleDataset(const Scenario& s) {
  const auto table = core::data::generateSample(s.sample, core::data::defaultSampleSize(s.sample),
                                                core::data::defaultSampleSeed(s.sample));
  core::data::DatasetSpec spec;
  spec.outcome = s.outcome;
  spec.family = s.family;
  auto dataset = core::data::buildDataset(table, spec);
  dataset.file = "generated:" + s.sample;
  return dataset;
}

/// CSV import of an agency-sized file (10^6 records; 10^5 with --quick): readCsv (file to
/// table) and buildDataset (table to y and X) timed separately, best of three, as rows/s and
/// MB/s of the file. Prints its own small table and fills out["csv_import"].
void benchCsvImport(bool quick, nlohmann::json& out) {
  const std::size_t rows = quick ? 100000 : 1000000;
  const std::string text = dpsynth::bench::importBenchmarkCsv(rows);
  std::string path =
      (std::filesystem::temp_directory_path() / "dpsynth-bench-import-XXXXXX").string();
  const int fd = ::mkstemp(path.data());
  if (fd < 0) throw std::runtime_error("cannot create a temporary file for the CSV benchmark");
  ::close(fd);
  struct Remove {
    std::string path;
    ~Remove() { std::filesystem::remove(path); }
  } remove{path};
  core::data::writeTextAtomic(path, text);

  using Clock = std::chrono::steady_clock;
  const auto seconds = [](Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  double readSeconds = INFINITY, buildSeconds = INFINITY;
  const auto spec = dpsynth::bench::importBenchmarkSpec();
  for (int repeat = 0; repeat < 3; ++repeat) {
    auto start = Clock::now();
    const auto table = core::data::readCsv(path);
    readSeconds = std::min(readSeconds, seconds(start));
    start = Clock::now();
    const auto dataset = core::data::buildDataset(table, spec);
    buildSeconds = std::min(buildSeconds, seconds(start));
    if (dataset.size() != rows) throw std::logic_error("CSV benchmark: rows were lost");
  }
  const double megabytes = static_cast<double>(text.size()) / 1e6;
  std::cout << "csv import: " << rows << " rows, " << std::fixed << std::setprecision(1)
            << megabytes << " MB (id, count outcome, 2 numeric + 1 four-level covariate)\n"
            << std::left << std::setw(36) << "step" << std::right << std::setw(8) << "wall s"
            << std::setw(14) << "rows/s" << std::setw(10) << "MB/s" << "\n";
  const auto line = [&](const std::string& step, double wall) {
    std::cout << std::left << std::setw(36) << step << std::right << std::fixed
              << std::setprecision(3) << std::setw(8) << wall << std::setprecision(0)
              << std::setw(14) << static_cast<double>(rows) / wall << std::setw(10)
              << megabytes / wall << "\n";
  };
  line("readCsv", readSeconds);
  line("buildDataset", buildSeconds);
  line("readCsv + buildDataset", readSeconds + buildSeconds);
  std::cout << "\n";
  out["csv_import"] = {{"rows", rows},
                       {"bytes", text.size()},
                       {"read_seconds", readSeconds},
                       {"read_rows_per_second", static_cast<double>(rows) / readSeconds},
                       {"read_mb_per_second", megabytes / readSeconds},
                       {"build_seconds", buildSeconds},
                       {"build_rows_per_second", static_cast<double>(rows) / buildSeconds},
                       {"build_mb_per_second", megabytes / buildSeconds}};
}

}  // namespace

int runBench(const BenchOptions& o) {
  using core::models::Family;
  using core::pipeline::Mechanism;
  std::vector<Scenario> scenarios;
  auto add = [&](std::string name, std::string sample, std::string outcome, Family family,
                 Mechanism m, std::optional<double> epsilon) {
    Scenario s{std::move(name), std::move(sample), std::move(outcome), family, {}};
    s.config.mechanism = m;
    s.config.epsilon = epsilon;
    scenarios.push_back(std::move(s));
  };
  add("unweighted negbin (nbmix n=1000)", "nbmix", "count", Family::negbin, Mechanism::unweighted,
      std::nullopt);
  add("unweighted beta (beta n=2000)", "beta", "value", Family::beta, Mechanism::unweighted,
      std::nullopt);
  add("lw-final k=auto negbin (nbmix)", "nbmix", "count", Family::negbin, Mechanism::lwFinal,
      std::nullopt);
  add("censor-w eps=4 beta (beta)", "beta", "value", Family::beta, Mechanism::censorW, 4.0);

  core::pipeline::RunSettings settings;
  settings.nuts.chains = 4;
  settings.nuts.warmup = o.quick ? 150 : 1000;
  settings.nuts.draws = o.quick ? 150 : 1000;
  settings.nuts.seed = 1;

  nlohmann::json out;
  out["tool_version"] = core::version();
  out["hardware_threads"] = std::thread::hardware_concurrency();
  out["chains"] = settings.nuts.chains;
  out["warmup"] = settings.nuts.warmup;
  out["draws"] = settings.nuts.draws;
  out["scenarios"] = nlohmann::json::array();
  benchCsvImport(o.quick, out);

  std::cout << std::left << std::setw(36) << "scenario" << std::right << std::setw(8) << "wall s"
            << std::setw(8) << "stages" << std::setw(14) << "grad evals/s" << std::setw(14)
            << "min ESS/s" << std::setw(10) << "epsilon" << "\n";
  for (const auto& s : scenarios) {
    const auto dataset = sampleDataset(s);
    settings.model.family = s.family;
    const auto start = std::chrono::steady_clock::now();
    const auto run = core::pipeline::runMechanisms(dataset, {s.config}, settings);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto& r = run.mechanisms.front();
    long long gradients = 0;
    double sampling = 0;
    for (const auto& st : r.stages) {
      gradients += st->sample.gradientEvaluations();
      sampling += st->sample.seconds;
    }
    double minEss = INFINITY;
    for (const auto& p : r.final->posterior) minEss = std::min(minEss, p.essBulk);
    const double essPerSecond = minEss / r.final->sample.seconds;
    const double gradPerSecond = gradients / sampling;
    std::cout << std::left << std::setw(36) << s.name << std::right << std::fixed
              << std::setprecision(2) << std::setw(8) << wall << std::setw(8) << r.stages.size()
              << std::setprecision(0) << std::setw(14) << gradPerSecond << std::setw(14)
              << essPerSecond << std::setprecision(2) << std::setw(10) << r.epsilon << "\n";
    out["scenarios"].push_back({{"name", s.name},
                                {"wall_seconds", wall},
                                {"sampling_seconds", sampling},
                                {"stages", r.stages.size()},
                                {"gradient_evaluations", gradients},
                                {"gradient_evaluations_per_second", gradPerSecond},
                                {"final_stage_seconds", r.final->sample.seconds},
                                {"min_ess_bulk", minEss},
                                {"min_ess_bulk_per_second", essPerSecond},
                                {"epsilon", r.epsilon},
                                {"k", r.k ? nlohmann::json(*r.k) : nlohmann::json(nullptr)}});
  }
  core::data::writeTextAtomic(o.out, out.dump(2) + "\n");
  std::cout << "wrote " << o.out << "\n";
  return kExitOk;
}

}  // namespace dpsynth::cli
