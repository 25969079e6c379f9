#include "ui/workspaces/frontier/frontier_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <cmath>

#include "core/study/frontier.h"
#include "ui/field_names.h"

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

  // The source comes first: it decides whether the tuning found here is covered by ε.
  auto* data = new QGroupBox(tr("Replicates of"), this);
  auto* dform = new QFormLayout(data);
  source_ = new QComboBox(data);
  source_->setObjectName(QStringLiteral("frontierSource"));
  for (Source s : {Source::reference, Source::generator, Source::confidential})
    source_->addItem(sourceName(s), int(s));
  source_->setItemText(2, tr("confidential (not covered by ε)"));
  source_->setItemData(0,
                       tr("Bootstrap of the reference dataset loaded in Tuning (\"Weights "
                          "from a reference dataset…\"): public data, typed with the data's "
                          "columns."),
                       Qt::ToolTipRole);
  source_->setItemData(1, tr("Values drawn from the generator below: no data at all."),
                       Qt::ToolTipRole);
  source_->setItemData(2,
                       tr("Bootstrap of the data loaded in Synthesis. Tuning on the "
                          "confidential data is not covered by ε: a point loaded from it "
                          "marks the settings, and the release note says so."),
                       Qt::ToolTipRole);
  source_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  source_->setMinimumContentsLength(14);
  dform->addRow(tr("source"), source_);
  generator_ = new QLineEdit(defaultGenerator(family_), data);
  generator_->setObjectName(QStringLiteral("frontierGenerator"));
  generator_->setToolTip(
      tr("<p>beta(a,b), poisson(mu), negbin(mu,phi), nbmix(w,mu1,phi1,mu2,phi2) or "
         "normal(mu,sigma), one outcome without covariates. The default is a fixed guess for "
         "the family.</p><p>Take the parameters from public knowledge (an earlier release, "
         "published tables), never from the confidential data: parameters read off them are a "
         "choice made on the data as well.</p>"));
  dform->addRow(tr("generator"), generator_);
  records_ = frontierSpin(0, 10'000'000, 1000, data);
  records_->setObjectName(QStringLiteral("frontierRecords"));
  records_->setSpecialValueText(tr("as the data"));
  records_->setToolTip(
      tr("Records in each replicate (a generator needs at least 2; for a "
         "bootstrap, 0 = as many as the resampled data has)."));
  dform->addRow(tr("records each"), records_);
  sourceWarning_ = new QLabel(data);
  sourceWarning_->setObjectName(QStringLiteral("frontierSourceWarning"));
  sourceWarning_->setWordWrap(true);
  sourceWarning_->setText(
      tr("Tuning on the confidential data is not covered by ε: a point "
         "loaded from it marks the settings, and the release note says "
         "so."));
  sourceWarning_->setStyleSheet(QStringLiteral("QLabel { color: #8a1c1c; font-weight: bold; }"));
  dform->addRow(sourceWarning_);
  static_cast<QStandardItemModel*>(source_->model())->item(0)->setEnabled(false);
  source_->setCurrentIndex(1);
  connect(source_, &QComboBox::activated, this, [this] { sourceChosen_ = true; });
  connect(source_, &QComboBox::currentIndexChanged, this, [this] {
    showSource();
    emit sourceChanged(source());
  });
  showSource();
  layout->addWidget(data);

  auto* mechanisms = new QGroupBox(tr("Mechanisms"), this);
  auto* grid = new QGridLayout(mechanisms);
  int i = 0;
  for (pipeline::Mechanism m : pipeline::allMechanisms()) {
    auto* box = new QCheckBox(QString::fromStdString(pipeline::mechanismName(m)), mechanisms);
    box->setObjectName(QStringLiteral("frontierMechanism_") +
                       QString::fromStdString(pipeline::mechanismName(m)));
    box->setToolTip(mechanismTooltip(m));
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
  epsilon_->setToolTip(
      tr("ε targets (comma separated). Mechanisms whose ε is an outcome (lw, "
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
  // Words in the list, the column's name (as in results.csv) beside them and as the item's data.
  for (const auto& m : core::study::frontierMeasures()) {
    const QString id = QString::fromStdString(m);
    measure_->addItem(measureTitle(id), id);
    measure_->setItemData(measure_->count() - 1, id, Qt::ToolTipRole);
  }
  // Long names must not widen the form beyond its pane (the source box would be cut).
  measure_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  measure_->setMinimumContentsLength(14);
  measure_->setToolTip(
      tr("Utility measure on the vertical axis (lower is closer to the data, "
         "except CI overlap where higher is better)."));
  form->addRow(tr("utility measure"), measure_);
  connect(measure_, &QComboBox::currentIndexChanged, this,
          [this] { emit measureChanged(measure()); });
  xAxis_ = new QComboBox(sweep);
  xAxis_->setObjectName(QStringLiteral("frontierXAxis"));
  xAxis_->addItem(tr("ε"), int(XAxis::epsilon));
  xAxis_->addItem(tr("attribute CAP − baseline"), int(XAxis::attributeCapGain));
  xAxis_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  xAxis_->setMinimumContentsLength(14);
  xAxis_->setToolTip(
      tr("<p><b>ε</b>: the guarantee's bound (asked for a DP mechanism, ε_x for an aDP one).</p>"
         "<p><b>attribute CAP − baseline</b>: measured on each replicate's first synthetic "
         "dataset, with the covariates as an intruder's keys: how much more often the synthetic "
         "records predict a record's outcome correctly than the overall mode or median does. "
         "Computed from the (replicate's) data itself: internal, never published.</p>"));
  form->addRow(tr("risk axis"), xAxis_);
  connect(xAxis_, &QComboBox::currentIndexChanged, this, [this] { emit xAxisChanged(xAxis()); });
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

QString FrontierForm::defaultGenerator(core::models::Family family) {
  switch (family) {
    case core::models::Family::poisson:
      return QStringLiteral("poisson(10)");
    case core::models::Family::negbin:
      return QStringLiteral("negbin(3,2)");
    case core::models::Family::beta:
      return QStringLiteral("beta(2,5)");
    case core::models::Family::normal:
      return QStringLiteral("normal(0,1)");
  }
  return QStringLiteral("negbin(3,2)");
}

QString FrontierForm::sourceName(Source source) {
  switch (source) {
    case Source::reference:
      return tr("public reference data");
    case Source::generator:
      return tr("generator (public)");
    case Source::confidential:
      return tr("confidential data");
  }
  return {};
}

FrontierForm::Source FrontierForm::source() const {
  return static_cast<Source>(source_->currentData().toInt());
}

void FrontierForm::setSource(Source source) {
  const int index = source_->findData(int(source));
  // As in the list: no reference source without a reference.
  if (!static_cast<QStandardItemModel*>(source_->model())->item(index)->isEnabled()) return;
  sourceChosen_ = true;
  source_->setCurrentIndex(index);
}

void FrontierForm::setReferenceAvailable(bool available, const QString& name) {
  auto* item = static_cast<QStandardItemModel*>(source_->model())->item(0);
  item->setEnabled(available);
  item->setText(available && !name.isEmpty() ? tr("public reference data: %1").arg(name)
                                             : sourceName(Source::reference));
  if (!available && source() == Source::reference) {
    source_->setCurrentIndex(source_->findData(int(Source::generator)));
  } else if (!sourceChosen_) {
    source_->setCurrentIndex(
        source_->findData(int(available ? Source::reference : Source::generator)));
  }
}

void FrontierForm::setFamily(core::models::Family family) {
  if (family == family_) return;
  // The text follows the family while it is the previous family's default (not edited).
  if (generator_->text().trimmed() == defaultGenerator(family_))
    generator_->setText(defaultGenerator(family));
  family_ = family;
}

void FrontierForm::showSource() {
  const Source s = source();
  generator_->setEnabled(s == Source::generator);
  sourceWarning_->setVisible(s == Source::confidential);
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

QString FrontierForm::measure() const { return measure_->currentData().toString(); }
void FrontierForm::setMeasure(const QString& measure) {
  measure_->setCurrentIndex(measure_->findData(measure));
}

FrontierForm::XAxis FrontierForm::xAxis() const {
  return static_cast<XAxis>(xAxis_->currentData().toInt());
}
void FrontierForm::setXAxis(XAxis axis) { xAxis_->setCurrentIndex(xAxis_->findData(int(axis))); }

QString FrontierForm::measureTitle(const QString& id) {
  static const std::pair<const char*, const char*> kTitles[] = {
      {"max_ecdf", QT_TR_NOOP("largest ECDF distance")},
      {"avg_ecdf", QT_TR_NOOP("mean ECDF distance")},
      {"mean", QT_TR_NOOP("synthetic mean")},
      {"median", QT_TR_NOOP("synthetic median")},
      {"q15", QT_TR_NOOP("synthetic 15% quantile")},
      {"q90", QT_TR_NOOP("synthetic 90% quantile")},
      {"ci_overlap", QT_TR_NOOP("regression CI overlap")},
      {"max_std_diff", QT_TR_NOOP("largest std. coefficient difference")},
      {"pmse", QT_TR_NOOP("propensity pMSE")},
      {"max_group_mean_diff", QT_TR_NOOP("largest group mean difference")},
      {"replicated_uniques", QT_TR_NOOP("risk: replicated uniques")},
      {"attribute_cap", QT_TR_NOOP("risk: attribute CAP")},
      {"attribute_cap_baseline", QT_TR_NOOP("risk: attribute CAP baseline")},
      {"dcr_share", QT_TR_NOOP("risk: closer than the data (DCR share)")},
  };
  for (const auto& [key, title] : kTitles)
    if (id == QLatin1String(key)) return tr(title);
  return id;
}

void FrontierForm::setSampler(const core::mcmc::NutsConfig& nuts) {
  chains_->setValue(nuts.chains);
  warmup_->setValue(nuts.warmup);
  draws_->setValue(nuts.draws);
}

void FrontierForm::setTuning(const pipeline::MechanismConfig& tuning) { tuning_ = tuning; }

core::study::StudyConfig FrontierForm::config(
    const std::optional<core::study::Bootstrap>& bootstrap, core::privacy::Neighbours neighbours,
    std::vector<std::string>* problems) const {
  core::study::StudyConfig c;
  std::vector<std::string> bad;
  const Source from = source();
  c.source.n = static_cast<std::size_t>(records_->value());
  if (from == Source::generator) {
    try {
      c.source.generator = core::study::Generator::parse(generator_->text().toStdString());
      if (c.source.generator->family() != family_)
        bad.push_back("generator: " + c.source.generator->spelling() + " draws " +
                      core::models::familyName(c.source.generator->family()) +
                      " data, the family in Synthesis is " + core::models::familyName(family_) +
                      " (e.g. " + defaultGenerator(family_).toStdString() + ")");
    } catch (const std::invalid_argument& e) {
      bad.push_back(std::string("generator: ") + e.what());
    }
    if (c.source.n < 2) bad.push_back("records each: a generator needs at least 2");
    c.note = "frontier: replicates drawn from the generator " + generator_->text().toStdString() +
             " (public; internal study, not a release)";
  } else if (!bootstrap) {
    bad.push_back(from == Source::reference
                      ? "no reference data: load one in Tuning (weights from a reference dataset)"
                      : "no data: load data in Synthesis first");
  } else {
    c.source.bootstrap = bootstrap;
    if (c.source.n == 1) bad.push_back("records each: at least 2 (0 = as the data)");
    c.note = from == Source::reference
                 ? "frontier: bootstrap replicates of the public reference data (internal study, "
                   "not a release)"
                 : "frontier: bootstrap replicates of the confidential data loaded in Synthesis "
                   "(internal study, not a release; tuning on them is not covered by epsilon)";
  }
  const bool sourceProblem = !bad.empty();
  c.mechanisms = mechanisms();
  c.neighbours = neighbours;
  c.replicates = replicates_->value();
  c.sampler = {chains_->value(), warmup_->value(), draws_->value()};
  c.seed = static_cast<std::uint64_t>(seed_->value());
  c.histogram.lower = tuning_.lower;
  c.histogram.upper = tuning_.upper;
  c.histogram.bins = tuning_.bins;
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
  for (const auto& p : c.validate()) {
    if (sourceProblem && p.rfind("source", 0) == 0) continue;  // said above, in the form's words
    bad.push_back(p.rfind("ph.lower, ph.upper", 0) == 0
                      ? "ph needs public bounds: set PH lower and upper in Synthesis"
                      : p);
  }
  if (problems) *problems = bad;
  return c;
}

}  // namespace dpsynth::ui
