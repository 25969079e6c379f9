#include "core/report/export_run.h"

#include <filesystem>
#include <stdexcept>

#include "core/data/csv_writer.h"
#include "core/pipeline/export.h"
#include "core/pipeline/report.h"
#include "core/pipeline/synthesis.h"
#include "core/report/internal_report.h"
#include "core/report/release_note.h"
#include "core/report/report_inputs.h"
#include "core/report/results_table.h"
#include "core/report/staged_folder.h"

namespace dpsynth::core::report {

namespace fs = std::filesystem;

namespace {

constexpr const char* kResults = "results.csv";
constexpr const char* kInternal = "internal_report.html";
constexpr const char* kRelease = "release_note.html";
constexpr const char* kSession = "session.dpsynth";

std::vector<std::string> syntheticNames(const std::string& label, int m) {
  const std::string stem = "synthetic_" + label;
  if (m == 1) return {stem + ".csv"};
  std::vector<std::string> names;
  for (int j = 1; j <= m; ++j) names.push_back(stem + "_" + std::to_string(j) + ".csv");
  return names;
}

void validate(const pipeline::RunResult& result, int m) {
  if (result.outcome != pipeline::RunOutcome::completed)
    throw std::invalid_argument("the run was cancelled: there is nothing complete to export");
  if (result.mechanisms.empty()) throw std::invalid_argument("the run has no mechanisms to export");
  if (m < 1) throw std::invalid_argument("the number of synthetic datasets must be >= 1");
}

/// An export must never replace the data it was computed from.
void refuseInputOverwrite(const std::string& target, const std::vector<std::string>& names,
                          const std::vector<std::string>& inputs) {
  std::error_code ec;
  for (const auto& name : names) {
    const fs::path path = fs::path(target) / name;
    if (!fs::exists(path, ec)) continue;
    for (const auto& input : inputs) {
      if (!input.empty() && fs::exists(input, ec) && fs::equivalent(path, input, ec))
        throw std::invalid_argument("refusing to overwrite the input data file " + input +
                                    ": choose another output folder");
    }
  }
}

}  // namespace

std::vector<std::string> exportFileNames(const pipeline::RunResult& result, int m) {
  std::vector<std::string> names;
  for (const auto& label : mechanismLabels(result)) {
    for (const auto& n : syntheticNames(label, m)) names.push_back(n);
    names.push_back("synthetic_" + label + ".csv.json");
    names.push_back("report_" + label + ".json");
  }
  for (const char* n : {kResults, kInternal, kRelease, kSession}) names.emplace_back(n);
  return names;
}

ExportedFiles exportRun(const session::Session& session, const data::Dataset& dataset,
                        const pipeline::RunResult& result, const pipeline::RunSettings& settings,
                        const ExportOptions& options) {
  const int m = options.syntheticDatasets;
  validate(result, m);

  // Everything is computed before the first byte is written.
  ReportInputs in{session, dataset, result, settings, options.seed, m, mechanismLabels(result),
                  {},      {},      {}};
  std::vector<Eigen::VectorXd> firsts;
  std::vector<nlohmann::json> reports;
  for (std::size_t j = 0; j < result.mechanisms.size(); ++j) {
    const auto& mech = result.mechanisms[j];
    in.synthetic.push_back(pipeline::synthesize(dataset, mech, settings.model, m, options.seed));
    in.syntheticFiles.push_back(syntheticNames(in.labels[j], m));
    firsts.push_back(in.synthetic.back().front());
    reports.push_back(pipeline::buildReport(dataset, mech, settings, firsts.back()));
  }
  in.rows = resultsTable(dataset, result, firsts);
  const std::string internal = internalReportHtml(in);
  const std::string release = releaseNoteHtml(in);
  session::Session saved = session;
  if (!saved.dataFile.empty())
    saved.dataFile = fs::absolute(saved.dataFile).lexically_normal().string();

  const std::vector<std::string> names = exportFileNames(result, m);
  StagedFolder folder(options.outDir);
  refuseInputOverwrite(folder.target(), names, {dataset.file, session.dataFile});
  for (std::size_t j = 0; j < result.mechanisms.size(); ++j) {
    const std::string& label = in.labels[j];
    pipeline::writeSyntheticBundle(folder.stagedPath("synthetic_" + label + ".csv"), dataset,
                                   result.mechanisms[j], in.synthetic[j], options.seed);
    data::writeTextAtomic(folder.stagedPath("report_" + label + ".json"),
                          reports[j].dump(2) + "\n");
  }
  writeResultsCsv(folder.stagedPath(kResults), in.rows);
  data::writeTextAtomic(folder.stagedPath(kInternal), internal);
  data::writeTextAtomic(folder.stagedPath(kRelease), release);
  data::writeTextAtomic(folder.stagedPath(kSession), session::toJson(saved));
  return {folder.commit(names)};
}

}  // namespace dpsynth::core::report
