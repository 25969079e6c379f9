#include "ui/workers/study_worker.h"

#include <exception>
#include <set>

#include "core/study/study_outputs.h"
#include "core/study/study_plan.h"
#include "core/study/study_runner.h"
#include "core/study/study_store.h"

namespace dpsynth::ui {

void StudyWorker::run(const core::study::StudyConfig& config, const QString& folder, int threads) {
  namespace study = core::study;
  try {
    study::StudyStore store(folder.toStdString(), config);
    const int total = config.replicates;
    std::vector<int> missing;
    for (int r = 0; r < total; ++r)
      if (!store.completed().contains(r)) missing.push_back(r);
    const int already = total - static_cast<int>(missing.size());
    emit opened(store.rows(), already, total);
    emit progress(already, total, -1);
    auto outcome = study::StudyOutcome::completed;
    if (!missing.empty()) {
      outcome = study::runStudy(
          config, missing, threads,
          [&](const study::ReplicateRows& replicate) {
            store.append(replicate);
            emit replicateFinished(replicate.rows);
          },
          [&](const study::StudyProgress& p) {
            const double left = p.done > 0 ? p.elapsedSeconds / p.done * (p.total - p.done) : -1.0;
            emit progress(already + p.done, total, left);
          },
          stop_);
    }
    // Under the folder's lock, from every row on disk: another process may share the folder.
    store.withAllRows([&](const auto& rows) {
      if (!rows.empty()) study::writeStudyOutputs(store.folder(), config, rows);
    });
    emit finished(outcome == study::StudyOutcome::cancelled);
  } catch (const std::exception& e) {
    emit failed(QString::fromStdString(e.what()));
  }
}

}  // namespace dpsynth::ui
