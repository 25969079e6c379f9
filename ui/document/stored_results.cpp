#include "ui/document/stored_results.h"

#include <algorithm>
#include <cmath>

#include "ui/plots/mechanism_plot_data.h"

namespace dpsynth::ui {

namespace session = core::session;

namespace {

session::ParameterSummary parameterSummary(const QString& name, const std::vector<double>& draws) {
  session::ParameterSummary p;
  p.name = name.toStdString();
  const auto reduced = session::summarize(draws);
  if (reduced.count == 0) return p;
  p.mean = reduced.mean;
  double squares = 0;
  for (double d : draws) squares += (d - p.mean) * (d - p.mean);
  p.sd = draws.size() > 1 ? std::sqrt(squares / double(draws.size() - 1)) : 0.0;
  // Type-7 quantiles; the 2.5% and 97.5% points are interpolated on the sorted draws.
  std::vector<double> sorted = draws;
  std::sort(sorted.begin(), sorted.end());
  const auto at = [&sorted](double q) {
    const double h = q * double(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - double(lo)) * (sorted[hi] - sorted[lo]);
  };
  p.q025 = at(0.025);
  p.median = at(0.5);
  p.q975 = at(0.975);
  return p;
}

QString shortHash(const std::string& sha) {
  return sha.empty() ? QObject::tr("(unknown)") : QString::fromStdString(sha.substr(0, 12));
}

}  // namespace

session::SessionResults storedResultsOf(const RunOutput& output, const QDateTime& finishedAt) {
  session::SessionResults out;
  out.createdAt = finishedAt.toUTC().toString(Qt::ISODate).toStdString();
  out.dataSha256 = output.source.sha256;
  for (const auto& r : output.table) {
    out.rows.push_back({r.mechanism,      r.guarantee,     r.lipschitz,
                        r.epsilon,        r.censored,      r.truncated,
                        r.maxEcdf,        r.avgEcdf,       r.mean,
                        r.median,         r.q15,           r.q90,
                        r.epsilonTarget,  r.targetIgnored, r.usable,
                        r.verdictReasons, r.marginalOnly,  r.ciOverlap,
                        r.maxStdDiff,     r.pmse,          r.maxGroupMeanDiff});
  }
  for (std::size_t i = 0; i < output.plots.size(); ++i) {
    const MechanismPlotData& plot = output.plots[i];
    session::StoredMechanism m;
    m.mechanism = plot.name.toStdString();
    if (i < output.warnings.size()) {
      for (const QString& w : output.warnings[i]) m.warnings.push_back(w.toStdString());
    }
    m.lipschitzMax = plot.lipschitzMax;
    m.lipschitz = session::summarize(plot.deltaPerRecord);
    m.lipschitzBefore = session::summarize(plot.deltaBefore);
    m.weights = session::summarize(plot.weights);
    for (std::size_t j = 0; j < plot.parameterNames.size() && j < plot.parameterDraws.size(); ++j)
      m.parameters.push_back(parameterSummary(plot.parameterNames[j], plot.parameterDraws[j]));
    out.mechanisms.push_back(std::move(m));
  }
  return out;
}

std::vector<core::report::ResultsRow> storedRows(const session::SessionResults& results) {
  std::vector<core::report::ResultsRow> rows;
  for (const auto& r : results.rows) {
    // Named fields: a column added to ResultsRow cannot shift the others. Sessions do not keep
    // the disclosure risk (confidential, per run): those stay none.
    core::report::ResultsRow row;
    row.mechanism = r.mechanism;
    row.guarantee = r.guarantee;
    row.lipschitz = r.lipschitz;
    row.epsilon = r.epsilon;
    row.censored = r.censored;
    row.truncated = r.truncated;
    row.maxEcdf = r.maxEcdf;
    row.avgEcdf = r.avgEcdf;
    row.mean = r.mean;
    row.median = r.median;
    row.q15 = r.q15;
    row.q90 = r.q90;
    row.epsilonTarget = r.epsilonTarget;
    row.targetIgnored = r.targetIgnored;
    row.usable = r.usable;
    row.verdictReasons = r.verdictReasons;
    row.marginalOnly = r.marginalOnly;
    row.ciOverlap = r.ciOverlap;
    row.maxStdDiff = r.maxStdDiff;
    row.pmse = r.pmse;
    row.maxGroupMeanDiff = r.maxGroupMeanDiff;
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<QStringList> storedWarnings(const session::SessionResults& results) {
  std::vector<QStringList> out;
  for (const auto& m : results.mechanisms) {
    QStringList list;
    for (const auto& w : m.warnings) list << QString::fromStdString(w);
    out.push_back(list);
  }
  return out;
}

bool storedResultsStale(const session::SessionResults& results, const std::string& loadedSha256) {
  return results.settingsChanged || results.dataSha256 != loadedSha256;
}

QString storedResultsTime(const session::SessionResults& results) {
  const QDateTime when =
      QDateTime::fromString(QString::fromStdString(results.createdAt), Qt::ISODate);
  return when.isValid() ? when.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"))
                        : QString::fromStdString(results.createdAt);
}

QString storedResultsNote(const session::SessionResults& results, const std::string& loadedSha256,
                          bool changedSince) {
  QString note = QObject::tr("Results from %1 on data %2 (session)")
                     .arg(storedResultsTime(results), shortHash(results.dataSha256));
  if (results.dataSha256 != loadedSha256) {
    note += QObject::tr(" · STALE: the data is now %1").arg(shortHash(loadedSha256));
  } else if (results.settingsChanged || changedSince) {
    note += QObject::tr(" · STALE: settings changed since");
  } else {
    note += QObject::tr(" · violins from quantiles");
  }
  return note;
}

}  // namespace dpsynth::ui
