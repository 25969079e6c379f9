#include "ui/workspaces/study/synthesis_bootstrap.h"

#include <QFileInfo>

#include "ui/document/studio_document.h"

namespace dpsynth::ui {

std::optional<core::study::Bootstrap> studyBootstrapOf(const StudioDocument& data, QString& why) {
  if (!data.hasData()) {
    why = QObject::tr("Load a file in Synthesis first: the study resamples it.");
    return std::nullopt;
  }
  if (!data.dataset()) {
    why = QObject::tr("The synthesis data's choices do not make a dataset: %1")
              .arg(data.dataProblem());
    return std::nullopt;
  }
  QString file = data.source().file;
  if (file.isEmpty() && !data.source().sample.isEmpty()) {
    // A bundled sample: the study reads files, so take the sample's file on disk.
    for (const QString& folder : {QStringLiteral(DPSYNTH_RESOURCES_DIR "/samples"),
                                  QStringLiteral("/usr/share/dpsynth/samples")}) {
      const QString candidate = folder + QLatin1Char('/') + data.source().sample + ".csv";
      if (QFileInfo::exists(candidate)) {
        file = candidate;
        break;
      }
    }
  }
  if (file.isEmpty()) {
    why = QObject::tr("The synthesis data has no file on disk to resample.");
    return std::nullopt;
  }
  const auto& spec = data.settings().dataset;
  core::study::Bootstrap boot;
  boot.file = file.toStdString();
  boot.outcome = spec.outcome;
  boot.covariates = spec.covariates;
  boot.family = spec.family;
  boot.referenceLevels = spec.referenceLevels;  // the design the analyst reads in Synthesis
  return boot;
}

void adoptSynthesisSettings(const StudioDocument& document, core::study::StudyConfig& config) {
  const StudioSettings& s = document.settings();
  if (!s.mechanisms.empty()) config.mechanisms = s.mechanisms;
  if (s.tuning.epsilon) config.epsilon = {*s.tuning.epsilon};
  config.tuning.c = {s.tuning.c};
  config.tuning.g = {s.tuning.g};
  config.tuning.downscale = {s.tuning.downscale};
  config.neighbours = s.run.neighbours;
  config.histogram.lower = s.tuning.lower;
  config.histogram.upper = s.tuning.upper;
  config.histogram.bins = s.tuning.bins;
}

}  // namespace dpsynth::ui
