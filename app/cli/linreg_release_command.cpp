/// dpsynth release --kind linreg: the clamped, normalised sufficient statistics of a linear
/// regression with exact Laplace-type noise (004 §5; README "Release files").
#include <iostream>
#include <map>
#include <stdexcept>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/output_plan.h"
#include "app/cli/run_inputs.h"
#include "core/data/csv_table.h"
#include "core/data/csv_writer.h"
#include "core/data/data_file.h"
#include "core/data/value_parsing.h"
#include "core/infer/linreg_release.h"

namespace dpsynth::cli {
namespace {

double linregFlagNumber(const std::string& flag, const std::string& item, const std::string& text,
                        const std::string& expected) {
  const auto value = core::data::parseNumber(text);
  if (!value) {
    throw std::invalid_argument(flag + " " + item + ": '" + text +
                                "' is not a finite number; write " + expected);
  }
  return *value;
}

/// "NAME=a:b,NAME=a:b" → NAME → the parts after '=' split at ':' (as numbers, after skipping
/// `skip` leading words that must equal `word`).
std::map<std::string, std::vector<double>> linregNamedNumbers(const std::string& flag,
                                                              const std::string& text,
                                                              const std::string& word,
                                                              std::size_t count,
                                                              const std::string& expected) {
  std::map<std::string, std::vector<double>> out;
  for (const std::string& item : splitFlag(text, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw std::invalid_argument(flag + " " + item + ": write " + expected);
    }
    const std::string name = item.substr(0, eq);
    std::vector<std::string> parts = splitFlag(item.substr(eq + 1), ':');
    if (!word.empty()) {
      if (parts.empty() || parts.front() != word) {
        throw std::invalid_argument(flag + " " + item + ": only " + word + " is available; write " +
                                    expected);
      }
      parts.erase(parts.begin());
    }
    if (parts.size() != count)
      throw std::invalid_argument(flag + " " + item + ": write " + expected);
    std::vector<double> values;
    for (const auto& p : parts) values.push_back(linregFlagNumber(flag, item, p, expected));
    if (!out.emplace(name, values).second) {
      throw std::invalid_argument(flag + ": " + name + " is given twice");
    }
  }
  return out;
}

const std::vector<double>& linregLookup(const std::map<std::string, std::vector<double>>& values,
                                        const std::string& flag, const std::string& name,
                                        const std::string& what) {
  const auto it = values.find(name);
  if (it == values.end()) throw std::invalid_argument(flag + ": give " + what + " of " + name);
  return it->second;
}

}  // namespace

int runLinregRelease(const ReleaseOptions& o) {
  if (!o.classColumn.empty() || !o.classLevels.empty() || !o.features.empty() ||
      !o.levels.empty()) {
    throw std::invalid_argument(
        "--class, --class-levels, --features and --levels are for --kind naive-bayes");
  }
  if (o.outcome.empty() || o.predictors.empty() || o.bounds.empty() || o.predictorDist.empty() ||
      o.sigma == 0.0) {
    throw std::invalid_argument(
        "--kind linreg needs --outcome, --predictors, --bounds, --predictor-dist and --sigma");
  }
  std::optional<std::uint64_t> seed;
  if (!o.seed.empty()) seed = parseSeed(o.seed, "--seed");

  // The public layout and model come from the flags, never from the data.
  core::infer::LinregLayout layout;
  layout.outcome = o.outcome;
  layout.predictors = splitFlag(o.predictors, ',');
  const auto bounds =
      linregNamedNumbers("--bounds", o.bounds, "", 2, "NAME=lower:upper, e.g. A=-10:10");
  const auto dist = linregNamedNumbers("--predictor-dist", o.predictorDist, "normal", 2,
                                       "NAME=normal:mean:sd, e.g. A=normal:0:1");
  core::infer::LinregModelSpec spec;
  spec.sigma = o.sigma;
  spec.priorSd = o.priorSd;
  for (const auto& name : layout.predictors) {
    const auto& b = linregLookup(bounds, "--bounds", name, "lower:upper");
    layout.lower.push_back(b[0]);
    layout.upper.push_back(b[1]);
    const auto& d = linregLookup(dist, "--predictor-dist", name, "normal:mean:sd");
    spec.predictorMeans.push_back(d[0]);
    spec.predictorSds.push_back(d[1]);
  }
  const auto& yb = linregLookup(bounds, "--bounds", layout.outcome, "lower:upper");
  layout.outcomeLower = yb[0];
  layout.outcomeUpper = yb[1];
  if (bounds.size() != layout.predictors.size() + 1) {
    throw std::invalid_argument("--bounds: give bounds of the predictors and the outcome only");
  }
  if (dist.size() != layout.predictors.size()) {
    throw std::invalid_argument("--predictor-dist: give one distribution per predictor only");
  }
  auto problems = layout.validate();
  if (!problems.empty()) throw std::invalid_argument(problems.front());
  problems = spec.validate(layout.predictorCount());
  if (!problems.empty()) throw std::invalid_argument(problems.front());

  OutputPlan plan;
  plan.input(o.data);
  plan.file("--out", o.out);
  plan.check();
  refuseSeededIntoRelease(o.out, seed.has_value());
  // Ctrl-C while reading, counting or drawing the noise: nothing is written (exit 130).
  const std::stop_token stop = interruptToken();
  const std::optional<core::data::CsvTable> read = readInputCsv(o.data, stop, false);
  if (!read) return cancelledWhileReading(o.data);
  const core::data::CsvTable& table = *read;
  std::vector<std::size_t> columns;
  for (const auto& name : layout.predictors) columns.push_back(table.columnIndex(name));
  columns.push_back(table.columnIndex(layout.outcome));
  std::vector<std::vector<double>> records;
  records.reserve(table.rows.size());
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    if ((r & 65535) == 0 && stop.stop_requested()) return cancelledNothingWritten();
    const auto row = table.rows[r];
    std::vector<double> values;
    for (std::size_t k = 0; k < columns.size(); ++k) {
      const auto value = core::data::parseNumber(row[columns[k]]);
      if (!value) {
        const std::string& name =
            k < layout.predictors.size() ? layout.predictors[k] : layout.outcome;
        throw std::invalid_argument(table.file + ": line " + std::to_string(table.lineOfRow[r]) +
                                    ", column " + name + ": not a finite number");
      }
      values.push_back(*value);
    }
    records.push_back(std::move(values));
  }
  const auto bits =
      seed ? core::privacy::makeSeededSource(*seed) : core::privacy::makeOsRandomSource();
  const core::infer::LinregRelease release =
      core::infer::makeLinregRelease(layout, spec, records, o.epsilon, *bits, seed.has_value());
  if (stop.stop_requested()) return cancelledNothingWritten();
  core::data::writeTextAtomic(o.out, core::infer::linregReleaseToJson(release));
  if (seed) std::cerr << "reproducible noise (--seed): the release file says not_for_release\n";
  std::cout << "wrote a linreg release of " << release.n << " records (epsilon " << o.epsilon
            << ", L1 sensitivity " << layout.sensitivity() << ") to " << o.out << "\n";
  return kExitOk;
}

}  // namespace dpsynth::cli
