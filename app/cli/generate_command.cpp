/// dpsynth generate: the documented sample generators (resources/README.md).
#include <iostream>
#include <new>
#include <stdexcept>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/output_plan.h"
#include "app/cli/run_inputs.h"
#include "core/data/csv_writer.h"
#include "core/data/generators.h"
#include "core/exec/cancellation.h"

namespace dpsynth::cli {
namespace {

/// The most records generate writes: about 200 MB of memory for the widest kind (salary), far
/// beyond what a demo or a Monte Carlo replicate needs.
constexpr std::uint64_t kMaxGeneratedRecords = 1'000'000;

}  // namespace

void addGenerateCommand(CLI::App& app, GenerateOptions& o) {
  auto* gen = app.add_subcommand("generate", "Write a sample dataset from a documented generator");
  gen->add_option("--kind", o.kind, "nbmix | beta | poisson | salary")->required();
  gen->add_option("--out", o.out, "Output CSV")->required();
  gen->add_option("--n", o.n, "Number of records (default: the bundled sample's)")
      ->check(unsignedDecimal(1, kMaxGeneratedRecords));
  gen->add_option("--seed", o.seed, "Seed, 0 to 2^64-1 (default: the bundled sample's)")
      ->check(unsignedDecimal(0, UINT64_MAX));
}

int runGenerate(const GenerateOptions& o) {
  namespace data = dpsynth::core::data;
  const std::size_t n = o.n ? *o.n : data::defaultSampleSize(o.kind);
  // The option's check already bounds n; this also covers callers that fill the options
  // themselves.
  requireRange<std::uint64_t>("--n", n, 1, kMaxGeneratedRecords, "choose fewer records");
  const std::uint64_t seed = o.seed ? *o.seed : data::defaultSampleSeed(o.kind);
  OutputPlan plan;
  plan.file("--out", o.out);
  plan.check();
  const std::stop_token stop = interruptToken();  // Ctrl-C: exit 130, never a half-written file
  std::string text;
  std::size_t records = 0;
  try {
    const auto table = data::generateSample(o.kind, n, seed, stop);
    text = data::formatCsv(table.header, table.rows, table.delimiter, stop);
    records = table.rows.size();
  } catch (const std::bad_alloc&) {
    // The size came from the user: not enough memory for it is bad input, not a bug.
    throw std::invalid_argument("not enough memory for --n " + std::to_string(n) +
                                " records; choose a smaller --n");
  } catch (const dpsynth::core::exec::Cancelled&) {
    return cancelledNothingWritten();
  } catch (const std::length_error&) {
    throw std::invalid_argument("--n " + std::to_string(n) + " is too large; choose a smaller --n");
  }
  // Ctrl-C while the records were drawn and formatted: nothing is written (exit 130).
  if (stop.stop_requested()) return cancelledNothingWritten();
  data::writeTextAtomic(o.out, text);
  std::cout << "wrote " << records << " records of " << o.kind << " (seed " << seed << ") to "
            << o.out << "\n";
  return kExitOk;
}

}  // namespace dpsynth::cli
