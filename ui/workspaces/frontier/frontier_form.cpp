#include "ui/workspaces/frontier/frontier_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

#include "core/study/frontier.h"

namespace dpsynth::ui {
namespace {

namespace pipeline = core::pipeline;

QString frontierListText(const std::vector<double>& values) {
  QStringList parts;
  for (double v : values) parts << QString::number(v, 'g', 6);
  return parts.join(QStringLiteral(", "));
}

QSpinBox* frontierSpin(int lo, int hi, int value, QWidget* parent) {
  auto* box = new QSpinBox(parent);
  box->setRange(lo, hi);
  box->setValue(value);
  return box;
}

}  // namespace

std::vector<double> FrontierForm::logGrid(double lo, double hi, int n) {
  std::vector<double> out;
  for (int i = 0; i < n; ++i) {
    const double t = n > 1 ? static_cast<double>(i) / (n - 1) : 0.0;
    const double v = lo * std::pow(hi / lo, t);
    out.push_back(std::round(v * 100) / 100);  // the synthesis panel's ε has 2 decimals
  }
  return out;
}

std::optional<std::vector<std::optional<double>>> FrontierForm::parseList(const QString& text,
                                                                         bool allowAuto) {
  std::vector<std::optional<double>> out;
  static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
  for (const QString& field : text.split(separators, Qt::SkipEmptyParts)) {
    if (allowAuto && field.compare(QLatin1String("auto"), Qt::CaseInsensitive) == 0) {
      out.push_back(std::nullopt);
      continue;
    }
    bool ok = false;
    const double v = field.toDouble(&ok);
    if (!ok || !std::isfinite(v)) return std::nullopt;
    out.push_back(v);
  }
  return out;
}

FrontierForm::FrontierForm(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);

  auto* mechanisms = new QGroupBox(tr("Mechanisms"), this);
  auto* grid = new QGridLayout(mechanisms);
  int i = 0;
  for (pipeline::Mechanism m : pipeline::allMechanisms()) {
    auto* box = new QCheckBox(QString::fromStdString(pipeline::mechanismName(m)), mechanisms);
    box->setObjectName(QStringLiteral("frontierMechanism_") +
                       QString::fromStdString(pipeline::mechanismName(m)));
    box->setToolTip(QString::fromStdString(pipeline::mechanismDescription(m)));
    boxes_[m] = box;
    grid->addWidget(box, i / 2, i % 2);
    ++i;
  }
  // ph is left out by default: it needs public bounds (PH lower/upper in Synthesis).
  setMechanisms({pipeline::Mechanism::lw, pipeline::Mechanism::lwFinal,
                 pipeline::Mechanism::censorUw, pipeline::Mechanism::censorW});
  layout->addWidget(mechanisms);

  auto* sweep = new QGroupBox(tr("Sweep"), this);
  auto* form = new QFormLayout(sweep);
  epsilon_ = new QLineEdit(frontierListText(logGrid(0.25, 16, 8)), sweep);
  epsilon_->setObjectName(QStringLiteral("frontierEpsilon"));
  epsilon_->setToolTip(tr("ε targets (comma separated). Mechanisms whose ε is an outcome (lw, "
                          "lw-final, …) are placed at their ε_x instead."));
  form->addRow(tr("ε grid"), epsilon_);
  c_ = new QLineEdit(sweep);
  g_ = new QLineEdit(sweep);
  downscale_ = new QLineEdit(sweep);
  c_->setPlaceholderText(tr("as in Synthesis"));
  g_->setPlaceholderText(tr("as in Synthesis"));
  downscale_->setPlaceholderText(tr("as in Synthesis"));
  downscale_->setToolTip(tr("Numbers or \"auto\"; used by weighted-e and censor-w."));
  form->addRow(tr("c values"), c_);
  form->addRow(tr("g values"), g_);
  form->addRow(tr("downscale values"), downscale_);
  replicates_ = frontierSpin(1, 10000, 20, sweep);
  replicates_->setObjectName(QStringLiteral("frontierReplicates"));
  form->addRow(tr("replicates R"), replicates_);
  measure_ = new QComboBox(sweep);
  measure_->setObjectName(QStringLiteral("frontierMeasure"));
  for (const auto& m : core::study::frontierMeasures()) measure_->addItem(QString::fromStdString(m));
  measure_->setToolTip(tr("Utility measure on the vertical axis (lower is closer to the data, "
                          "except ci_overlap where higher is better)."));
  form->addRow(tr("utility measure"), measure_);
  connect(measure_, &QComboBox::currentTextChanged, this, &FrontierForm::measureChanged);
  layout->addWidget(sweep);

  auto* sampler = new QGroupBox(tr("Sampler (per replicate)"), this);
  auto* sform = new QFormLayout(sampler);
  chains_ = frontierSpin(1, 64, 2, sampler);
  warmup_ = frontierSpin(10, 100000, 200, sampler);
  draws_ = frontierSpin(10, 100000, 200, sampler);
  seed_ = frontierSpin(0, 2147483647, 1, sampler);
  seed_->setToolTip(tr("Seed of the study: replicate r uses replicateSeed(seed, r)."));
  sform->addRow(tr("chains"), chains_);
  sform->addRow(tr("warm-up"), warmup_);
  sform->addRow(tr("draws"), draws_);
  sform->addRow(tr("study seed"), seed_);
  layout->addWidget(sampler);
  layout->addStretch(1);
}

std::vector<pipeline::Mechanism> FrontierForm::mechanisms() const {
  std::vector<pipeline::Mechanism> out;
  for (pipeline::Mechanism m : pipeline::allMechanisms())
    if (boxes_.at(m)->isChecked()) out.push_back(m);
  return out;
}

void FrontierForm::setMechanisms(const std::vector<pipeline::Mechanism>& mechanisms) {
  for (auto& [m, box] : boxes_)
    box->setChecked(std::find(mechanisms.begin(), mechanisms.end(), m) != mechanisms.end());
}

QString FrontierForm::measure() const { return measure_->currentText(); }
void FrontierForm::setMeasure(const QString& measure) { measure_->setCurrentText(measure); }

void FrontierForm::setSampler(const core::mcmc::NutsConfig& nuts) {
  chains_->setValue(nuts.chains);
  warmup_->setValue(nuts.warmup);
  draws_->setValue(nuts.draws);
}

void FrontierForm::setTuning(const pipeline::MechanismConfig& tuning) { tuning_ = tuning; }

core::study::StudyConfig FrontierForm::config(const core::study::Bootstrap& bootstrap,
                                              core::privacy::Neighbours neighbours,
                                              std::vector<std::string>* problems) const {
  core::study::StudyConfig c;
  c.source.bootstrap = bootstrap;
  c.mechanisms = mechanisms();
  c.neighbours = neighbours;
  c.replicates = replicates_->value();
  c.sampler = {chains_->value(), warmup_->value(), draws_->value()};
  c.seed = static_cast<std::uint64_t>(seed_->value());
  c.histogram.lower = tuning_.lower;
  c.histogram.upper = tuning_.upper;
  c.histogram.bins = tuning_.bins;
  c.note = "frontier: bootstrap replicates of the loaded data (internal study, not a release)";
  std::vector<std::string> bad;
  const auto numbers = [&](QLineEdit* edit, const char* name, double fallback) {
    std::vector<double> out;
    const auto list = parseList(edit->text());
    if (!list) {
      bad.push_back(std::string(name) + ": not a list of numbers");
      return std::vector<double>{fallback};
    }
    for (const auto& v : *list) out.push_back(*v);
    return out.empty() ? std::vector<double>{fallback} : out;
  };
  const auto eps = parseList(epsilon_->text());
  if (!eps || eps->empty()) {
    bad.push_back("ε grid: give at least one positive number");
  } else {
    for (const auto& v : *eps) c.epsilon.push_back(*v);
  }
  c.tuning.c = numbers(c_, "c values", tuning_.c);
  c.tuning.g = numbers(g_, "g values", tuning_.g);
  const auto d = parseList(downscale_->text(), true);
  if (!d) {
    bad.push_back("downscale values: numbers or \"auto\"");
  } else if (d->empty()) {
    c.tuning.downscale = {tuning_.downscale};
  } else {
    c.tuning.downscale = *d;
  }
  if (c.mechanisms.empty()) bad.push_back("mechanisms: check at least one");
  for (const auto& p : c.validate())
    bad.push_back(p.rfind("ph.lower, ph.upper", 0) == 0
                      ? "ph needs public bounds: set PH lower and upper in Synthesis"
                      : p);
  if (problems) *problems = bad;
  return c;
}

}  // namespace dpsynth::ui
