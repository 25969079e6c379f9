#include "ui/workspaces/inference/analysis_release.h"

#include <QObject>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <variant>

#include "core/data/regular_file.h"
#include "core/infer/naive_bayes_marginals.h"

namespace dpsynth::ui {
namespace {

namespace infer = core::infer;

/// The fields every release kind fills alike; acceptanceBound is the Laplace releases' e^−ε
/// (the histogram's own bound replaces it).
template <class Release>
AnalysisRelease commonFields(const Release& release, const QString& file, const QString& kind,
                             const QString& mechanism) {
  AnalysisRelease a;
  a.file = file;
  a.kind = kind;
  a.mechanism = mechanism;
  a.epsilon = release.epsilon;
  a.acceptanceBound = std::exp(-release.epsilon);
  a.neighbours = QString::fromStdString(core::privacy::neighboursName(release.neighbours));
  a.n = release.n;
  a.notForRelease = release.notForRelease;
  return a;
}

/// The column of `data` whose values are all class labels (and that is no feature), or npos.
std::size_t findClassColumn(const core::data::CsvTable& data, const infer::NaiveBayesLayout& l) {
  for (std::size_t c = 0; c < data.header.size(); ++c) {
    if (std::find(l.features.begin(), l.features.end(), data.header[c]) != l.features.end()) {
      continue;
    }
    bool all = !data.rows.empty();
    for (std::size_t r = 0; all && r < data.rows.size(); ++r) {
      const std::string value(data.rows[r][c]);
      all = std::find(l.classes.begin(), l.classes.end(), value) != l.classes.end();
    }
    if (all) return c;
  }
  return std::string::npos;
}

int codeOf(const std::vector<std::string>& levels, const std::string& value) {
  const auto it = std::find(levels.begin(), levels.end(), value);
  return it == levels.end() ? -1 : static_cast<int>(it - levels.begin());
}

/// Exact class×feature counts of `data` when it holds the release's layout: a class column and
/// every feature column, every value a declared level. Nullopt otherwise.
std::optional<Eigen::VectorXd> exactCounts(const core::data::CsvTable& data,
                                           const infer::NaiveBayesLayout& l, QString* source) {
  const std::size_t classColumn = findClassColumn(data, l);
  if (classColumn == std::string::npos) return std::nullopt;
  std::vector<std::size_t> columns;
  for (const auto& f : l.features) {
    const auto it = std::find(data.header.begin(), data.header.end(), f);
    if (it == data.header.end()) return std::nullopt;
    columns.push_back(static_cast<std::size_t>(it - data.header.begin()));
  }
  infer::CodedRecords records(columns.size() + 1);
  records.reserve(data.rows.size());
  for (std::size_t r = 0; r < data.rows.size(); ++r) {
    const auto& row = data.rows[r];
    records.push(codeOf(l.classes, std::string(row[classColumn])));
    for (std::size_t k = 0; k < columns.size(); ++k) {
      const int code = codeOf(l.levels[k], std::string(row[columns[k]]));
      if (code < 0) return std::nullopt;
      records.push(code);
    }
  }
  if (source) {
    *source = QStringLiteral("%1, class %2")
                  .arg(QString::fromStdString(data.file).section(QLatin1Char('/'), -1),
                       QString::fromStdString(data.header[classColumn]));
  }
  return infer::naiveBayesCounts(l, records);
}

}  // namespace

AnalysisRelease analysisRelease(const infer::NaiveBayesRelease& release, const QString& file) {
  AnalysisRelease a =
      commonFields(release, file, QStringLiteral("naive-bayes"),
                   QStringLiteral("discrete Laplace on class×feature counts, scale %1")
                       .arg(release.laplaceScale(), 0, 'g', 4));
  const infer::NaiveBayesLayout& l = release.layout;
  QStringList classes;
  for (const auto& c : l.classes) classes << QString::fromStdString(c);
  a.layout << QStringLiteral("classes (%1): %2").arg(l.classCount()).arg(classes.join(", "));
  for (int k = 0; k < l.featureCount(); ++k) {
    QStringList levels;
    for (const auto& v : l.levels[static_cast<std::size_t>(k)]) levels << QString::fromStdString(v);
    a.layout << QStringLiteral("feature %1 (%2): %3")
                    .arg(QString::fromStdString(l.features[static_cast<std::size_t>(k)]))
                    .arg(l.levelCount(k))
                    .arg(levels.join(", "));
  }
  auto model = std::make_shared<const infer::NaiveBayesModel>(release.model());
  a.model = model;
  a.prior = [model](int p, double x) {
    return infer::naiveBayesPriorMarginal(*model, p).density(x);
  };
  a.confidential = [model](const core::data::CsvTable& data, QString* source) -> ParameterDensity {
    const auto counts = exactCounts(data, model->layout(), source);
    if (!counts) return {};
    return [model, counts = *counts](int p, double x) {
      return infer::naiveBayesMarginal(*model, counts, p).density(x);
    };
  };
  return a;
}

namespace {

double normalDensity(double x, double mean, double sd) {
  const double z = (x - mean) / sd;
  return std::exp(-0.5 * z * z) / (sd * std::sqrt(2.0 * std::numbers::pi));
}

/// The raw records (predictors, then outcome) of `data` when it has every column of the layout
/// and every value there is a number; nullopt otherwise.
std::optional<std::vector<std::vector<double>>> linregRecords(const core::data::CsvTable& data,
                                                              const infer::LinregLayout& l) {
  std::vector<std::string> names = l.predictors;
  names.push_back(l.outcome);
  std::vector<std::size_t> columns;
  for (const auto& name : names) {
    const auto it = std::find(data.header.begin(), data.header.end(), name);
    if (it == data.header.end()) return std::nullopt;
    columns.push_back(static_cast<std::size_t>(it - data.header.begin()));
  }
  std::vector<std::vector<double>> records;
  for (std::size_t r = 0; r < data.rows.size(); ++r) {
    const auto row = data.rows[r];
    std::vector<double> values;
    for (std::size_t c : columns) {
      bool ok = false;
      const double v = QString::fromStdString(std::string(row[c])).toDouble(&ok);
      if (!ok || !std::isfinite(v)) return std::nullopt;
      values.push_back(v);
    }
    records.push_back(std::move(values));
  }
  if (records.empty()) return std::nullopt;
  return records;
}

}  // namespace

AnalysisRelease analysisRelease(const infer::LinregRelease& release, const QString& file) {
  AnalysisRelease a =
      commonFields(release, file, QStringLiteral("linreg"),
                   QStringLiteral("discrete Laplace on clamped, normalised sums, scale %1")
                       .arg(release.laplaceScale(), 0, 'g', 4));
  const infer::LinregLayout& l = release.layout;
  for (int j = 0; j < l.predictorCount(); ++j) {
    const auto k = static_cast<std::size_t>(j);
    a.layout << QStringLiteral("predictor %1 in [%2, %3], N(%4, %5²) assumed")
                    .arg(QString::fromStdString(l.predictors[k]))
                    .arg(l.lower[k])
                    .arg(l.upper[k])
                    .arg(release.spec.predictorMeans[k])
                    .arg(release.spec.predictorSds[k]);
  }
  a.layout << QStringLiteral("outcome %1 in [%2, %3], σ = %4 assumed, prior β ~ N(0, %5²)")
                  .arg(QString::fromStdString(l.outcome))
                  .arg(l.outcomeLower)
                  .arg(l.outcomeUpper)
                  .arg(release.spec.sigma)
                  .arg(release.spec.priorSd);
  auto model = std::make_shared<const infer::LinregModel>(release.model());
  a.model = model;
  a.lower = a.upper = std::numeric_limits<double>::quiet_NaN();
  const double tau = release.spec.priorSd;
  a.prior = [tau](int, double x) { return normalDensity(x, 0.0, tau); };
  a.confidential = [model, l](const core::data::CsvTable& data,
                              QString* source) -> ParameterDensity {
    const auto records = linregRecords(data, l);
    if (!records) return {};
    Eigen::VectorXd T = Eigen::VectorXd::Zero(model->statisticDim());
    std::vector<double> record(static_cast<std::size_t>(model->recordWidth()));
    for (const auto& raw : *records) {
      std::copy(raw.begin(), raw.end(), record.begin());
      model->completeRecord(record.data());
      model->addStatistic(record.data(), T);
    }
    Eigen::VectorXd mean;
    Eigen::MatrixXd covariance;
    model->conjugatePosterior(T, mean, covariance);
    if (source)
      *source = QStringLiteral("%1, outcome %2")
                    .arg(QString::fromStdString(data.file).section(QLatin1Char('/'), -1),
                         QString::fromStdString(l.outcome));
    return [mean, covariance](int p, double x) {
      return normalDensity(x, mean[p], std::sqrt(covariance(p, p)));
    };
  };
  return a;
}

AnalysisRelease analysisRelease(const infer::PhReleaseFile& release, const QString& file) {
  if (!release.synthesizerFamily)
    throw std::invalid_argument(file.toStdString() +
                                ": the ph release names no synthesizer family; analyse it with "
                                "dpsynth infer --family");
  AnalysisRelease a = commonFields(
      release, file, QStringLiteral("ph"),
      QStringLiteral("perturbed histogram, discrete Laplace on %1 bin counts").arg(release.bins));
  a.acceptanceBound = release.acceptanceBound();
  a.layout << QStringLiteral("bins: %1 on [%2, %3]%4")
                  .arg(release.bins)
                  .arg(release.lower)
                  .arg(release.upper)
                  .arg(release.integer ? QStringLiteral(", integer values") : QString());
  a.layout << QStringLiteral("latent records: family %1, intercept only, priors of SPEC §2")
                  .arg(
                      QString::fromStdString(core::models::familyName(*release.synthesizerFamily)));
  a.model = std::make_shared<const infer::PhModel>(release, *release.synthesizerFamily);
  a.lower = a.upper = std::numeric_limits<double>::quiet_NaN();
  return a;
}

AnalysisRelease openAnalysisRelease(const QString& path) {
  const std::string file = path.toStdString();
  const infer::AnyRelease release = infer::readAnyRelease(core::data::readRegularFile(file), file);
  return std::visit([&](const auto& r) { return analysisRelease(r, path); }, release);
}

}  // namespace dpsynth::ui
