#include "core/report/export_run.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "core/data/csv_writer.h"
#include "core/data/quote_value.h"
#include "core/exec/cancellation.h"
#include "core/infer/ph_release.h"
#include "core/pipeline/bundle_writer.h"
#include "core/pipeline/export.h"
#include "core/pipeline/release_claim.h"
#include "core/pipeline/report.h"
#include "core/pipeline/synthesis.h"
#include "core/report/internal_report.h"
#include "core/report/ownership_manifest.h"
#include "core/report/release_note.h"
#include "core/report/report_inputs.h"
#include "core/report/results_table.h"
#include "core/report/staged_folder.h"
#include "core/summary/run_summary.h"

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

/// An export must never move or replace the files it was computed from: refuse when an input
/// lies inside one of the folders it replaces.
void refuseInputsInside(const fs::path& target, const std::vector<std::string>& inputs) {
  std::error_code ec;
  for (const char* sub : {kReleaseFolder, kInternalFolder}) {
    const fs::path folder = fs::weakly_canonical(target / sub, ec);
    if (ec) continue;
    for (const auto& input : inputs) {
      if (input.empty()) continue;
      const fs::path in = fs::weakly_canonical(input, ec);
      if (ec) continue;
      const auto rel = in.lexically_relative(folder);
      if (!rel.empty() && *rel.begin() != "..")
        throw std::invalid_argument("refusing to replace the folder " + folder.string() +
                                    ": it holds the input file " + input +
                                    "; choose another output folder");
    }
  }
}

/// Refuses (std::invalid_argument, nothing written) to `verb` ("replace", "remove") the
/// subfolder `sub` of `target` while it holds files dpsynth did not write (ownership_manifest.h).
void refuseForeignFiles(const std::string& target, const std::string& sub, const char* verb) {
  const fs::path folder = fs::path(target) / sub;
  if (const auto foreign = foreignEntries(folder.string()); !foreign.empty())
    throw std::invalid_argument(std::string("refusing to ") + verb + " the folder " +
                                folder.string() + ": it holds " + std::to_string(foreign.size()) +
                                " file(s) dpsynth did not write (" +
                                data::quoteForMessage(foreign.front(), 40) +
                                (foreign.size() > 1 ? ", ..." : "") + "); nothing was written");
}

std::string inFolder(const char* folder, const std::string& name) {
  return std::string(folder) + "/" + name;
}

/// The ph mechanism's noisy counts are its DP output: published as a release file that
/// `dpsynth infer` reads (core/infer/ph_release.h).
std::string phReleaseName(const std::string& label) { return "ph-release_" + label + ".json"; }

}  // namespace

namespace {

using Chosen = std::optional<std::vector<pipeline::Mechanism>>;

/// A mechanism enters release/ when it is releasable (SPEC §0: a stated DP or aDP label, not
/// refused) and, where the analyst chose, chosen.
bool goesToRelease(const pipeline::MechanismResult& mechanism, const Chosen& chosen) {
  if (!pipeline::releasable(mechanism)) return false;
  return !chosen ||
         std::find(chosen->begin(), chosen->end(), mechanism.config.mechanism) != chosen->end();
}

/// True when some mechanism of the run enters release/.
bool writesRelease(const pipeline::RunResult& result, const Chosen& chosen) {
  return std::any_of(
      result.mechanisms.begin(), result.mechanisms.end(),
      [&chosen](const pipeline::MechanismResult& m) { return goesToRelease(m, chosen); });
}

/// release/ for a released mechanism's files, internal/ for the others (unweighted, seeded,
/// not chosen).
const char* mechanismFolder(const pipeline::MechanismResult& mechanism, const Chosen& chosen) {
  return goesToRelease(mechanism, chosen) ? kReleaseFolder : kInternalFolder;
}

}  // namespace

std::vector<std::string> exportFileNames(const pipeline::RunResult& result, int m,
                                         const Chosen& release) {
  std::vector<std::string> names;
  const std::vector<std::string> labels = mechanismLabels(result);
  for (std::size_t j = 0; j < labels.size(); ++j) {
    const std::string& label = labels[j];
    // A refused mechanism's synthetic files are not written at all.
    if (!result.mechanisms[j].refusals.empty()) continue;
    const char* folder = mechanismFolder(result.mechanisms[j], release);
    for (const auto& n : syntheticNames(label, m)) names.push_back(inFolder(folder, n));
    names.push_back(inFolder(folder, "synthetic_" + label + ".csv.json"));
    if (result.mechanisms[j].ph) names.push_back(inFolder(folder, phReleaseName(label)));
  }
  names.push_back(
      inFolder(writesRelease(result, release) ? kReleaseFolder : kInternalFolder, kRelease));
  for (const auto& label : mechanismLabels(result))
    names.push_back(inFolder(kInternalFolder, "report_" + label + ".json"));
  for (const char* n : {kResults, kInternal, kSession})
    names.push_back(inFolder(kInternalFolder, n));
  return names;
}

namespace {

ExportedFiles exportStaged(const session::Session& session, const data::Dataset& dataset,
                           const pipeline::RunResult& result, const pipeline::RunSettings& settings,
                           const ExportOptions& options) {
  const int m = options.syntheticDatasets;
  const std::stop_token& stop = options.stop;

  // The reports are computed from each mechanism's first dataset before anything is written.
  summary::RunSummary run = summary::summarizeRun(dataset, result, settings, stop);
  ReportInputs in{session,
                  dataset,
                  result,
                  settings,
                  summary::synthesisSeed(settings),
                  m,
                  mechanismLabels(result),
                  std::move(run.rows),
                  std::move(run.firstSynthetic),
                  {},
                  {},
                  stop,
                  {}};
  const auto& synthesizers = run.synthesizers;
  std::vector<nlohmann::json> reports;
  ExportedFiles out;
  for (std::size_t j = 0; j < result.mechanisms.size(); ++j) {
    const auto& mech = result.mechanisms[j];
    in.syntheticFiles.push_back(syntheticNames(in.labels[j], m));
    reports.push_back(pipeline::buildReport(dataset, mech, settings, in.firstSynthetic[j], stop));
    if (!mech.refusals.empty()) out.refusals.push_back(pipeline::refusalMessage(mech));
  }
  session::Session saved = session;
  if (!saved.dataFile.empty())
    saved.dataFile = fs::absolute(saved.dataFile).lexically_normal().string();
  if (!saved.weightsFrom.empty())
    saved.weightsFrom = fs::absolute(saved.weightsFrom).lexically_normal().string();

  // Only mechanisms with a stated DP or aDP label (not seeded, not unweighted, not refused) go
  // to release/, the others to internal/ (SPEC §0), and release/ exists only when one of them
  // does. A refusal blocks its own mechanism's synthetic files and no other's.
  const bool release = writesRelease(result, options.release);
  for (const auto& mech : result.mechanisms)
    in.inRelease.push_back(goesToRelease(mech, options.release));
  std::vector<std::string> names = exportFileNames(result, m, options.release);
  StagedFolder folder(options.outDir);
  std::vector<std::string> inputs = options.inputs;
  inputs.push_back(dataset.file);
  inputs.push_back(session.dataFile);
  refuseInputsInside(folder.target(), inputs);
  std::vector<std::string> subfolders{kInternalFolder};
  if (release) subfolders.insert(subfolders.begin(), kReleaseFolder);
  // A run's folders are one set: a run with nothing releasable (seeded, or unweighted alone)
  // takes an earlier run's release/ away as it replaces internal/, or release/ would be
  // described by no internal report beside it. Under the rules of a replaced folder: with
  // refuseForeignFiles only while it holds nothing but dpsynth's files.
  std::vector<std::string> removed;
  if (!release) {
    const fs::path earlier = fs::path(folder.target()) / kReleaseFolder;
    std::error_code ec;
    const auto status = fs::symlink_status(earlier, ec);
    if (fs::exists(status)) {
      if (!fs::is_directory(status))
        throw std::invalid_argument("refusing to leave " + earlier.string() +
                                    " beside this run's internal/ (it has nothing releasable): "
                                    "it is not a folder dpsynth wrote; move it away");
      removed.push_back(kReleaseFolder);
    }
  }
  // Every write goes into the hidden staging folder; a failure (a full disk) names the path
  // the user asked for.
  try {
    for (std::size_t j = 0; j < result.mechanisms.size(); ++j) {
      const std::string& label = in.labels[j];
      const pipeline::MechanismResult& mech = result.mechanisms[j];
      std::vector<utility::DistributionSummary> summaries;
      if (mech.refusals.empty()) {
        const char* sub = mechanismFolder(mech, options.release);
        // One dataset in memory at a time: drawn, written, summarised for the release note.
        pipeline::SyntheticBundleWriter writer(
            folder.stagedPath(inFolder(sub, "synthetic_" + label + ".csv")), dataset, mech, m,
            summary::synthesisSeed(settings), /*staged=*/true);
        for (int k = 0; k < m; ++k) {
          const Eigen::VectorXd y = k == 0 ? in.firstSynthetic[j] : synthesizers[j]->draw(k, stop);
          writer.add(y, stop);
          summaries.push_back(utility::describe(y, stop));
        }
        writer.finish();
        if (mech.ph) {
          const infer::PhReleaseFile ph =
              infer::phReleaseFile(*mech.ph, mech.epsilon, mech.neighbours,
                                   static_cast<int>(mech.size.rowsFor(dataset.size())),
                                   dataset.family, mech.size.source, mech.size.epsilon);
          data::writeTextAtomic(folder.stagedPath(inFolder(sub, phReleaseName(label))),
                                infer::phReleaseToJson(ph));
        }
      }
      in.syntheticSummaries.push_back(std::move(summaries));
      data::writeTextAtomic(
          folder.stagedPath(inFolder(kInternalFolder, "report_" + label + ".json")),
          reports[j].dump(2) + "\n");
    }
    // The note in release/ describes the releasable mechanisms only; a run without any (seeded,
    // or unweighted alone) keeps its note, NOT FOR RELEASE, in internal/.
    data::writeTextAtomic(
        folder.stagedPath(inFolder(release ? kReleaseFolder : kInternalFolder, kRelease)),
        releaseNoteHtml(in, release));
    writeResultsCsv(folder.stagedPath(inFolder(kInternalFolder, kResults)), in.rows);
    data::writeTextAtomic(folder.stagedPath(inFolder(kInternalFolder, kInternal)),
                          internalReportHtml(in));
    data::writeTextAtomic(folder.stagedPath(inFolder(kInternalFolder, kSession)),
                          session::toJson(saved));
    for (const auto& sub : subfolders) writeOwnershipManifest(folder.stagedPath(sub));
    if (options.refuseForeignFiles) {
      for (const auto& sub : subfolders) refuseForeignFiles(folder.target(), sub, "replace");
      for (const auto& sub : removed) refuseForeignFiles(folder.target(), sub, "remove");
    }
  } catch (const data::WriteError& e) {
    throw data::WriteError(folder.userPath(e.path()), e.reason());
  }
  // The last point where a stop is honoured: after it the folders are moved into place whole.
  exec::throwIfStopped(stop);
  out.files = folder.commitFolders(subfolders, names, removed);
  for (const auto& sub : removed)
    out.removedFolders.push_back((fs::path(folder.target()) / sub).string());
  return out;
}

}  // namespace

ExportedFiles exportRun(const session::Session& session, const data::Dataset& dataset,
                        const pipeline::RunResult& result, const pipeline::RunSettings& settings,
                        const ExportOptions& options) {
  validate(result, options.syntheticDatasets);
  // The published size and every mechanism run (public settings): not n, which add-remove
  // keeps confidential, nor the mechanisms the diagnostics let through, which follow the data.
  const std::uint64_t rows = result.mechanisms.empty()
                                 ? dataset.size()
                                 : result.mechanisms.front().size.rowsFor(dataset.size());
  pipeline::checkSyntheticVolume(static_cast<std::uint64_t>(options.syntheticDatasets), rows,
                                 result.mechanisms.size(), "synthetic_datasets");
  try {
    return exportStaged(session, dataset, result, settings, options);
  } catch (const exec::Cancelled&) {
    // The staging folder (and the output folder, if this export created it) went with the
    // unwinding: nothing was written.
    ExportedFiles out;
    out.cancelled = true;
    return out;
  }
}

}  // namespace dpsynth::core::report
