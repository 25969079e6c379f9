#pragma once
/// A release as the "Analyze a release" workspace sees it: the header an analyst reads (kind,
/// ε, neighbours, n, layout), the record-additive model the sampler runs, and closed-form
/// reference densities per parameter where the kind has them (the prior, and the posterior of
/// the confidential data when that data is loaded). A new release kind plugs in by filling this
/// value; the workspace itself sees only RecordAdditiveModel, DaResult and DaParameterSummary.
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>

#include "core/data/csv_table.h"
#include "core/infer/any_release.h"
#include "core/infer/record_additive.h"

namespace dpsynth::ui {

/// Density of parameter p at x.
using ParameterDensity = std::function<double(int parameter, double x)>;

struct AnalysisRelease {
  QString file;  ///< as opened or saved
  QString kind;  ///< "naive-bayes", "linreg", "ph"
  QString mechanism;
  double epsilon = 0.0;
  /// The smallest acceptance probability the mechanism allows (drawn as the bound line):
  /// e^{−ε} for the replace-one ε-DP kinds, the ph release's own e^{−2t}.
  double acceptanceBound = 0.0;
  QString neighbours;
  int n = 0;
  QStringList layout;  ///< lines describing the public layout
  bool notForRelease = false;
  std::shared_ptr<const core::infer::RecordAdditiveModel> model;
  /// Range of every parameter (probabilities: [0, 1]); the densities are drawn over it.
  /// Non-finite: the range of the draws (unbounded parameters).
  double lower = 0.0, upper = 1.0;
  ParameterDensity prior;  ///< empty: no closed form
  /// From loaded data of the same layout: the posterior given the exact statistic, and what it
  /// was computed from ("salary.csv, class gender"); empty when the data does not fit.
  std::function<ParameterDensity(const core::data::CsvTable& data, QString* source)> confidential;
};

/// The workspace's view of a naive-Bayes release.
AnalysisRelease analysisRelease(const core::infer::NaiveBayesRelease& release, const QString& file);
/// A linear-regression release (004 §5): normal priors N(0, τ²) on β; the confidential
/// posterior is the conjugate normal of the loaded data's predictor and outcome columns.
AnalysisRelease analysisRelease(const core::infer::LinregRelease& release, const QString& file);
/// A ph release, analysed with the family the file names (the run's synthesizer family); no
/// closed-form references. Throws std::invalid_argument when the file names no family.
AnalysisRelease analysisRelease(const core::infer::PhReleaseFile& release, const QString& file);
/// Reads and parses a release file: throws std::invalid_argument / DataError with the core's
/// message (naming the file) when it cannot be read or is malformed.
AnalysisRelease openAnalysisRelease(const QString& path);

}  // namespace dpsynth::ui
