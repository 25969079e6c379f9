#include "ui/workspaces/inference/analysis_release.h"

#include <algorithm>
#include <optional>

#include "core/data/regular_file.h"
#include "core/infer/naive_bayes_marginals.h"

namespace dpsynth::ui {
namespace {

namespace infer = core::infer;

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
  std::vector<std::vector<int>> records;
  for (std::size_t r = 0; r < data.rows.size(); ++r) {
    const auto row = data.rows[r];
    std::vector<int> codes{codeOf(l.classes, std::string(row[classColumn]))};
    for (std::size_t k = 0; k < columns.size(); ++k) {
      codes.push_back(codeOf(l.levels[k], std::string(row[columns[k]])));
      if (codes.back() < 0) return std::nullopt;
    }
    records.push_back(std::move(codes));
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
  AnalysisRelease a;
  a.file = file;
  a.kind = QStringLiteral("naive-bayes");
  a.mechanism = QStringLiteral("discrete Laplace on class×feature counts, scale %1")
                    .arg(release.laplaceScale(), 0, 'g', 4);
  a.epsilon = release.epsilon;
  a.neighbours = QString::fromStdString(release.neighbours);
  a.n = release.n;
  a.notForRelease = release.notForRelease;
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
  a.prior = [model](int p, double x) { return infer::naiveBayesPriorMarginal(*model, p).density(x); };
  a.confidential = [model](const core::data::CsvTable& data, QString* source) -> ParameterDensity {
    const auto counts = exactCounts(data, model->layout(), source);
    if (!counts) return {};
    return [model, counts = *counts](int p, double x) {
      return infer::naiveBayesMarginal(*model, counts, p).density(x);
    };
  };
  return a;
}

AnalysisRelease openAnalysisRelease(const QString& path) {
  const std::string file = path.toStdString();
  return analysisRelease(infer::releaseFromJson(core::data::readRegularFile(file), file), path);
}

}  // namespace dpsynth::ui
