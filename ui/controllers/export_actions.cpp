#include "ui/controllers/export_actions.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QWidget>

#include "core/pipeline/export.h"
#include "core/pipeline/synthesis.h"
#include "core/report/export_run.h"
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

}  // namespace

ExportActions::ExportActions(QWidget* dialogParent)
    : QObject(dialogParent), dialogParent_(dialogParent) {}

bool ExportActions::exportSynthetic(const RunOutput& output,
                                    std::optional<pipeline::Mechanism> mechanism, int m,
                                    const QString& csvPath) {
  const auto* chosen = chooseResult(output, mechanism);
  if (!chosen) {
    emit errorOccurred({tr("Nothing to export"), {}, 0, {}, tr("run a mechanism first"), {}});
    return false;
  }
  try {
    const auto seed = output.settings.nuts.seed;
    const auto synthetic =
        pipeline::synthesize(*output.dataset, *chosen, output.settings.model, m, seed);
    const auto bundle = pipeline::writeSyntheticBundle(csvPath.toStdString(), *output.dataset,
                                                       *chosen, synthetic, seed);
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
    options.seed = output.settings.nuts.seed;
    const auto files =
        core::report::exportRun(toSession(output.studio, output.source), *output.dataset,
                                *output.result, output.settings, options);
    emit message(tr("Wrote %1 files to %2").arg(files.files.size()).arg(folder));
    return true;
  } catch (const std::exception& e) {
    emit errorOccurred(errorReportFrom(e, tr("Cannot export"), folder));
    return false;
  }
}

void ExportActions::exportAllWithDialog(const RunOutput* output) {
  if (!output || !output->result || output->result->mechanisms.empty()) {
    emit errorOccurred({tr("Nothing to export"), {}, 0, {}, tr("run a mechanism first"), {}});
    return;
  }
  const QString folder =
      QFileDialog::getExistingDirectory(dialogParent_, tr("Export all results to folder"));
  if (folder.isEmpty()) return;
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
  const QString path = QFileDialog::getSaveFileName(
      dialogParent_, tr("Export synthetic data (%1)").arg(name),
      QStringLiteral("synthetic-%1.csv").arg(name), tr("CSV files (*.csv)"));
  if (!path.isEmpty()) exportSynthetic(*output, chosen->config.mechanism, m, path);
}

void ExportActions::exportPlotsWithDialog(PlotsView* plots) {
  const QString folder =
      QFileDialog::getExistingDirectory(dialogParent_, tr("Export plots to folder"));
  if (folder.isEmpty()) return;
  QString error;
  if (plots->exportAll(folder, QStringLiteral("png"), &error)) {
    emit message(tr("Plots written to %1").arg(folder));
  } else {
    emit errorOccurred({tr("Cannot export plots"), folder, 0, {}, error, {}});
  }
}

}  // namespace dpsynth::ui
