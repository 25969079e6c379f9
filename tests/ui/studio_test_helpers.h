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
#include "ui/main_window.h"
#include "ui/panels/sampler_panel.h"

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
inline void useSmallSampler(MainWindow& window, int chains = 2, int warmup = 150, int draws = 150,
                            std::uint64_t seed = 7) {
  core::mcmc::NutsConfig nuts;
  nuts.chains = chains;
  nuts.warmup = warmup;
  nuts.draws = draws;
  nuts.seed = seed;
  window.samplerPanel()->setNuts(nuts, 1);
  window.samplerPanel()->setRelease(true, window.samplerPanel()->neighbours());
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

/// Waits for MainWindow::runEnded; returns its `ok` argument (false on timeout).
inline bool waitForRun(MainWindow& window, QSignalSpy& ended, int timeoutMs = 60000) {
  if (ended.isEmpty() && !ended.wait(timeoutMs)) return false;
  return ended.takeFirst().at(0).toBool();
}

}  // namespace dpsynth::ui::test
