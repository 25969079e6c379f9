#pragma once
/// Immutable value snapshots of a run that cross from the worker thread to the GUI (queued
/// signals copy them; the heavy parts, draws and stage results, are shared pointers to const
/// data). The document keeps the last RunOutput; views read these types, never a worker.
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QTime>
#include <memory>
#include <optional>
#include <vector>

#include "core/data/dataset.h"
#include "core/pipeline/pipeline.h"
#include "core/report/results_table.h"
#include "ui/plots/mechanism_plot_data.h"
#include "ui/studio_settings.h"

namespace dpsynth::ui {

struct RunRequest {
  quint64 runId = 0;
  std::shared_ptr<const core::data::Dataset> dataset;
  std::vector<core::pipeline::MechanismConfig> configs;
  core::pipeline::RunSettings settings;
  std::shared_ptr<core::pipeline::StageCache> cache;
  StudioSettings studio;  ///< carried through to RunOutput (for exports and sessions)
  DataSource source;
};

/// A stage started (stage == null) or finished (stage set).
struct StageEvent {
  quint64 runId = 0;
  QString mechanism;
  QString stage;  ///< the stage's label ("lw-final k=0.9500")
  bool fromCache = false;
  core::pipeline::StagePtr result;  ///< finished stages only
};

struct ChainProgress {
  quint64 runId = 0;
  QString stage;
  core::mcmc::Progress progress;
};

/// Post-warm-up draws of one chain on the constrained scale, draw-major (P values per draw),
/// as PlotsView::appendDraws wants them.
struct DrawBatch {
  quint64 runId = 0;
  QString stage;
  int chain = 0;
  int firstDraw = 0;
  std::shared_ptr<const std::vector<double>> values;
};

/// The Lipschitz bound of a stage that is still sampling, over the draws so far (a lower bound
/// of the stage's final perRecord, equal to it once draws == all draws of the stage).
struct LipschitzSnapshot {
  quint64 runId = 0;
  QString mechanism;
  QString stage;
  std::shared_ptr<const std::vector<double>> perRecord;  ///< n values
  double max = 0;
  std::size_t draws = 0;  ///< post-warm-up draws (all chains) the snapshot covers
};

/// A run is starting: what the live traces will show.
struct RunStart {
  quint64 runId = 0;
  QStringList parameterNames;
  int chains = 0;
};

/// The merged progress of the stage that is sampling now.
struct StageProgress {
  QString stage;
  std::vector<core::mcmc::Progress> chains;  ///< latest report of each chain
  double elapsedSeconds = 0;                 ///< since the stage started
  /// Fraction of all chains' iterations done, in [0, 1].
  double fraction() const;
  /// Seconds left at the rate so far; negative when not yet known.
  double remainingSeconds() const;
};

struct RunOutput {
  quint64 runId = 0;
  std::shared_ptr<const core::data::Dataset> dataset;
  core::pipeline::RunSettings settings;
  StudioSettings studio;  ///< the settings the run was started with
  DataSource source;      ///< where its data came from
  std::shared_ptr<const core::pipeline::RunResult> result;
  /// core::report::resultsTable: the "confidential" row, then one row per mechanism (the same
  /// rows as results.csv of "Export all" and of `dpsynth run`).
  std::vector<core::report::ResultsRow> table;
  std::vector<QStringList> warnings;           ///< one list per mechanism
  std::vector<MechanismPlotData> plots;        ///< one per mechanism
  std::size_t cacheHits = 0, cacheMisses = 0;  ///< stages served from / added to the cache
  QStringList cachedStages;                    ///< labels of the stages served from the cache
  double seconds = 0;
  /// When the run finished (local time): its label keeps it when the run is shown again.
  QTime finishedAt;
};

}  // namespace dpsynth::ui

Q_DECLARE_METATYPE(dpsynth::ui::StageEvent)
Q_DECLARE_METATYPE(dpsynth::ui::ChainProgress)
Q_DECLARE_METATYPE(dpsynth::ui::DrawBatch)
Q_DECLARE_METATYPE(dpsynth::ui::LipschitzSnapshot)
Q_DECLARE_METATYPE(dpsynth::ui::RunStart)
Q_DECLARE_METATYPE(dpsynth::ui::RunOutput)
Q_DECLARE_METATYPE(dpsynth::ui::StageProgress)
