#include "ui/controllers/export_actions.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QWidget>

#include "core/pipeline/export.h"
#include "core/pipeline/release_claim.h"
#include "core/pipeline/synthesis.h"
#include "core/report/bundle_export.h"
#include "core/report/export_run.h"
#include "core/report/ownership_manifest.h"
#include "ui/controllers/files_read.h"
#include "ui/dialogs/export_all_dialog.h"
#include "ui/dialogs/folder_dialog.h"
#include "ui/plots/plots_view.h"

namespace dpsynth::ui {

namespace pipeline = core::pipeline;

namespace {

const pipeline::MechanismResult* chooseResult(const RunOutput& output,
                                              std::optional<pipeline::Mechanism> mechanism) {
  if (!output.result || output.result->mechanisms.empty()) return nullptr;
  for (const auto& m : output.result->mechanisms) {
    if (mechanism && m.config.mechanism == *mechanism) return &m;
  }
  return &output.result->mechanisms.front();
}

QString joinColumns(const std::vector<std::string>& names) {
  QStringList out;
  for (const auto& n : names) out << QString::fromStdString(n);
  return out.join(QStringLiteral(", "));
}

}  // namespace

std::vector<std::string> ExportActions::inputsOf(const RunOutput& output) const {
  // Files the run read: an export never moves, replaces or deletes them.
  std::vector<std::string> inputs;
  for (const QString& input :
       {output.source.file, sessionPath_, QString::fromStdString(output.studio.weightsFrom)}) {
    if (!input.isEmpty()) inputs.push_back(input.toStdString());
  }
  return inputs;
}

ExportActions::ExportActions(QWidget* dialogParent)
    : QObject(dialogParent),
      dialogParent_(dialogParent),
      refused_(refusalDialogPresenter(dialogParent)),
      choose_([dialogParent](
                  const RunOutput& output) -> std::optional<std::vector<pipeline::Mechanism>> {
        ExportAllDialog dialog(output, dialogParent);
        if (dialog.exec() != QDialog::Accepted) return std::nullopt;
        return dialog.chosen();
      }) {}

std::vector<pipeline::Mechanism> ExportActions::defaultReleaseChoice(const RunOutput& output) {
  std::vector<pipeline::Mechanism> out;
  const auto& mechanisms = output.result->mechanisms;
  for (std::size_t j = 0; j < mechanisms.size(); ++j) {
    // rows[0] is the "confidential" row; then one row per mechanism, in the same order.
    const bool usable = j + 1 >= output.table.size() || output.table[j + 1].usable;
    if (pipeline::releasable(mechanisms[j]) && usable)
      out.push_back(mechanisms[j].config.mechanism);
  }
  return out;
}

QString ExportActions::releaseChoiceText(const RunOutput& output, std::size_t j) {
  const auto& m = output.result->mechanisms.at(j);
  const QString name = QString::fromStdString(pipeline::mechanismName(m.config.mechanism));
  if (!m.refusals.empty()) return tr("%1 — refused: its DP stage failed its diagnostics").arg(name);
  if (!pipeline::releasable(m))
    return tr("%1 — no privacy guarantee stated (%2): never released")
        .arg(name, m.notForRelease ? tr("a reproducible run") : tr("no DP or aDP label"));
  const QString guarantee =
      QString::fromStdString(pipeline::guaranteeName(pipeline::statedGuarantee(m)));
  if (j + 1 < output.table.size() && !output.table[j + 1].usable) {
    QStringList reasons;
    for (const auto& r : output.table[j + 1].verdictReasons) reasons << QString::fromStdString(r);
    return tr("%1 — %2 — UNUSABLE: %3").arg(name, guarantee, reasons.join(QStringLiteral("; ")));
  }
  return tr("%1 — %2 — usable").arg(name, guarantee);
}

QString ExportActions::releaseSummary(const RunOutput& output,
                                      const std::vector<pipeline::Mechanism>& release) {
  const auto& dataset = *output.dataset;
  QStringList released, internalNames, refused, unusable;
  const auto& mechanisms = output.result->mechanisms;
  for (std::size_t j = 0; j < mechanisms.size(); ++j) {
    const auto& m = mechanisms[j];
    const QString name = QString::fromStdString(pipeline::mechanismName(m.config.mechanism));
    if (!m.refusals.empty()) {
      refused << name;
      continue;
    }
    const bool chosen =
        std::find(release.begin(), release.end(), m.config.mechanism) != release.end();
    // SPEC §0: only a stated DP or aDP label enters release/ (never a seeded run or unweighted).
    (chosen && pipeline::releasable(m) ? released : internalNames) << name;
    if (chosen && j + 1 < output.table.size() && !output.table[j + 1].usable) unusable << name;
  }
  QStringList lines;
  if (!released.isEmpty())
    lines << tr("release/ (publishable) will hold, for %1: synthetic data, a sidecar per "
                "mechanism and release_note.html.")
                 .arg(released.join(QStringLiteral(", ")));
  else
    lines << tr(
        "Nothing will be written to release/: no mechanism is chosen for release, or "
        "none carries a DP or aDP label.");
  if (!unusable.isEmpty())
    lines << tr("Released although their verdict is UNUSABLE: %1. The release note states the "
                "guarantee, not that the data are useful.")
                 .arg(unusable.join(QStringLiteral(", ")));
  if (!internalNames.isEmpty())
    lines << tr("internal/ will hold the synthetic data of %1 (not released).")
                 .arg(internalNames.join(QStringLiteral(", ")));
  if (!refused.isEmpty())
    lines << tr("%1 failed its diagnostics: its synthetic data are not written at all.")
                 .arg(refused.join(QStringLiteral(", ")));
  lines << tr("Columns of every synthetic file: %1 (the synthesized outcome, then the public "
              "covariates, copied as they are), rows in a random order.")
               .arg(joinColumns(pipeline::releasedColumns(dataset)));
  const auto dropped = pipeline::droppedColumns(dataset);
  lines << (dropped.empty() ? tr("Not released: no other input column.")
                            : tr("Not released (never leave): %1.").arg(joinColumns(dropped)));
  lines << tr(
      "internal/ (confidential, do not publish) will hold the reports, results.csv, "
      "internal_report.html and the session.");
  if (output.studio.reproducible) {
    lines << tr("This is a reproducible run: every file will say NOT FOR RELEASE.");
  }
  return lines.join(QStringLiteral("\n\n"));
}

bool ExportActions::exportSynthetic(const RunOutput& output,
                                    std::optional<pipeline::Mechanism> mechanism, int m,
                                    const QString& csvPath) {
  const auto* chosen = chooseResult(output, mechanism);
  if (!chosen) {
    nothingToExport();
    return false;
  }
  if (!chosen->refusals.empty()) {
    if (refused_) {
      refused_(refusalReportOf(*output.result, RefusalReport::When::exportSynthetic,
                               chosen->config.mechanism));
    }
    return false;
  }
  if (pipeline::inReleaseFolder(csvPath.toStdString()) && !pipeline::releasable(*chosen)) {
    emit errorOccurred({tr("Cannot export synthetic data"),
                        csvPath,
                        0,
                        {},
                        tr("this result states no privacy guarantee (a reproducible run or the "
                           "unweighted fit) and is never written into a release/ folder; "
                           "choose another folder"),
                        {}});
    return false;
  }
  try {
    const auto bundle = core::report::exportSyntheticBundle(
        csvPath.toStdString(), *output.dataset, *chosen, output.settings.model, m,
        output.settings.nuts.seed, inputsOf(output));
    if (pipeline::releasable(*chosen)) {
      emit message(tr("Wrote %1 synthetic dataset(s) and %2; releasing them spends %3·ε")
                       .arg(bundle.csvFiles.size())
                       .arg(QString::fromStdString(bundle.sidecar))
                       .arg(m));
    } else {
      emit message(
          tr("Wrote %1 synthetic dataset(s) and %2, marked NOT FOR RELEASE: %3 states "
             "no privacy guarantee")
              .arg(bundle.csvFiles.size())
              .arg(QString::fromStdString(bundle.sidecar))
              .arg(QString::fromStdString(pipeline::mechanismName(chosen->config.mechanism))));
    }
    return true;
  } catch (const std::exception& e) {
    emit errorOccurred(errorReportFrom(e, tr("Cannot export synthetic data"), csvPath));
    return false;
  }
}

bool ExportActions::exportAll(const RunOutput& output, const QString& folder,
                              std::optional<std::vector<pipeline::Mechanism>> release) {
  if (!output.result || output.result->mechanisms.empty()) {
    nothingToExport();
    return false;
  }
  try {
    core::report::ExportOptions options;
    options.outDir = folder.toStdString();
    options.syntheticDatasets = output.studio.syntheticDatasets;
    options.inputs = inputsOf(output);
    // Files the user put in release/ or internal/ are never replaced or deleted: the export
    // is refused, naming them, and writes nothing.
    options.refuseForeignFiles = true;
    // What the analyst chose (or the usable releasable mechanisms): a refusal blocks only its
    // own mechanism.
    options.release = release ? *release : defaultReleaseChoice(output);
    const auto files =
        core::report::exportRun(toSession(output.studio, output.source), *output.dataset,
                                *output.result, output.settings, options);
    if (!files.refusals.empty()) {
      auto report = refusalReportOf(*output.result, RefusalReport::When::exportAll);
      report.internalFolder =
          QDir(folder).filePath(QString::fromLatin1(core::report::kInternalFolder));
      for (const auto& m : output.result->mechanisms) {
        const bool chosen = std::find(options.release->begin(), options.release->end(),
                                      m.config.mechanism) != options.release->end();
        if (chosen && pipeline::releasable(m))
          report.released << QString::fromStdString(pipeline::mechanismName(m.config.mechanism));
      }
      emit message(report.released.isEmpty()
                       ? tr("Release refused: only %1 was written").arg(report.internalFolder)
                       : tr("Released %1; the refused mechanisms were left out")
                             .arg(report.released.join(QStringLiteral(", "))));
      if (refused_) refused_(report);
      return false;
    }
    emit message(files.removedFolders.empty()
                     ? tr("Wrote %1 files to %2 (release/ and internal/)")
                           .arg(files.files.size())
                           .arg(folder)
                     : tr("Wrote %1 files to %2 (internal/; the earlier release/ was removed: "
                          "this export releases nothing)")
                           .arg(files.files.size())
                           .arg(folder));
    return true;
  } catch (const std::exception& e) {
    emit errorOccurred(errorReportFrom(e, tr("Cannot export"), folder));
    return false;
  }
}

QString ExportActions::defaultFolder(const QString& sessionPath, const DataSource& source) {
  if (!sessionPath.isEmpty()) return QFileInfo(sessionPath).absolutePath();
  if (source.sample.isEmpty() && !source.file.isEmpty()) {
    const QFileInfo folder(QFileInfo(source.file).absolutePath());
    if (folder.isDir() && folder.isWritable()) return folder.absoluteFilePath();
  }
  const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
  return QFileInfo(documents).isDir() ? documents : QDir::homePath();
}

void ExportActions::exportAllWithDialog(const RunOutput* output) {
  if (!output || !output->result || output->result->mechanisms.empty()) {
    nothingToExport();
    return;
  }
  const QString folder =
      chooseOutputFolder(dialogParent_, tr("Export all results to folder"),
                         lastExportFolder_.isEmpty() ? defaultFolder(sessionPath_, output->source)
                                                     : lastExportFolder_);
  if (folder.isEmpty()) return;
  // Files the user keeps in release/ or internal/ are never replaced: say so before any work.
  for (const char* sub : {core::report::kReleaseFolder, core::report::kInternalFolder}) {
    const QString path = QDir(folder).filePath(QString::fromLatin1(sub));
    const auto foreign = core::report::foreignEntries(path.toStdString());
    if (foreign.empty()) continue;
    QStringList names;
    for (std::size_t i = 0; i < foreign.size() && i < 4; ++i)
      names << QString::fromStdString(foreign[i]);
    emit errorOccurred({tr("Cannot export"),
                        path,
                        0,
                        {},
                        tr("%1 holds %2 file(s) dpsynth did not write (%3%4); Export all "
                           "replaces that folder, so it never writes there. Move them away or "
                           "choose another folder. Nothing was written.")
                            .arg(path)
                            .arg(foreign.size())
                            .arg(names.join(QStringLiteral(", ")))
                            .arg(foreign.size() > 4 ? QStringLiteral(", ...") : QString()),
                        {}});
    return;
  }
  const auto release =
      choose_ ? choose_(*output)
              : std::optional<std::vector<pipeline::Mechanism>>(defaultReleaseChoice(*output));
  if (!release) return;  // Cancel
  QStringList existing;
  bool writesRelease = false;
  for (const auto& name :
       core::report::exportFileNames(*output->result, output->studio.syntheticDatasets, *release)) {
    writesRelease = writesRelease || QString::fromStdString(name).startsWith(
                                         QString::fromLatin1(core::report::kReleaseFolder) + '/');
    if (QFileInfo::exists(QDir(folder).filePath(QString::fromStdString(name)))) {
      existing << QString::fromStdString(name);
    }
  }
  // An export with nothing to release takes an earlier release/ away with the internal/ it
  // replaces (export_run.h): asked together with the files it replaces.
  if (!writesRelease &&
      QFileInfo::exists(QDir(folder).filePath(QString::fromLatin1(core::report::kReleaseFolder))))
    existing.prepend(tr("release/ (removed: this export releases nothing)"));
  if (!existing.isEmpty() &&
      QMessageBox::question(dialogParent_, tr("Replace files?"),
                            tr("%1 already holds %2 of these files (%3). Replace them?")
                                .arg(folder)
                                .arg(existing.size())
                                .arg(existing.mid(0, 4).join(", "))) != QMessageBox::Yes) {
    return;
  }
  lastExportFolder_ = QFileInfo(folder).absolutePath();  // its parent: the next one beside it
  exportAll(*output, folder, *release);
}

namespace {
/// The longest mechanism choice shown in the single export's list.
constexpr qsizetype kChoiceChars = 110;
}  // namespace

void ExportActions::nothingToExport() {
  const QString what =
      storedOnly_ && storedOnly_()
          ? tr("the table comes from the session file, which keeps the results but not the "
               "posterior draws synthetic data are made from: press Run (stages already "
               "computed with these settings come from the cache)")
          : tr("run a mechanism first");
  emit errorOccurred({tr("Nothing to export"), {}, 0, {}, what, {}});
}

void ExportActions::exportSyntheticWithDialog(const RunOutput* output,
                                              std::optional<pipeline::Mechanism> mechanism, int m) {
  const auto* chosen = output ? chooseResult(*output, mechanism) : nullptr;
  if (!chosen) {
    nothingToExport();
    return;
  }
  // Which mechanism: the selected one offered first, every mechanism of the run listed with
  // what it states and its verdict.
  const auto& mechanisms = output->result->mechanisms;
  if (mechanisms.size() > 1) {
    QStringList items;
    int current = 0;
    for (std::size_t j = 0; j < mechanisms.size(); ++j) {
      // Cut short: a list as wide as every verdict's reasons left the dialog's buttons off the
      // screen (the Warnings tab shows them in full).
      QString text = releaseChoiceText(*output, j);
      if (text.size() > kChoiceChars) text = text.left(kChoiceChars - 1) + QStringLiteral("…");
      items << text;
      if (&mechanisms[j] == chosen) current = int(j);
    }
    bool ok = false;
    const QString item = QInputDialog::getItem(dialogParent_, tr("Export synthetic data"),
                                               tr("Mechanism:"), items, current, false, &ok);
    if (!ok) return;
    chosen = &mechanisms[std::size_t(items.indexOf(item))];
  }
  const QString name = QString::fromStdString(pipeline::mechanismName(chosen->config.mechanism));
  if (chosen->refusals.empty() && !pipeline::releasable(*chosen) &&
      QMessageBox::question(
          dialogParent_, tr("No privacy guarantee"),
          tr("%1 states no privacy guarantee (%2). Its synthetic data are for comparison inside "
             "the agency: the files are marked NOT FOR RELEASE and are never written into a "
             "release/ folder. Export them anyway?")
              .arg(name, chosen->notForRelease ? tr("a reproducible run")
                                               : tr("the unweighted synthesizer"))) !=
          QMessageBox::Yes)
    return;
  const QString path =
      QFileDialog::getSaveFileName(dialogParent_, tr("Export synthetic data (%1)").arg(name),
                                   QDir(defaultFolder(sessionPath_, output->source))
                                       .filePath(QStringLiteral("synthetic-%1.csv").arg(name)),
                                   tr("CSV files (*.csv)"));
  if (!path.isEmpty()) exportSynthetic(*output, chosen->config.mechanism, m, path);
}

void ExportActions::exportPlotsWithDialog(PlotsView* plots, const DataSource& source,
                                          const QString& reference) {
  const QString folder = chooseOutputFolder(dialogParent_, tr("Export plots to folder"),
                                            defaultFolder(sessionPath_, source));
  if (folder.isEmpty()) return;
  // Twelve fixed names went into the data's folder with no word: a weights.csv loaded as the
  // reference was replaced by the Weights plot's data.
  const QStringList paths = PlotsView::exportPaths(folder, QStringLiteral("png"));
  QString input;
  if (const QString output = inputAmong(paths, {source.file, sessionPath_, reference}, &input);
      !output.isEmpty()) {
    emit errorOccurred(
        {tr("Cannot export plots"), folder, 0, {}, isAnInputProblem(output, input), {}});
    return;
  }
  QStringList existing;
  for (const QString& path : paths)
    if (QFileInfo::exists(path)) existing << QFileInfo(path).fileName();
  if (!existing.isEmpty() &&
      QMessageBox::question(dialogParent_, tr("Replace files?"),
                            tr("%1 already holds %2 of the files Export plots writes (%3%4). "
                               "Replace them?")
                                .arg(folder)
                                .arg(existing.size())
                                .arg(existing.mid(0, 4).join(", "))
                                .arg(existing.size() > 4 ? QStringLiteral(", ...") : QString()),
                            QMessageBox::Yes | QMessageBox::No,
                            QMessageBox::No) != QMessageBox::Yes) {
    return;
  }
  QString error;
  if (plots->exportAll(folder, QStringLiteral("png"), &error)) {
    emit message(tr("Plots written to %1").arg(folder));
  } else {
    emit errorOccurred({tr("Cannot export plots"), folder, 0, {}, error, {}});
  }
}

}  // namespace dpsynth::ui
