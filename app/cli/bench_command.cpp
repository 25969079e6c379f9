/// dpsynth bench: whole-pipeline throughput on the bundled sample distributions and on large
/// generated datasets (10⁵–10⁶ records). Prints a table and writes JSON so that numbers can be
/// compared across versions and machines. Each case runs in its own child process (POSIX) so
/// that its peak resident memory is its own.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "app/bench/import_fixture.h"
#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/linreg_bench.h"
#include "app/cli/output_plan.h"
#include "core/data/csv_writer.h"
#include "core/data/dataset.h"
#include "core/data/generators.h"
#include "core/data/regression_samples.h"
#include "core/exec/cancellation.h"
#include "core/pipeline/pipeline.h"
#include "core/random/rng.h"
#include "core/version.h"

#if defined(__unix__) || defined(__APPLE__)
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#define DPSYNTH_BENCH_FORK 1
#endif

namespace dpsynth::cli {

namespace core = dpsynth::core;

void addBenchCommand(CLI::App& app, BenchOptions& o) {
  auto* bench =
      app.add_subcommand("bench", "Time whole fits and pipelines; print a table, write JSON");
  bench->add_flag("--quick", o.quick, "Small settings (a smoke test of the benchmark)");
  bench->add_option("--out", o.out, "JSON output")->capture_default_str()->check(pathGiven());
  bench->add_option("--only", o.only, "Run only the cases whose name contains this text");
}

namespace {

using core::models::Family;
using core::pipeline::Mechanism;

struct Case {
  std::string name;
  std::function<core::data::Dataset()> data;
  core::pipeline::MechanismConfig config;
  double sdScale = 1.0;
};

core::data::Dataset bundled(const std::string& kind, const std::string& outcome, Family family,
                            std::vector<std::string> covariates = {}) {
  const auto table = core::data::generateSample(kind, core::data::defaultSampleSize(kind),
                                                core::data::defaultSampleSeed(kind));
  core::data::DatasetSpec spec;
  spec.outcome = outcome;
  spec.covariates = std::move(covariates);
  spec.family = family;
  auto dataset = core::data::buildDataset(table, spec);
  dataset.file = "generated:" + kind;
  return dataset;
}

/// n values of a one-column sample kind as an intercept-only dataset, without text.
core::data::Dataset large(const std::string& kind, const std::string& outcome, Family family,
                          std::size_t n) {
  Eigen::VectorXd y = core::data::generateValues(kind, n, core::data::defaultSampleSeed(kind));
  Eigen::MatrixXd X = Eigen::MatrixXd::Ones(y.size(), 1);
  return core::data::numericDataset(outcome, family, std::move(y), std::move(X), {"(Intercept)"});
}

std::vector<Case> benchCases(bool quick) {
  // Quick mode keeps every case but shrinks the large datasets: a smoke test of each path.
  const std::size_t n5 = quick ? 2000 : 100000;
  const std::size_t n6 = quick ? 5000 : 1000000;
  std::vector<Case> cases;
  auto add = [&](std::string name, std::function<core::data::Dataset()> data, Mechanism m,
                 std::optional<double> epsilon = std::nullopt, double sdScale = 1.0) {
    Case c{std::move(name), std::move(data), {}, sdScale};
    c.config.mechanism = m;
    c.config.epsilon = epsilon;
    cases.push_back(std::move(c));
  };
  auto nbmix = [] { return bundled("nbmix", "count", Family::negbin); };
  auto beta = [] { return bundled("beta", "value", Family::beta); };
  add("unweighted negbin (nbmix n=1000)", nbmix, Mechanism::unweighted);
  add("unweighted beta (beta n=2000)", beta, Mechanism::unweighted);
  add("lw-final k=auto negbin (nbmix)", nbmix, Mechanism::lwFinal);
  add("censor-w eps=4 beta (beta)", beta, Mechanism::censorW, 4.0);

  // The salary sample: normal family, outcome in the tens of thousands, so the public sd scale
  // is set to a figure of that size (as the pipeline's warning asks).
  auto salary = [] {
    return bundled("salary", "salary", Family::normal, {"gender", "age_group", "weeks_worked"});
  };
  add("salary normal unweighted", salary, Mechanism::unweighted, std::nullopt, 10000.0);
  add("salary normal lw-final", salary, Mechanism::lwFinal, std::nullopt, 10000.0);
  // A negbin regression with dummies and a near-zero outcome range: the funnel of the centred
  // prior β_j ~ N(0, σ_j) (divergences) unless the model is non-centred.
  auto weeks = [] {
    return bundled("salary", "weeks_worked", Family::negbin, {"gender", "age_group"});
  };
  add("salary negbin weeks unweighted", weeks, Mechanism::unweighted);
  add("salary negbin weeks lw-final", weeks, Mechanism::lwFinal);

  const std::string s5 = "n=" + std::to_string(n5), s6 = "n=" + std::to_string(n6);
  auto normal = [n5] { return core::data::normalRegressionSample(n5, 20261201); };
  add("normal regression " + s5 + " unweighted", normal, Mechanism::unweighted);
  add("normal regression " + s5 + " lw-final", normal, Mechanism::lwFinal);
  add(
      "poisson regression " + s5 + " lw-final",
      [n5] { return core::data::poissonRegressionSample(n5, 20261202); }, Mechanism::lwFinal);
  // Regressions with categorical covariates and continuous ones on scales 10⁴ apart (age,
  // income), one per family: the cases the rstan comparison in the README measures.
  const std::size_t nSurvey = quick ? 300 : 1500;
  const std::string sSurvey = "n=" + std::to_string(nSurvey);
  for (Family f : {Family::poisson, Family::negbin, Family::beta}) {
    add(
        core::models::familyName(f) + " survey regression " + sSurvey + " unweighted",
        [f, nSurvey] { return core::data::surveyRegressionSample(f, nSurvey, 20261204); },
        Mechanism::unweighted);
  }
  add(
      "negbin 5 continuous " + s6 + " unweighted",
      [n6] { return core::data::continuousNegbinSample(n6, 20261205); }, Mechanism::unweighted);
  add(
      "beta(0.5,3) " + s6 + " unweighted",
      [n6] { return large("beta", "value", Family::beta, n6); }, Mechanism::unweighted);
  add(
      "nbmix " + s6 + " lw-final", [n6] { return large("nbmix", "count", Family::negbin, n6); },
      Mechanism::lwFinal);

  // The exact route (intercept-only DP fits, privacy/exact_sampler.h): 4 chains × 1000 draws'
  // worth of exact draws at n = 10⁴, for every family, at a small and a larger ε. Its own time
  // is final_stage_seconds (single-threaded); wall_seconds adds the Lipschitz pass.
  const std::size_t n4 = quick ? 2000 : 10000;
  const std::string s4 = "n=" + std::to_string(n4);
  auto normal4 = [n4] {
    core::random::Rng rng = core::random::makeRng(20261203);
    Eigen::VectorXd y(static_cast<Eigen::Index>(n4));
    for (Eigen::Index i = 0; i < y.size(); ++i) y[i] = core::random::normal(rng, 5.0, 2.0);
    return core::data::numericDataset("value", Family::normal, std::move(y),
                                      Eigen::MatrixXd::Ones(static_cast<Eigen::Index>(n4), 1),
                                      {"(Intercept)"});
  };
  for (double eps : {1.0, 10.0}) {
    const std::string e = " eps=" + std::to_string(static_cast<int>(eps));
    add(
        "exact censor-uw poisson " + s4 + e,
        [n4] { return large("poisson", "count", Family::poisson, n4); }, Mechanism::censorUw, eps);
    add(
        "exact censor-uw negbin nbmix " + s4 + e,
        [n4] { return large("nbmix", "count", Family::negbin, n4); }, Mechanism::censorUw, eps);
    add(
        "exact censor-uw beta(0.5,3) " + s4 + e,
        [n4] { return large("beta", "value", Family::beta, n4); }, Mechanism::censorUw, eps);
    add("exact censor-uw normal " + s4 + e, normal4, Mechanism::censorUw, eps);
  }
  return cases;
}

/// Runs one case in this process and returns its row.
nlohmann::json runCase(const Case& c, core::pipeline::RunSettings settings) {
  const auto dataset = c.data();
  settings.model.family = dataset.family;
  settings.model.sdScale = c.sdScale;
  const auto start = std::chrono::steady_clock::now();
  const auto run = core::pipeline::runMechanisms(dataset, {c.config}, settings);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto& r = run.mechanisms.front();
  long long gradients = 0;
  double sampling = 0, lipschitz = 0;
  for (const auto& st : r.stages) {
    if (st->fromCache) continue;
    gradients += st->sample->gradientEvaluations();
    sampling += st->sample->seconds;
    lipschitz += st->seconds - st->sample->seconds;  // the pass, plus summaries
  }
  double minEss = INFINITY, maxRhat = 0;
  for (const auto& p : r.final->posterior) {
    minEss = std::min(minEss, p.essBulk);
    maxRhat = std::max(maxRhat, p.rhat);
  }
  const double essPerSecond = minEss / r.final->sample->seconds;
  // Per second of the whole case (data, every stage, Lipschitz passes, synthesis): what a user
  // waits for, and the figure compared with rstan's sampling() time.
  const double essPerWallSecond = minEss / wall;
  auto optional = [](const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  return {{"name", c.name},
          {"n", dataset.size()},
          {"wall_seconds", wall},
          {"sampling_seconds", sampling},
          {"lipschitz_seconds", lipschitz},
          {"stages", r.stages.size()},
          {"gradient_evaluations", gradients},
          {"gradient_evaluations_per_second", gradients / sampling},
          {"final_stage_seconds", r.final->sample->seconds},
          {"min_ess_bulk", minEss},
          {"min_ess_bulk_per_second", essPerSecond},
          {"min_ess_bulk_per_wall_second", essPerWallSecond},
          {"final_divergences", r.final->sample->divergences()},
          {"final_max_rhat", maxRhat},
          {"epsilon", r.epsilon},
          {"k", optional(r.k)},
          {"k_band", optional(r.kBand)}};
}

/// Peak resident set of this process so far, in MB.
double selfPeakRssMb() {
#ifdef DPSYNTH_BENCH_FORK
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux reports KiB
#else
  return NAN;
#endif
}

/// Runs one case in a child process (its peak RSS is then its own, from wait4) where fork
/// exists; in this process otherwise (peak RSS is then the process's high-water mark so far).
/// Throws core::exec::Cancelled when Ctrl-C (or SIGTERM, SIGHUP) asked the bench to stop.
void throwIfInterrupted(const std::stop_token& stop) {
  if (stop.stop_requested()) throw core::exec::Cancelled();
}

nlohmann::json runIsolated(const Case& c, const core::pipeline::RunSettings& settings,
                           const std::stop_token& stop) {
#ifdef DPSYNTH_BENCH_FORK
  int fds[2];
  if (pipe(fds) == 0) {
    std::cout.flush();
    std::cerr.flush();
    const pid_t pid = fork();
    if (pid == 0) {
      // The parent's watcher thread, which takes the signals, is not in the child: let them
      // end it as they would any process (the parent stops it too, below).
      sigset_t none;
      sigemptyset(&none);
      pthread_sigmask(SIG_SETMASK, &none, nullptr);
      close(fds[0]);
      std::string text;
      try {
        text = runCase(c, settings).dump();
      } catch (const std::exception& e) {
        text = nlohmann::json{{"error", e.what()}}.dump();
      }
      std::size_t done = 0;
      while (done < text.size()) {
        const ssize_t w = write(fds[1], text.data() + done, text.size() - done);
        if (w <= 0) break;
        done += static_cast<std::size_t>(w);
      }
      close(fds[1]);
      _exit(0);
    }
    close(fds[1]);
    if (pid > 0) {
      // A stop ends the case at once: the pipe then closes and the wait below returns.
      const std::stop_callback endCase(stop, [pid] { ::kill(pid, SIGKILL); });
      std::string text;
      char buffer[4096];
      for (;;) {
        const ssize_t got = read(fds[0], buffer, sizeof buffer);
        if (got <= 0) break;
        text.append(buffer, static_cast<std::size_t>(got));
      }
      close(fds[0]);
      int status = 0;
      rusage usage{};
      wait4(pid, &status, 0, &usage);
      throwIfInterrupted(stop);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty())
        throw std::runtime_error("bench case '" + c.name + "' failed in its child process");
      auto row = nlohmann::json::parse(text);
      if (row.contains("error"))
        throw std::runtime_error("bench case '" + c.name + "': " + row["error"].get<std::string>());
      row["peak_rss_mb"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
      row["peak_rss_scope"] = "case";
      return row;
    }
    close(fds[0]);
  }
#endif
  auto row = runCase(c, settings);
  throwIfInterrupted(stop);
  row["peak_rss_mb"] = selfPeakRssMb();
  row["peak_rss_scope"] = "process";
  return row;
}

/// CSV import of an agency-sized file (10^6 records; 10^5 with --quick): readCsv (file to
/// table) and buildDataset (table to y and X) timed separately, best of three, as rows/s and
/// MB/s of the file. Prints its own small table and fills out["csv_import"].
void benchCsvImport(bool quick, nlohmann::json& out, const std::stop_token& stop) {
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
  throwIfInterrupted(stop);  // from here on a stop unwinds through Remove, which deletes the file

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
    throwIfInterrupted(stop);
  }
  const double megabytes = static_cast<double>(text.size()) / 1e6;
  std::cout << "csv import: " << rows << " rows, " << std::fixed << std::setprecision(1)
            << megabytes << " MB (id, count outcome, 2 numeric + 1 four-level covariate)\n"
            << std::left << std::setw(36) << "step" << std::right << std::setw(8) << "wall s"
            << std::setw(14) << "rows/s" << std::setw(10) << "MB/s"
            << "\n";
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

int runBenchCases(const BenchOptions& o, const std::stop_token& stop) {
  // The JSON is written after minutes of benchmarking: its path is checked first.
  OutputPlan plan;
  plan.file("--out", o.out);
  plan.check();
  std::vector<Case> cases = benchCases(o.quick);
  // The CSV import is a case of its own for --only ("csv import").
  const bool csvImport =
      o.only.empty() || std::string("csv import").find(o.only) != std::string::npos;
  // So is the linear-regression data augmentation ("linreg da").
  const bool linregDa =
      o.only.empty() || std::string("linreg da").find(o.only) != std::string::npos;
  if (!o.only.empty()) {
    std::erase_if(cases, [&](const Case& c) { return c.name.find(o.only) == std::string::npos; });
    if (cases.empty() && !csvImport && !linregDa) {
      std::cerr << "dpsynth bench: no case name contains '" << o.only << "'\n";
      return kExitBadInput;
    }
  }

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
  if (csvImport) benchCsvImport(o.quick, out, stop);
  throwIfInterrupted(stop);
  if (linregDa) benchLinregDataAugmentation(o.quick, out);
  throwIfInterrupted(stop);

  if (!cases.empty())
    std::cout << std::left << std::setw(46) << "scenario" << std::right << std::setw(9) << "wall s"
              << std::setw(7) << "stages" << std::setw(12) << "grad evals" << std::setw(11)
              << "min ESS/s" << std::setw(11) << "ESS/wall s" << std::setw(5) << "div"
              << std::setw(10) << "RSS MB" << std::setw(9) << "epsilon"
              << "\n";
  for (const auto& c : cases) {
    const auto row = runIsolated(c, settings, stop);
    std::cout << std::left << std::setw(46) << c.name << std::right << std::fixed
              << std::setprecision(2) << std::setw(9) << row["wall_seconds"].get<double>()
              << std::setw(7) << row["stages"].get<std::size_t>() << std::setw(12)
              << row["gradient_evaluations"].get<long long>() << std::setprecision(0)
              << std::setw(11) << row["min_ess_bulk_per_second"].get<double>() << std::setw(11)
              << row["min_ess_bulk_per_wall_second"].get<double>() << std::setw(5)
              << row["final_divergences"].get<int>() << std::setw(10)
              << row["peak_rss_mb"].get<double>() << std::setprecision(2) << std::setw(9)
              << row["epsilon"].get<double>() << std::endl;
    out["scenarios"].push_back(row);
  }
  core::data::writeTextAtomic(o.out, out.dump(2) + "\n");
  std::cout << "wrote " << o.out << "\n";
  return kExitOk;
}

}  // namespace

int runBench(const BenchOptions& o) {
  // Ctrl-C, SIGTERM or SIGHUP: the running case ends, the temporary CSV goes, --out is not
  // written, exit 130.
  const std::stop_token stop = interruptToken();
  try {
    return runBenchCases(o, stop);
  } catch (const core::exec::Cancelled&) {
    exitCancelled("dpsynth: bench cancelled; " + o.out + " was not written\n");
  }
}

}  // namespace dpsynth::cli
