#include "ui/controllers/data_fit_check.h"

#include "ui/document/studio_document.h"
#include "ui/panels/mechanism_panel.h"
#include "ui/panels/tuning_panel.h"
#include "ui/widgets/tuning_field.h"

namespace dpsynth::ui {

namespace pipeline = core::pipeline;
using core::models::Family;

namespace {

QString number(double v) { return QString::number(v, 'g', 6); }

void add(DataFitWarnings& w, const QString& key, const QString& text) {
  QString& slot = w.fields[key];
  slot = slot.isEmpty() ? text : slot + QStringLiteral("\n") + text;
}

}  // namespace

DataFitWarnings checkDataFit(const pipeline::MechanismConfig& tuning, Family family,
                             const core::data::Dataset* dataset) {
  DataFitWarnings w;
  const auto& lower = tuning.lower;
  const auto& upper = tuning.upper;
  if (lower && upper && !(*lower < *upper)) {
    add(w, QStringLiteral("lower"),
        QObject::tr("PH lower (%1) must be below PH upper (%2).")
            .arg(number(*lower), number(*upper)));
    add(w, QStringLiteral("upper"),
        QObject::tr("PH upper (%1) must be above PH lower (%2).")
            .arg(number(*upper), number(*lower)));
  }
  // The family's support.
  if (family == Family::beta) {
    if (lower && (*lower < 0 || *lower >= 1))
      add(w, QStringLiteral("lower"),
          QObject::tr("PH lower %1 lies outside the beta family's support (0, 1).")
              .arg(number(*lower)));
    if (upper && (*upper > 1 || *upper <= 0))
      add(w, QStringLiteral("upper"),
          QObject::tr("PH upper %1 lies outside the beta family's support (0, 1).")
              .arg(number(*upper)));
  } else if (core::models::isCountFamily(family)) {
    if (lower && *lower < 0)
      add(w, QStringLiteral("lower"),
          QObject::tr("PH lower %1 is below 0, outside the support of a count family: synthetic "
                      "counts could be negative.")
              .arg(number(*lower)));
    if (upper && *upper <= 0)
      add(w, QStringLiteral("upper"),
          QObject::tr("PH upper %1 is not above 0: a count family's values are 0, 1, 2, …")
              .arg(number(*upper)));
  }
  // The outcome's range: values outside [a, b] are clamped to the bound and pile up there.
  if (dataset && dataset->y.size() > 0) {
    const double ymin = dataset->y.minCoeff();
    const double ymax = dataset->y.maxCoeff();
    if (lower && *lower > ymin)
      add(w, QStringLiteral("lower"),
          QObject::tr("PH lower %1 is above the smallest outcome value (%2): smaller values are "
                      "clamped to it and pile up at the bound.")
              .arg(number(*lower), number(ymin)));
    if (upper && *upper < ymax)
      add(w, QStringLiteral("upper"),
          QObject::tr("PH upper %1 is below the largest outcome value (%2): larger values are "
                      "clamped to it and pile up at the bound.")
              .arg(number(*upper), number(ymax)));
    if (!tuning.radiusRelative && tuning.radius > ymax - ymin)
      add(w, QStringLiteral("radius"),
          QObject::tr("CW radius %1 is wider than the outcome's range (%2 to %3): no record is "
                      "isolated and the CW weights carry no information.")
              .arg(number(tuning.radius), number(ymin), number(ymax)));
  }
  // The mechanisms that use a marked field are marked with the same words.
  QStringList ph;
  for (const QString& key : {QStringLiteral("lower"), QStringLiteral("upper")}) {
    if (w.fields.contains(key)) ph << w.fields.value(key);
  }
  if (!ph.isEmpty()) w.mechanisms[pipeline::Mechanism::ph] = ph.join(QLatin1Char('\n'));
  if (w.fields.contains(QStringLiteral("radius"))) {
    for (auto m : {pipeline::Mechanism::cw, pipeline::Mechanism::cwFinal})
      w.mechanisms[m] = w.fields.value(QStringLiteral("radius"));
  }
  return w;
}

DataFitCheck::DataFitCheck(StudioDocument* document, TuningPanel* tuning,
                           MechanismPanel* mechanisms, QObject* parent)
    : QObject(parent), document_(document), tuning_(tuning), mechanisms_(mechanisms) {
  connect(document_, &StudioDocument::changed, this, [this](StudioDocument::Parts parts) {
    if (parts & StudioDocument::kSettingsParts) update();
  });
  update();
}

void DataFitCheck::update() {
  const auto dataset = document_->dataset();
  const StudioSettings& settings = document_->settings();
  warnings_ = checkDataFit(settings.tuning, settings.dataset.family, dataset.get());
  for (const QString& key : tuning_->keys()) {
    if (auto* field = tuning_->field(key)) field->setWarning(warnings_.fields.value(key));
  }
  for (auto m : pipeline::allMechanisms()) {
    const auto it = warnings_.mechanisms.find(m);
    mechanisms_->setWarning(m, it == warnings_.mechanisms.end() ? QString() : it->second);
  }
}

}  // namespace dpsynth::ui
