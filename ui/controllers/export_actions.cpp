#include "ui/controllers/export_actions.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
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
      confirm_([dialogParent](const QString& title, const QString& text) {
        QMessageBox box(QMessageBox::Question, title, text, QMessageBox::NoButton, dialogParent);
        box.setTextFormat(Qt::PlainText);
        QPushButton* go = box.addButton(tr("Export"), QMessageBox::AcceptRole);
        box.addButton(QMessageBox::Cancel);
        box.exec();
        return box.clickedButton() == go;
      }) {}

QString ExportActions::releaseSummary(const RunOutput& output) {
  const auto& dataset = *output.dataset;
  QStringList names, internalNames;
  QStringList refused;
  for (const auto& m : output.result->mechanisms) {
    const QString name = QString::fromStdString(pipeline::mechanismName(m.config.mechanism));
    // SPEC §0: only a stated DP or aDP label enters release/ (never a seeded run or unweighted).
    (pipeline::releasable(m) ? names : internalNames) << name;
    if (!m.refusals.empty()) refused << name;
  }
  QStringList lines;
  if (!names.isEmpty())
    lines << tr("release/ (publishable) will hold, for %1: synthetic data, a sidecar per "
                "mechanism and release_note.html.")
                 .arg(names.join(QStringLiteral(", ")));
  else
    lines << tr("Nothing will be written to release/: no mechanism of this run carries a DP or "
                "aDP label for release.");
  if (!internalNames.isEmpty())
    lines << tr("internal/ will hold the synthetic data of %1 (no privacy guarantee stated: "
                "not for release).")
                 .arg(internalNames.join(QStringLiteral(", ")));
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
  if (!refused.isEmpty()) {
    lines << tr("%1 failed its diagnostics: nothing will be written to release/.")
                 .arg(refused.join(QStringLiteral(", ")));
  }
  return lines.join(QStringLiteral("\n\n"));
}

bool ExportActions::exportSynthetic(const RunOutput& output,
                                    std::optional<pipeline::Mechanism> mechanism, int m,
                                    const QString& csvPath) {
  const auto* chosen = chooseResult(output, mechanism);
  if (!chosen) {
    emit errorOccurred({tr("Nothing to export"), {}, 0, {}, tr("run a mechanism first"), {}});
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
    emit errorOccurred({tr("Cannot export synthetic data"), csvPath, 0, {},
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
    emit message(tr("Wrote %1 synthetic dataset(s) and %2; releasing them spends %3·ε")
                     .arg(bundle.csvFiles.size())
                     .arg(QString::fromStdString(bundle.sidecar))
                     .arg(m));
    return true;
  } catch (const std::exception& e) {
    emit errorOccurred(errorReportFrom(e, tr("Cannot export synthetic data"), csvPath));
    return false;
  }
}

bool ExportActions::exportAll(const RunOutput& output, const QString& folder) {
  if (!output.result || output.result->mechanisms.empty()) {
    emit errorOccurred({tr("Nothing to export"), {}, 0, {}, tr("run a mechanism first"), {}});
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
    const auto files =
        core::report::exportRun(toSession(output.studio, output.source), *output.dataset,
                                *output.result, output.settings, options);
    if (!files.refusals.empty()) {
      auto report = refusalReportOf(*output.result, RefusalReport::When::exportAll);
      report.internalFolder =
          QDir(folder).filePath(QString::fromLatin1(core::report::kInternalFolder));
      emit message(tr("Release refused: only %1 was written").arg(report.internalFolder));
      if (refused_) refused_(report);
      return false;
    }
    emit message(
        tr("Wrote %1 files to %2 (release/ and internal/)").arg(files.files.size()).arg(folder));
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
    emit errorOccurred({tr("Nothing to export"), {}, 0, {}, tr("run a mechanism first"), {}});
    return;
  }
  const QString folder =
      QFileDialog::getExistingDirectory(dialogParent_, tr("Export all results to folder"),
                                        defaultFolder(sessionPath_, output->source));
  if (folder.isEmpty()) return;
  // Files the user keeps in release/ or internal/ are never replaced: say so before any work.
  for (const char* sub : {core::report::kReleaseFolder, core::report::kInternalFolder}) {
    const QString path = QDir(folder).filePath(QString::fromLatin1(sub));
    const auto foreign = core::report::foreignEntries(path.toStdString());
    if (foreign.empty()) continue;
    QStringList names;
    for (std::size_t i = 0; i < foreign.size() && i < 4; ++i)
      names << QString::fromStdString(foreign[i]);
    emit errorOccurred({tr("Cannot export"), path, 0, {},
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
  if (confirm_ && !confirm_(tr("Export all: what the release holds"), releaseSummary(*output))) {
    return;
  }
  QStringList existing;
  for (const auto& name :
       core::report::exportFileNames(*output->result, output->studio.syntheticDatasets)) {
    if (QFileInfo::exists(QDir(folder).filePath(QString::fromStdString(name)))) {
      existing << QString::fromStdString(name);
    }
  }
  if (!existing.isEmpty() &&
      QMessageBox::question(dialogParent_, tr("Replace files?"),
                            tr("%1 already holds %2 of these files (%3). Replace them?")
                                .arg(folder)
                                .arg(existing.size())
                                .arg(existing.mid(0, 4).join(", "))) != QMessageBox::Yes) {
    return;
  }
  exportAll(*output, folder);
}

void ExportActions::exportSyntheticWithDialog(const RunOutput* output,
                                              std::optional<pipeline::Mechanism> mechanism, int m) {
  const auto* chosen = output ? chooseResult(*output, mechanism) : nullptr;
  if (!chosen) {
    emit errorOccurred({tr("Nothing to export"), {}, 0, {}, tr("run a mechanism first"), {}});
    return;
  }
  const QString name = QString::fromStdString(pipeline::mechanismName(chosen->config.mechanism));
  const QString path =
      QFileDialog::getSaveFileName(dialogParent_, tr("Export synthetic data (%1)").arg(name),
                                   QDir(defaultFolder(sessionPath_, output->source))
                                       .filePath(QStringLiteral("synthetic-%1.csv").arg(name)),
                                   tr("CSV files (*.csv)"));
  if (!path.isEmpty()) exportSynthetic(*output, chosen->config.mechanism, m, path);
}

void ExportActions::exportPlotsWithDialog(PlotsView* plots, const DataSource& source) {
  const QString folder = QFileDialog::getExistingDirectory(
      dialogParent_, tr("Export plots to folder"), defaultFolder(sessionPath_, source));
  if (folder.isEmpty()) return;
  QString error;
  if (plots->exportAll(folder, QStringLiteral("png"), &error)) {
    emit message(tr("Plots written to %1").arg(folder));
  } else {
    emit errorOccurred({tr("Cannot export plots"), folder, 0, {}, error, {}});
  }
}

}  // namespace dpsynth::ui
