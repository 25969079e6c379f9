#pragma once
/// The results table in the layout of 002's Table 2: a "confidential" row with the data's own
/// statistics, then one row per mechanism (core::report::resultsTable's rows). DisplayRole is
/// rounded for reading; Qt::UserRole holds the exact value; copy and export write
/// core::report's CSV fields, so an exported table equals results.csv of "Export all".
#include <QAbstractTableModel>
#include <QStringList>
#include <vector>

#include "core/report/results_table.h"

namespace dpsynth::ui {

class ResultsTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    kMechanism,
    kVerdict,  ///< "usable" or "unusable: <reasons>" (core::pipeline::judge), next to the name
    kGuarantee,
    kLipschitz,
    kEpsilon,
    kCensored,
    kMaxEcdf,
    kAvgEcdf,
    kMean,
    kMedian,
    kQ15,
    kQ90,
    /// "marginal only" for mechanisms that ignore the covariates (ph), with a tooltip.
    kMarginalOnly,
    kCiOverlap,         ///< mean 95% CI overlap of the model's GLM coefficients
    kMaxStdDiff,        ///< max |β_syn − β_conf| / se_conf
    kPmse,              ///< pMSE of a logistic propensity model
    kMaxGroupMeanDiff,  ///< max |mean y difference| over levels of categorical covariates
    kColumnCount
  };

  explicit ResultsTableModel(QObject* parent = nullptr);

  /// rows[0] is the "confidential" row; warnings has one list per mechanism row.
  void setResults(const std::vector<core::report::ResultsRow>& rows,
                  const std::vector<QStringList>& warnings);
  void clear();
  /// Results of an earlier run, kept on screen while a new one runs or after a cancel.
  void setStale(bool stale);
  bool isStale() const { return stale_; }
  bool isEmpty() const { return !hasData_; }
  const std::vector<core::report::ResultsRow>& rows() const { return rows_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  /// True when the row's result is unusable (core::pipeline::judge), for views and tests.
  bool isUnusable(int row) const;
  /// True when the row's mechanism ignores the covariates (core::pipeline::marginalOnly).
  bool isMarginalOnly(int row) const;
  /// The tooltip of the marginal-only mark.
  static QString marginalOnlyExplanation();
  /// The column titles shown on screen.
  static QStringList displayHeader();
  /// Tab-separated text for the clipboard (pastes into spreadsheets): core::report's header
  /// and fields.
  QString toTsv() const;
  /// CSV text identical to core::report::writeResultsCsv's.
  std::string toCsv() const;

 private:
  /// Exact value of a cell, or a null QVariant for n/a.
  QVariant exact(int row, int column) const;
  QStringList warningsOf(int row) const;

  std::vector<core::report::ResultsRow> rows_;
  std::vector<QStringList> warnings_;
  bool hasData_ = false;
  bool stale_ = false;
};

/// weighted-e truncated (dropped) the records that had any weight: Δ is 0 because nothing was
/// fitted (shown as such, never as a Δ or ε of 0).
bool allTruncated(const core::report::ResultsRow& row);

}  // namespace dpsynth::ui
