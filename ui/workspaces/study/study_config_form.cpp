#include "ui/workspaces/study/study_config_form.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <cmath>

#include "core/data/csv_writer.h"
#include "core/pipeline/mechanism.h"
#include "core/privacy/neighbours.h"
#include "ui/field_names.h"

namespace dpsynth::ui {
namespace {

namespace study = core::study;

const char* const kGeneratorNames[] = {"beta", "poisson", "negbin", "nbmix"};
const char* const kGeneratorHints[] = {"a, b", "mu", "mu, phi", "w, mu1, phi1, mu2, phi2"};

QString joinNumbers(const std::vector<double>& values) {
  QStringList parts;
  for (double v : values) parts << QString::fromStdString(core::data::formatNumber(v));
  return parts.join(QStringLiteral(", "));
}

/// "5, 4, 3" → {5, 4, 3}; a field that is not a number is reported under `key`.
std::vector<std::optional<double>> parseList(const QString& text, const QString& key,
                                             bool allowAuto, QStringList& problems) {
  std::vector<std::optional<double>> out;
  for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
    const QString t = part.trimmed();
    if (t.isEmpty()) continue;
    if (allowAuto && t == QLatin1String("auto")) {
      out.push_back(std::nullopt);
      continue;
    }
    bool ok = false;
    const double v = t.toDouble(&ok);
    if (!ok || !std::isfinite(v)) {
      problems << QObject::tr("%1: '%2' is not a number").arg(key, t);
      continue;
    }
    out.push_back(v);
  }
  return out;
}

std::vector<double> presentValues(const std::vector<std::optional<double>>& list) {
  std::vector<double> out;
  for (const auto& v : list)
    if (v) out.push_back(*v);
  return out;
}

QSpinBox* formSpin(int min, int max) {
  auto* box = new QSpinBox;
  box->setRange(min, max);
  return box;
}

}  // namespace

StudyConfigForm::StudyConfigForm(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);

  auto* sourceGroup = new QGroupBox(tr("Data of each replicate"));
  auto* sourceLayout = new QFormLayout(sourceGroup);
  sourceKind_ = new QComboBox;
  sourceKind_->addItems({tr("Generator"), tr("Bootstrap of a file (internal study)")});
  sourceLayout->addRow(tr("Source"), sourceKind_);
  sourcePages_ = new QStackedWidget;
  auto* genPage = new QWidget;
  auto* genLayout = new QFormLayout(genPage);
  genLayout->setContentsMargins(0, 0, 0, 0);
  generator_ = new QComboBox;
  for (const char* name : kGeneratorNames) generator_->addItem(QString::fromLatin1(name));
  parameters_ = new QLineEdit;
  genLayout->addRow(tr("Generator"), generator_);
  genLayout->addRow(tr("Parameters"), parameters_);
  auto* bootPage = new QWidget;
  auto* bootLayout = new QFormLayout(bootPage);
  bootLayout->setContentsMargins(0, 0, 0, 0);
  bootFile_ = new QLineEdit;
  bootOutcome_ = new QLineEdit;
  bootCovariates_ = new QLineEdit;
  bootCovariates_->setPlaceholderText(tr("comma-separated, may be empty"));
  bootFamily_ = new QComboBox;
  bootFamily_->addItems({"poisson", "negbin", "beta", "normal"});
  bootLayout->addRow(tr("CSV file"), bootFile_);
  bootLayout->addRow(tr("Outcome"), bootOutcome_);
  bootLayout->addRow(tr("Covariates"), bootCovariates_);
  bootLayout->addRow(tr("Family"), bootFamily_);
  sourcePages_->addWidget(genPage);
  sourcePages_->addWidget(bootPage);
  bootPage->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
  sourceLayout->addRow(sourcePages_);
  n_ = formSpin(0, 10'000'000);
  n_->setSpecialValueText(tr("file size"));
  sourceLayout->addRow(tr("Records n"), n_);
  layout->addWidget(sourceGroup);

  auto* gridGroup = new QGroupBox(tr("Grid"));
  auto* gridLayout = new QFormLayout(gridGroup);
  mechanisms_ = new QListWidget;
  mechanisms_->setToolTip(
      tr("Checked mechanisms run in the order listed (a loaded config's "
         "order is kept, so its folder resumes)."));
  mechanisms_->setMaximumHeight(130);
  gridLayout->addRow(tr("Mechanisms"), mechanisms_);
  epsilon_ = new QLineEdit;
  c_ = new QLineEdit;
  g_ = new QLineEdit;
  downscale_ = new QLineEdit;
  downscale_->setPlaceholderText(tr("e.g. 1, auto"));
  gridLayout->addRow(tr("ε values"), epsilon_);
  gridLayout->addRow(tr("c values"), c_);
  gridLayout->addRow(tr("g values"), g_);
  gridLayout->addRow(tr("Downscale"), downscale_);
  neighbours_ = new QComboBox;
  for (auto nb : {core::privacy::Neighbours::replaceOne, core::privacy::Neighbours::addRemove})
    neighbours_->addItem(QString::fromStdString(core::privacy::neighboursName(nb)));
  gridLayout->addRow(tr("Neighbours"), neighbours_);
  layout->addWidget(gridGroup);

  auto* runGroup = new QGroupBox(tr("Replicates and sampler"));
  auto* runLayout = new QFormLayout(runGroup);
  replicates_ = formSpin(1, 1'000'000);
  chains_ = formSpin(1, 64);
  warmup_ = formSpin(0, 100'000);
  draws_ = formSpin(1, 100'000);
  seed_ = new QLineEdit;
  runLayout->addRow(tr("Replicates R"), replicates_);
  runLayout->addRow(tr("Chains"), chains_);
  runLayout->addRow(tr("Warm-up"), warmup_);
  runLayout->addRow(tr("Draws"), draws_);
  runLayout->addRow(tr("Seed"), seed_);
  phLower_ = new QLineEdit;
  phLower_->setObjectName(QStringLiteral("studyPhLower"));
  phUpper_ = new QLineEdit;
  phLower_->setPlaceholderText(tr("public bound (beta: 0)"));
  phUpper_->setPlaceholderText(tr("public bound (beta: 1)"));
  phBins_ = formSpin(0, 100'000);
  phBins_->setSpecialValueText(tr("√n"));
  runLayout->addRow(tr("PH lower"), phLower_);
  runLayout->addRow(tr("PH upper"), phUpper_);
  runLayout->addRow(tr("PH bins"), phBins_);
  layout->addWidget(runGroup);

  messages_ = new QLabel;
  messages_->setWordWrap(true);
  messages_->setObjectName(QStringLiteral("studyConfigMessages"));
  messages_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(messages_);
  layout->addStretch(1);

  auto changedSlot = [this] { refresh(); };
  connect(sourceKind_, &QComboBox::currentIndexChanged, this, [this](int index) {
    // The hidden page does not take room (a stack is as tall as its tallest page otherwise).
    for (int i = 0; i < sourcePages_->count(); ++i)
      sourcePages_->widget(i)->setSizePolicy(
          i == index ? QSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred)
                     : QSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored));
    sourcePages_->setCurrentIndex(index);
  });
  connect(generator_, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (i >= 0) parameters_->setPlaceholderText(QString::fromLatin1(kGeneratorHints[i]));
  });
  for (auto* box : {sourceKind_, generator_, bootFamily_, neighbours_})
    connect(box, &QComboBox::currentIndexChanged, this, changedSlot);
  for (auto* edit : {parameters_, bootFile_, bootOutcome_, bootCovariates_, epsilon_, c_, g_,
                     downscale_, phLower_, phUpper_, seed_})
    connect(edit, &QLineEdit::textChanged, this, changedSlot);
  for (auto* box : {n_, replicates_, chains_, warmup_, draws_, phBins_})
    connect(box, &QSpinBox::valueChanged, this, changedSlot);
  connect(mechanisms_, &QListWidget::itemChanged, this, changedSlot);

  study::StudyConfig defaults;
  defaults.source.generator = study::Generator::parse("beta(0.5,3)");
  defaults.source.n = 200;
  defaults.mechanisms = {core::pipeline::Mechanism::lw, core::pipeline::Mechanism::censorUw};
  defaults.epsilon = {4};
  defaults.replicates = 10;
  setConfig(defaults);
}

void StudyConfigForm::setConfig(const study::StudyConfig& config) {
  filling_ = true;
  note_ = config.note;
  const auto& source = config.source;
  sourceKind_->setCurrentIndex(source.bootstrap ? 1 : 0);
  if (source.generator) {
    generator_->setCurrentIndex(static_cast<int>(source.generator->kind));
    parameters_->setText(joinNumbers(source.generator->parameters));
  }
  if (source.bootstrap) {
    bootFile_->setText(QString::fromStdString(source.bootstrap->file));
    bootOutcome_->setText(QString::fromStdString(source.bootstrap->outcome));
    QStringList covariates;
    for (const auto& c : source.bootstrap->covariates) covariates << QString::fromStdString(c);
    bootCovariates_->setText(covariates.join(QStringLiteral(", ")));
    bootFamily_->setCurrentText(
        QString::fromStdString(core::models::familyName(source.bootstrap->family)));
  }
  n_->setValue(static_cast<int>(source.n));
  // The config's mechanisms first, in its order (the order is part of the study's identity:
  // a reordered list would be another study to the folder), then the others unchecked.
  mechanisms_->clear();
  std::vector<core::pipeline::Mechanism> order = config.mechanisms;
  for (auto m : core::pipeline::allMechanisms())
    if (std::find(order.begin(), order.end(), m) == order.end()) order.push_back(m);
  for (std::size_t i = 0; i < order.size(); ++i) {
    auto* item =
        new QListWidgetItem(QString::fromStdString(core::pipeline::mechanismName(order[i])));
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(i < config.mechanisms.size() ? Qt::Checked : Qt::Unchecked);
    item->setData(Qt::UserRole, static_cast<int>(order[i]));
    item->setToolTip(mechanismTooltip(order[i]));
    mechanisms_->addItem(item);
  }
  epsilon_->setText(joinNumbers(config.epsilon));
  c_->setText(joinNumbers(config.tuning.c));
  g_->setText(joinNumbers(config.tuning.g));
  QStringList downscale;
  for (const auto& d : config.tuning.downscale)
    downscale << (d ? QString::fromStdString(core::data::formatNumber(*d))
                    : QStringLiteral("auto"));
  downscale_->setText(downscale.join(QStringLiteral(", ")));
  neighbours_->setCurrentText(
      QString::fromStdString(core::privacy::neighboursName(config.neighbours)));
  replicates_->setValue(config.replicates);
  chains_->setValue(config.sampler.chains);
  warmup_->setValue(config.sampler.warmup);
  draws_->setValue(config.sampler.draws);
  seed_->setText(QString::number(config.seed));
  const auto bound = [](const std::optional<double>& v) {
    return v ? QString::fromStdString(core::data::formatNumber(*v)) : QString();
  };
  phLower_->setText(bound(config.histogram.lower));
  phUpper_->setText(bound(config.histogram.upper));
  phBins_->setValue(config.histogram.bins);
  filling_ = false;
  refresh();
}

void StudyConfigForm::setBootstrap(const study::Bootstrap& bootstrap,
                                   const std::function<void(study::StudyConfig&)>& adopt) {
  QStringList ignored;  // the fields' problems stay listed under the form
  study::StudyConfig config = read(ignored);
  if (adopt) adopt(config);
  config.source.generator.reset();
  config.source.bootstrap = bootstrap;
  config.source.n = 0;
  setConfig(config);
}

study::StudyConfig StudyConfigForm::read(QStringList& problems) const {
  study::StudyConfig config;
  config.note = note_;
  if (sourceKind_->currentIndex() == 0) {
    const QString spelling =
        QStringLiteral("%1(%2)").arg(generator_->currentText(), parameters_->text());
    try {
      config.source.generator = study::Generator::parse(spelling.toStdString());
    } catch (const std::exception& e) {
      problems << tr("source.generator: %1").arg(QString::fromStdString(e.what()));
    }
  } else {
    study::Bootstrap boot;
    boot.file = bootFile_->text().trimmed().toStdString();
    boot.outcome = bootOutcome_->text().trimmed().toStdString();
    for (const QString& c : bootCovariates_->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
      if (!c.trimmed().isEmpty()) boot.covariates.push_back(c.trimmed().toStdString());
    boot.family = core::models::parseFamily(bootFamily_->currentText().toStdString());
    if (boot.file.empty()) problems << tr("source.bootstrap: choose the CSV file to resample");
    if (boot.outcome.empty()) problems << tr("source.outcome: name the outcome column");
    config.source.bootstrap = boot;
  }
  config.source.n = static_cast<std::size_t>(n_->value());
  for (int i = 0; i < mechanisms_->count(); ++i)
    if (mechanisms_->item(i)->checkState() == Qt::Checked)
      config.mechanisms.push_back(
          static_cast<core::pipeline::Mechanism>(mechanisms_->item(i)->data(Qt::UserRole).toInt()));
  config.epsilon =
      presentValues(parseList(epsilon_->text(), QStringLiteral("epsilon"), false, problems));
  config.tuning.c =
      presentValues(parseList(c_->text(), QStringLiteral("tuning.c"), false, problems));
  config.tuning.g =
      presentValues(parseList(g_->text(), QStringLiteral("tuning.g"), false, problems));
  config.tuning.downscale =
      parseList(downscale_->text(), QStringLiteral("tuning.downscale"), true, problems);
  config.neighbours = core::privacy::parseNeighbours(neighbours_->currentText().toStdString());
  config.replicates = replicates_->value();
  config.sampler = {chains_->value(), warmup_->value(), draws_->value()};
  const auto bound = [&](QLineEdit* edit, const QString& key) -> std::optional<double> {
    if (edit->text().trimmed().isEmpty()) return std::nullopt;
    const auto list = parseList(edit->text(), key, false, problems);
    return list.size() == 1 ? list.front() : std::nullopt;
  };
  config.histogram.lower = bound(phLower_, QStringLiteral("ph.lower"));
  config.histogram.upper = bound(phUpper_, QStringLiteral("ph.upper"));
  config.histogram.bins = phBins_->value();
  bool ok = false;
  config.seed = seed_->text().trimmed().toULongLong(&ok);
  if (!ok) problems << tr("seed: '%1' is not a whole number ≥ 0").arg(seed_->text());
  return config;
}

QStringList StudyConfigForm::problems() const {
  QStringList problems;
  const auto config = read(problems);
  for (const auto& p : config.validate()) problems << QString::fromStdString(p);
  return problems;
}

std::optional<study::StudyConfig> StudyConfigForm::config() const {
  QStringList problems;
  auto config = read(problems);
  if (!problems.isEmpty() || !config.validate().empty()) return std::nullopt;
  return config;
}

void StudyConfigForm::refresh() {
  if (filling_) return;
  updateBoundHints();
  const QStringList list = problems();
  if (list.isEmpty()) {
    messages_->setText(tr("The config is valid."));
    messages_->setStyleSheet(QStringLiteral("color: #1a7f37;"));
  } else {
    messages_->setText(QStringLiteral("• ") + list.join(QStringLiteral("\n• ")));
    messages_->setStyleSheet(QStringLiteral("color: #b42318;"));
  }
  emit changed();
}

void StudyConfigForm::updateBoundHints() {
  // The histogram's bounds: the family's natural ones when it has them (beta's [0, 1]), else a
  // public figure the analyst must give; the hint follows the source's family.
  std::optional<core::models::Family> family;
  QStringList ignored;
  const study::StudyConfig config = read(ignored);
  if (config.source.generator || config.source.bootstrap) family = config.family();
  const auto natural = family ? core::pipeline::naturalBounds(*family) : std::nullopt;
  phLower_->setPlaceholderText(natural ? tr("public bound (default %1)").arg(natural->first)
                                       : tr("public bound (required)"));
  phUpper_->setPlaceholderText(natural ? tr("public bound (default %1)").arg(natural->second)
                                       : tr("public bound (required)"));
}

}  // namespace dpsynth::ui
