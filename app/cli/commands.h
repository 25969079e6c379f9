#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dpsynth::cli {

struct FitOptions {
  std::string data, outcome, family, mechanism = "unweighted";
  std::vector<std::string> covariates;
  std::vector<std::string> references;  ///< --reference COL=LEVEL items
  double c = 1.0, g = 0.0;
  std::optional<double> radius;
  bool radiusRelative = false;
  std::string k = "auto";
  std::optional<double> epsilon;
  std::string downscale = "1";
  int bins = 0;
  std::optional<double> lower, upper;
  int chains = 4, warmup = 1000, draws = 1000, threads = 0, datasets = 1;
  std::string seed;  ///< empty: a release (OS seed); digits: a reproducible run
  double sdScale = 1.0;
  bool reproducibleNoise = false, dropMissing = false, quiet = false;
  std::string neighbours = "replace-one", weightsFrom;
  std::string metric = "auto";
  std::string syntheticOut, report;
  std::optional<std::size_t> rows;    ///< --rows: a synthetic size declared public
  std::optional<double> sizeEpsilon;  ///< --size-epsilon: ε_n of the noisy size
};
void addFitCommand(CLI::App& app, FitOptions& options);
int runFit(const FitOptions& options);

struct GenerateOptions {
  std::string kind, out;
  std::optional<std::size_t> n;
  std::optional<std::uint64_t> seed;
};
void addGenerateCommand(CLI::App& app, GenerateOptions& options);
int runGenerate(const GenerateOptions& options);

struct BenchOptions {
  bool quick = false;
  std::string out = "dpsynth-bench.json";
  std::string only;  ///< run only the cases whose name contains this (empty: all)
};
void addBenchCommand(CLI::App& app, BenchOptions& options);
int runBench(const BenchOptions& options);

struct RunOptions {
  std::string session, out;
  std::optional<int> threads;
  std::optional<std::string> metric;
  bool quiet = false;
  bool replace = false;  ///< delete files in out/release, out/internal that dpsynth did not write
  std::optional<std::size_t> rows;      ///< --rows: overrides the session's declared size
  std::optional<double> sizeEpsilon;    ///< --size-epsilon: overrides the session's ε_n
  std::vector<std::string> references;  ///< --reference COL=LEVEL: overrides the session's
};
void addRunCommand(CLI::App& app, RunOptions& options);
int runRun(const RunOptions& options);

struct StudyOptions {
  std::string config, out;
  /// Set when --shard was given, even as "" (which is refused: it must not mean the whole study).
  std::optional<std::string> shard;
  int threads = 0;
  bool quiet = false;
  std::string mergeOut;                  ///< study merge --out
  std::vector<std::string> mergeInputs;  ///< study merge FOLDER...
  /// --replace (study and study merge): replace summary files of the output folder that
  /// dpsynth did not write.
  bool replace = false;
};
void addStudyCommand(CLI::App& app, StudyOptions& options);
/// `studyCommand` is the "study" subcommand (tells the merge form apart).
int runStudy(const StudyOptions& options, const CLI::App& studyCommand);

struct ReleaseOptions {
  std::string kind, data, classColumn, classLevels, features, out;
  std::vector<std::string> levels;  ///< COLUMN=level1|level2|..., one per feature
  double epsilon = 1.0, prior = 2.0;
  std::string seed;  ///< empty: a release (OS randomness); digits: reproducible, not_for_release
  // --kind linreg (004 §5):
  std::string outcome, predictors;  ///< Y; A,B
  std::string bounds;               ///< "A=lo:hi,B=lo:hi,Y=lo:hi"
  std::string predictorDist;        ///< "A=normal:mean:sd,B=normal:mean:sd"
  double sigma = 0.0, priorSd = 2.0;
};
void addReleaseCommand(CLI::App& app, ReleaseOptions& options);
int runRelease(const ReleaseOptions& options);
/// --kind linreg (linreg_release_command.cpp).
int runLinregRelease(const ReleaseOptions& options);

struct InferOptions {
  std::string release, out;
  int iterations = 10000, warmup = 5000, chains = 4, threads = 0;
  std::string seed;      ///< empty: OS seed; digits: reproducible, not_for_release
  std::string family;    ///< ph releases: the synthesizer family of the latent records
  double sdScale = 1.0;  ///< ph releases, normal family: public prior scale (SPEC §2)
  /// --iterations or --warmup given: the run keeps them (a run left at the defaults is extended
  /// until its chains converge, core/infer/da_convergence.h).
  bool budgetGiven = false;
  /// --replace: replace draws.csv, summary.json or trace.csv in --out that dpsynth did not write.
  bool replace = false;
};
void addInferCommand(CLI::App& app, InferOptions& options);
int runInfer(const InferOptions& options);

}  // namespace dpsynth::cli
