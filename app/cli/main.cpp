/// dpsynth: the command line (SPEC §7). Thin: parses arguments and hands over to core.
#include <CLI/CLI.hpp>
#include <iostream>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "core/exec/large_blocks.h"
#include "core/version.h"

int main(int argc, char** argv) {
  using namespace dpsynth;
  core::exec::returnLargeBlocksOnFree();  // resident memory follows the memory in use
  CLI::App app{"dpsynth: differentially private synthetic data from confidential microdata"};
  app.set_version_flag("--version", "dpsynth " + core::version());
  app.require_subcommand(1);

  cli::FitOptions fit;
  cli::addFitCommand(app, fit);
  cli::GenerateOptions generate;
  cli::addGenerateCommand(app, generate);
  cli::BenchOptions bench;
  cli::addBenchCommand(app, bench);
  cli::RunOptions run;
  cli::addRunCommand(app, run);
  cli::StudyOptions study;
  cli::addStudyCommand(app, study);
  cli::ReleaseOptions release;
  cli::addReleaseCommand(app, release);
  cli::InferOptions infer;
  cli::addInferCommand(app, infer);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "dpsynth: " << e.what() << " (see dpsynth --help)\n";
    return cli::kExitBadInput;
  }

  if (app.got_subcommand("fit")) return cli::guarded([&] { return cli::runFit(fit); });
  if (app.got_subcommand("generate"))
    return cli::guarded([&] { return cli::runGenerate(generate); });
  if (app.got_subcommand("bench")) return cli::guarded([&] { return cli::runBench(bench); });
  if (app.got_subcommand("run")) return cli::guarded([&] { return cli::runRun(run); });
  if (app.got_subcommand("study"))
    return cli::guarded([&] { return cli::runStudy(study, *app.get_subcommand("study")); });
  if (app.got_subcommand("release")) return cli::guarded([&] { return cli::runRelease(release); });
  if (app.got_subcommand("infer")) return cli::guarded([&] { return cli::runInfer(infer); });
  return cli::kExitBadInput;
}
