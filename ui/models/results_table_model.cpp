#include "ui/models/results_table_model.h"

#include <QApplication>
#include <QBrush>
#include <QColor>
#include <QFont>
#include <QStyle>

#include "core/data/csv_writer.h"

namespace dpsynth::ui {

bool allTruncated(const core::report::ResultsRow& row) {
  return row.truncated && *row.truncated > 0 && row.lipschitz && *row.lipschitz == 0.0;
}

ResultsTableModel::ResultsTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ResultsTableModel::setResults(const std::vector<core::report::ResultsRow>& rows,
                                   const std::vector<QStringList>& warnings) {
  beginResetModel();
  rows_ = rows;
  warnings_ = warnings;
  hasData_ = true;
  stale_ = false;
  endResetModel();
}

void ResultsTableModel::clear() {
  beginResetModel();
  rows_.clear();
  warnings_.clear();
  hasData_ = false;
  stale_ = false;
  endResetModel();
}

void ResultsTableModel::setStale(bool stale) {
  if (stale_ == stale || !hasData_) return;
  stale_ = stale;
  emit dataChanged(index(0, 0), index(rowCount() - 1, kColumnCount - 1));
}

int ResultsTableModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !hasData_) return 0;
  return static_cast<int>(rows_.size());
}

int ResultsTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant ResultsTableModel::exact(int row, int column) const {
  const auto& r = rows_.at(static_cast<std::size_t>(row));
  const auto optional = [](const std::optional<double>& v) {
    return v ? QVariant(*v) : QVariant();
  };
  switch (column) {
    case kMechanism:
      return QString::fromStdString(r.mechanism);
    case kGuarantee:
      return r.guarantee.empty() ? QVariant() : QString::fromStdString(r.guarantee);
    case kLipschitz:
      return optional(r.lipschitz);
    case kEpsilon:
      return optional(r.epsilon);
    case kCensored:
      if (r.censored) return QVariant::fromValue<qulonglong>(*r.censored);
      if (r.truncated) return QVariant::fromValue<qulonglong>(*r.truncated);
      return {};
    case kMaxEcdf:
      return optional(r.maxEcdf);
    case kAvgEcdf:
      return optional(r.avgEcdf);
    case kMean:
      return r.mean;
    case kMedian:
      return r.median;
    case kQ15:
      return r.q15;
    case kQ90:
      return r.q90;
    case kMarginalOnly:
      return r.marginalOnly ? QVariant(QStringLiteral("marginal only")) : QVariant();
    case kCiOverlap:
      return optional(r.ciOverlap);
    case kMaxStdDiff:
      return optional(r.maxStdDiff);
    case kPmse:
      return optional(r.pmse);
    case kMaxGroupMeanDiff:
      return optional(r.maxGroupMeanDiff);
    case kVerdict:
      if (r.mechanism == "confidential") return {};
      return r.usable ? QStringLiteral("usable") : QStringLiteral("unusable");
    default:
      return {};
  }
}

bool ResultsTableModel::isUnusable(int row) const {
  return hasData_ && row > 0 && row < rowCount() && !rows_[static_cast<std::size_t>(row)].usable;
}

bool ResultsTableModel::isMarginalOnly(int row) const {
  return hasData_ && row > 0 && row < rowCount() &&
         rows_[static_cast<std::size_t>(row)].marginalOnly;
}

QString ResultsTableModel::marginalOnlyExplanation() {
  return tr(
      "Marginal only: this mechanism draws the outcome from a noisy histogram and ignores the "
      "covariates, so its max-ECDF, mean and quantiles can look best while the relation between "
      "the outcome and the covariates is lost. Compare the CI overlap, std. difference, pMSE and "
      "group-mean columns.");
}

QStringList ResultsTableModel::warningsOf(int row) const {
  const auto i = static_cast<std::size_t>(row - 1);
  return row > 0 && i < warnings_.size() ? warnings_[i] : QStringList();
}

QVariant ResultsTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !hasData_) return {};
  const QVariant v = exact(index.row(), index.column());
  const auto& row = rows_.at(static_cast<std::size_t>(index.row()));
  switch (role) {
    case Qt::UserRole:
      return v;
    case Qt::DisplayRole:
      // Every record truncated (weighted-e): nothing was fitted, and Δ = 0, ε = 0 would read as
      // a perfect guarantee.
      if ((index.column() == kLipschitz || index.column() == kEpsilon) && allTruncated(row))
        return tr("– (truncated)");
      if (index.column() == kEpsilon && v.isValid() && row.targetIgnored) {
        // ε is this mechanism's outcome (ε_x = 2Δ), not the target asked for: say so.
        return tr("%1 (target %2 ignored)")
            .arg(QString::number(v.toDouble(), 'g', 4),
                 QString::number(*row.epsilonTarget, 'g', 4));
      }
      if (index.column() == kVerdict && !row.usable) {
        return tr("unusable: %1")
            .arg(QString::fromStdString(row.verdictReasons.empty() ? std::string()
                                                                   : row.verdictReasons.front()));
      }
      if (v.typeId() == QMetaType::Double) {
        const double d = v.toDouble();
        return index.column() == kAvgEcdf || index.column() == kPmse ? QString::number(d, 'g', 3)
                                                                     : QString::number(d, 'g', 4);
      }
      if (index.column() == kCensored && v.isValid()) {
        return QStringLiteral("%1 %2").arg(v.toString(),
                                           rows_[index.row()].censored ? "cens." : "trunc.");
      }
      if (!v.isValid() && index.column() != kMechanism) return QStringLiteral("–");
      return v;
    case Qt::TextAlignmentRole:
      return index.column() <= kGuarantee ? int(Qt::AlignLeft | Qt::AlignVCenter)
                                          : int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
      if (stale_) return QBrush(Qt::gray);
      if (!row.usable && (index.column() == kVerdict || index.column() == kMechanism))
        return QBrush(QColor(0xb0, 0x1c, 0x1c));
      if (row.targetIgnored && index.column() == kEpsilon) return QBrush(QColor(0x8a, 0x5a, 0x00));
      if (row.marginalOnly && index.column() == kMarginalOnly)
        return QBrush(QColor(0x8a, 0x5a, 0x00));
      return {};
    case Qt::FontRole: {
      QFont font;
      font.setItalic(stale_);
      font.setBold(index.row() == 0 || (!row.usable && index.column() == kVerdict));
      return font;
    }
    case Qt::DecorationRole:
      if (index.column() == kMechanism && !row.usable) {
        return QApplication::style()->standardIcon(QStyle::SP_MessageBoxCritical);
      }
      if (index.column() == kMechanism && !warningsOf(index.row()).isEmpty()) {
        return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
      }
      return {};
    case Qt::ToolTipRole:
      if ((index.column() == kLipschitz || index.column() == kEpsilon) && allTruncated(row))
        return tr(
            "Δ is 0 only because the records were truncated (their bounds exceeded ε/2) "
            "and dropped: nothing was fitted, so there is no Δ or ε to state, and the "
            "output is unusable.");
      if (index.column() == kVerdict && !row.usable) {
        QStringList reasons;
        for (const auto& r : row.verdictReasons) reasons << QString::fromStdString(r);
        return reasons.join('\n');
      }
      if (row.marginalOnly && (index.column() == kMarginalOnly || index.column() == kMechanism ||
                               (index.column() >= kMaxEcdf && index.column() <= kQ90))) {
        return marginalOnlyExplanation();
      }
      if (index.column() == kEpsilon && row.targetIgnored) {
        QString tip = tr("%1 does not use the ε target: its ε_x = 2Δ is an outcome of the fit")
                          .arg(QString::fromStdString(row.mechanism));
        if (row.epsilon && row.epsilonTarget && *row.epsilon > *row.epsilonTarget) {
          tip += tr(", here above the %1 asked for. A usable verdict speaks of utility only.")
                     .arg(QString::number(*row.epsilonTarget, 'g', 4));
        }
        return tip;
      }
      if (!warningsOf(index.row()).isEmpty()) return warningsOf(index.row()).join('\n');
      if (stale_) return tr("Results of the previous run");
      return {};
    default:
      return {};
  }
}

QVariant ResultsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::DisplayRole) return displayHeader().value(section);
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case kLipschitz:
        return tr("Δ_{α,x} = max_i max_s |α_i f_θs(x_i)| of the final fit");
      case kEpsilon:
        return tr("DP: the ε asked for; aDP: ε_x = 2Δ_{α,x}");
      case kCensored:
        return tr("records censored (censor-*) or truncated (weighted-e)");
      case kMaxEcdf:
        return tr("max over pooled points of |F_conf − F_syn|");
      case kAvgEcdf:
        return tr("mean over pooled points of (F_conf − F_syn)²");
      case kMarginalOnly:
        return marginalOnlyExplanation();
      case kCiOverlap:
        return tr(
            "mean over the coefficients of the model's GLM (fitted to the confidential and to the "
            "synthetic outcomes) of the overlap of their 95% intervals: 1 identical, negative "
            "disjoint; – without covariates");
      case kMaxStdDiff:
        return tr("max over the coefficients of |β_syn − β_conf| / se_conf");
      case kPmse:
        return tr(
            "pMSE: mean (p̂ − c)² of a logistic propensity model (intercept, y, covariates and "
            "y × each covariate) telling synthetic from confidential rows; 0 = indistinguishable");
      case kMaxGroupMeanDiff:
        return tr(
            "largest |mean y (confidential) − mean y (synthetic)| in a level of a "
            "categorical covariate");
      case kVerdict:
        return tr(
            "Utility, not privacy: unusable when more than half of the records are censored or "
            "truncated, the synthetic mean is far from the data's, or the fit did not converge. "
            "The guarantee and ε columns say what is promised.");
      default:
        return {};
    }
  }
  return {};
}

QStringList ResultsTableModel::displayHeader() {
  return {"mechanism",  "verdict",    "guarantee",  "Δ",      "ε",          "#cens/#trunc",
          "max-ECDF",   "avg-ECDF",   "mean",       "median", "q15",        "q90",
          "covariates", "CI overlap", "std. diff.", "pMSE",   "group Δmean"};
}

QString ResultsTableModel::toTsv() const {
  QString text;
  QStringList line;
  for (const auto& h : core::report::resultsHeader()) line << QString::fromStdString(h);
  text += line.join('\t') + '\n';
  for (const auto& row : core::report::resultsCsvRows(rows_)) {
    line.clear();
    for (const auto& cell : row) line << QString::fromStdString(cell);
    text += line.join('\t') + '\n';
  }
  return text;
}

std::string ResultsTableModel::toCsv() const {
  return core::data::formatCsv(core::report::resultsHeader(), core::report::resultsCsvRows(rows_));
}

}  // namespace dpsynth::ui
