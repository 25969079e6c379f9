#pragma once
/// Checks, before Run, the settings that must fit the data and the family: PH bounds that lie
/// outside the family's support or do not cover the outcome's range (records are clamped and
/// pile up at a bound), and a CW radius larger than the data's range. Marks the field and the
/// rows of the mechanisms that use it; they still run (these are warnings, not errors).
#include <QMap>
#include <QObject>
#include <QString>
#include <QStringList>
#include <map>

#include "core/data/dataset.h"
#include "core/pipeline/mechanism.h"

namespace dpsynth::ui {

class MechanismPanel;
class StudioDocument;
class TuningPanel;

struct DataFitWarnings {
  QMap<QString, QString> fields;  ///< tuning key ("lower") → what is wrong
  std::map<core::pipeline::Mechanism, QString> mechanisms;
};

/// The warnings for this tuning on this data (dataset may be null: only the family checks).
DataFitWarnings checkDataFit(const core::pipeline::MechanismConfig& tuning,
                             core::models::Family family, const core::data::Dataset* dataset);

class DataFitCheck : public QObject {
  Q_OBJECT

 public:
  /// Re-checks whenever the document's settings or data change.
  DataFitCheck(StudioDocument* document, TuningPanel* tuning, MechanismPanel* mechanisms,
               QObject* parent = nullptr);

  void update();
  const DataFitWarnings& warnings() const { return warnings_; }

 private:
  StudioDocument* document_;
  TuningPanel* tuning_;
  MechanismPanel* mechanisms_;
  DataFitWarnings warnings_;
};

}  // namespace dpsynth::ui
