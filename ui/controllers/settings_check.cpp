#include "ui/controllers/settings_check.h"

#include <map>

#include "ui/field_names.h"
#include "ui/panels/mechanism_panel.h"
#include "ui/panels/tuning_panel.h"
#include "ui/widgets/tuning_field.h"

namespace dpsynth::ui {

namespace pipeline = core::pipeline;

std::vector<MechanismIssue> mechanismIssues(const StudioSettings& settings) {
  std::vector<MechanismIssue> out;
  for (const auto& config : settings.mechanismConfigs()) {
    const QString who = QString::fromStdString(pipeline::mechanismName(config.mechanism));
    for (const auto& problem : config.problems()) {
      out.push_back(
          {config.mechanism, problem, QStringLiteral("%1: %2").arg(who, describeProblem(problem))});
    }
  }
  return out;
}

bool usesReference(pipeline::Mechanism mechanism) {
  return mechanism == pipeline::Mechanism::censorW || mechanism == pipeline::Mechanism::weightedE;
}

RunPlan planRun(const StudioSettings& settings) {
  RunPlan plan;
  plan.settings = settings;
  if (settings.mechanisms.empty()) plan.blocking << QObject::tr("check at least one mechanism");
  for (const auto& p : settings.run.nuts.validate())
    plan.blocking << withFieldNames(QObject::tr("sampler: %1").arg(QString::fromStdString(p)));
  // A reference that does not fit the data stops only the mechanisms that take weights from it;
  // the others run without it.
  const QString referenceProblem =
      settings.referenceProblem.empty()
          ? QString()
          : withFieldNames(QString::fromStdString(settings.referenceProblem));
  if (!referenceProblem.isEmpty()) plan.settings.run.weightReference.reset();
  const auto issues = mechanismIssues(settings);
  plan.settings.mechanisms.clear();
  for (auto m : settings.mechanisms) {
    bool ok = true;
    if (!referenceProblem.isEmpty() && usesReference(m)) {
      plan.skipped << QObject::tr("%1: the reference dataset does not fit the data (%2)")
                          .arg(QString::fromStdString(pipeline::mechanismName(m)),
                               referenceProblem);
      ok = false;
    }
    for (const auto& issue : issues) {
      if (issue.mechanism != m) continue;
      plan.skipped << issue.text;
      ok = false;
    }
    if (ok) plan.settings.mechanisms.push_back(m);
  }
  if (!settings.mechanisms.empty() && plan.settings.mechanisms.empty())
    plan.blocking << plan.skipped;
  return plan;
}

SettingsCheck::SettingsCheck(MechanismPanel* mechanisms, TuningPanel* tuning, QObject* parent)
    : QObject(parent), mechanisms_(mechanisms), tuning_(tuning) {}

void SettingsCheck::check(const StudioSettings& settings) {
  issues_ = mechanismIssues(settings);
  std::map<pipeline::Mechanism, QString> marks;
  std::map<pipeline::SettingField, QStringList> fieldMarks;
  for (const auto& issue : issues_) {
    QString& mark = marks[issue.mechanism];
    mark += (mark.isEmpty() ? QString() : QStringLiteral("; ")) + describeProblem(issue.problem);
    for (auto field : issue.problem.fields) {
      if (!fieldMarks[field].contains(issue.text)) fieldMarks[field] << issue.text;
    }
  }
  if (!settings.referenceProblem.empty()) {
    for (auto m : settings.mechanisms) {
      if (!usesReference(m)) continue;
      QString& mark = marks[m];
      mark += (mark.isEmpty() ? QString() : QStringLiteral("; ")) +
              QObject::tr("the reference dataset does not fit the data: %1")
                  .arg(withFieldNames(QString::fromStdString(settings.referenceProblem)));
    }
  }
  mechanisms_->setProblems(marks);
  for (auto field : pipeline::allSettingFields()) {
    TuningField* widget = tuning_->field(QString::fromStdString(pipeline::settingKey(field)));
    if (!widget) continue;
    const auto it = fieldMarks.find(field);
    widget->setProblem(it == fieldMarks.end() ? QString() : it->second.join(QLatin1Char('\n')));
  }
}

}  // namespace dpsynth::ui
