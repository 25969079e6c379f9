#pragma once
/// Helpers shared by the studio's UI tests (header-only).
#include <QDir>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>
#include <vector>

#include "core/data/csv_table.h"
#include "core/data/dataset.h"
#include "ui/dialogs/error_report.h"
#include "ui/dialogs/release_refused_dialog.h"
#include "ui/document/studio_document.h"
#include "ui/main_window.h"
#include "ui/services/data_service.h"
#include "ui/workspaces/synthesis/synthesis_workspace.h"

namespace dpsynth::ui::test {

/// Keeps QSettings (recent files, geometry, auto-run) away from the user's configuration.
inline void isolateSettings(const QTemporaryDir& dir) {
  QStandardPaths::setTestModeEnabled(true);
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.path());
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
  QSettings().clear();
}

/// Records every error the window would show in a dialog.
struct ErrorRecorder {
  std::shared_ptr<std::vector<ErrorReport>> reports = std::make_shared<std::vector<ErrorReport>>();
  ErrorPresenter presenter() const {
    auto target = reports;
    return [target](const ErrorReport& r) { target->push_back(r); };
  }
  std::size_t count() const { return reports->size(); }
  const ErrorReport& last() const { return reports->back(); }
};

/// 2 chains × 150 warm-up + 150 draws: enough for the pipeline, fast in tests. Tests are
/// seeded: the "reproducible (not for release)" switch is turned on.
inline void useSmallSampler(StudioDocument& document, int chains = 2, int warmup = 150,
                            int draws = 150, std::uint64_t seed = 7) {
  StudioSettings settings = document.settings();
  settings.run.nuts.chains = chains;
  settings.run.nuts.warmup = warmup;
  settings.run.nuts.draws = draws;
  settings.run.nuts.seed = seed;
  settings.syntheticDatasets = 1;
  settings.reproducible = true;
  document.replaceSettings(settings);
}
inline void useSmallSampler(MainWindow& window, int chains = 2, int warmup = 150, int draws = 150,
                            std::uint64_t seed = 7) {
  useSmallSampler(*window.document(), chains, warmup, draws, seed);
}

/// Sets settings as the analyst would, one typed edit (one undo step) each.
inline void edit(MainWindow& window, Field field, const FieldValue& value) {
  window.document()->edit(field, value);
}
/// Applies a data choice as one edit (a session's choice, say): the family counts as declared.
/// True when the choice makes a dataset.
inline bool setChoice(MainWindow& window, const core::data::DatasetSpec& spec, double sdScale) {
  window.document()->edit({{Field::outcome, spec.outcome},
                           {Field::covariates, spec.covariates},
                           {Field::family, spec.family},
                           {Field::familyDeclared, true},
                           {Field::dropMissing, spec.dropMissing},
                           {Field::sdScale, sdScale}},
                          QStringLiteral("choice"));
  return window.document()->dataset() != nullptr;
}
inline void setMechanisms(MainWindow& window, std::vector<core::pipeline::Mechanism> mechanisms) {
  window.document()->edit(Field::mechanisms, std::move(mechanisms));
}

/// Records every "Release refused" report the window would show in a dialog.
struct RefusalRecorder {
  std::shared_ptr<std::vector<RefusalReport>> reports =
      std::make_shared<std::vector<RefusalReport>>();
  RefusalPresenter presenter() const {
    auto target = reports;
    return [target](const RefusalReport& r) { target->push_back(r); };
  }
  std::size_t count() const { return reports->size(); }
  const RefusalReport& last() const { return reports->back(); }
};

inline QString samplePath(const QString& kind) {
  return QStringLiteral(DPSYNTH_SOURCE_DIR "/resources/samples/%1.csv").arg(kind);
}
inline QString malformedPath(const QString& name) {
  return QStringLiteral(DPSYNTH_SOURCE_DIR "/tests/data/malformed/%1").arg(name);
}

inline std::shared_ptr<const core::data::Dataset> nbmixDataset() {
  const auto table = core::data::readCsv(samplePath("nbmix").toStdString());
  core::data::DatasetSpec spec;
  spec.outcome = "count";
  spec.family = core::models::Family::negbin;
  return std::make_shared<core::data::Dataset>(core::data::buildDataset(table, spec));
}

/// Waits for SynthesisWorkspace::runEnded; returns its `ok` argument (false on timeout).
inline bool waitForRun(MainWindow&, QSignalSpy& ended, int timeoutMs = 60000) {
  if (ended.isEmpty() && !ended.wait(timeoutMs)) return false;
  return ended.takeFirst().at(0).toBool();
}

}  // namespace dpsynth::ui::test
