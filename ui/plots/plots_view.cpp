#include "ui/plots/plots_view.h"

#include <QDir>
#include <array>

#include "ui/plots/lipschitz_violin_plot.h"
#include "ui/plots/lipschitz_weight_plot.h"
#include "ui/plots/plot_export.h"
#include "ui/plots/posterior_density_plot.h"
#include "ui/plots/synthetic_comparison_plot.h"
#include "ui/plots/trace_plot.h"
#include "ui/plots/weight_violin_plot.h"

namespace dpsynth::ui {
namespace {

/// File stems used by exportAll, in tab order.
constexpr std::array<const char*, PlotsView::kTabCount> kFileStems = {
    "lipschitz", "lipschitz_vs_weight", "weights", "synthetic_vs_confidential", "posteriors",
    "traces"};

}  // namespace

PlotsView::PlotsView(QWidget* parent) : QTabWidget(parent) {
  setDocumentMode(true);
  lipschitz_ = new LipschitzViolinPlot(this);
  lipschitzWeight_ = new LipschitzWeightPlot(this);
  weights_ = new WeightViolinPlot(this);
  synthetic_ = new SyntheticComparisonPlot(this);
  posterior_ = new PosteriorDensityPlot(this);
  traces_ = new TracePlot(this);
  addTab(lipschitz_, tr("Lipschitz"));
  addTab(lipschitzWeight_, tr("Lipschitz vs weight"));
  addTab(weights_, tr("Weights"));
  addTab(synthetic_, tr("Synthetic vs confidential"));
  addTab(posterior_, tr("Posteriors"));
  addTab(traces_, tr("Traces"));
}

void PlotsView::setResults(const std::vector<double>& confidential, bool countData,
                           const std::vector<MechanismPlotData>& mechanisms, double lower,
                           double upper) {
  endRun();
  std::vector<LipschitzSeries> lipschitz;
  std::vector<LipschitzWeightSeries> lipschitzWeight;
  std::vector<WeightSeries> weights;
  std::vector<SyntheticSeries> synthetic;
  std::vector<PosteriorSeries> posterior;
  std::vector<MechanismTraces> traces;
  for (const MechanismPlotData& m : mechanisms) {
    lipschitz.push_back(
        {m.name, m.deltaPerRecord, m.strictDp, m.epsilon, m.lipschitzMax, {}, m.strictBound});
    // The scatter pairs α_i with Δ_i; a stage whose vectors disagree in length cannot be drawn.
    LipschitzWeightSeries lw{m.name, {}, {}, {}, {}};
    if (m.weightsBefore.size() == m.deltaBefore.size()) {
      lw.weightsBefore = m.weightsBefore;
      lw.deltaBefore = m.deltaBefore;
    }
    if (m.weights.size() == m.deltaPerRecord.size()) {
      lw.weightsAfter = m.weights;
      lw.deltaAfter = m.deltaPerRecord;
    }
    lipschitzWeight.push_back(std::move(lw));
    weights.push_back({m.name, m.weightsBefore, m.weights});
    if (!m.synthetic.empty()) synthetic.push_back({m.name, m.synthetic});
    PosteriorSeries ps{m.name, m.parameterNames, m.parameterDraws};
    if (ps.draws.size() != ps.parameterNames.size()) ps.draws.resize(ps.parameterNames.size());
    posterior.push_back(std::move(ps));
    if (!m.chainDraws.empty() && !m.parameterNames.empty()) {
      MechanismTraces t{m.name, m.finalStage, {}, m.chainDraws};
      for (const auto& name : m.parameterNames) t.parameterNames << name;
      traces.push_back(std::move(t));
    }
  }
  lipschitz_->setSeries(lipschitz);
  lipschitzWeight_->setSeries(lipschitzWeight);
  weights_->setSeries(weights);
  synthetic_->setData(confidential, countData, synthetic, lower, upper);
  posterior_->setSeries(posterior);
  traces_->setMechanismTraces(traces);
}

void PlotsView::updateLipschitz(const QString& mechanism, const QString& stage,
                                const std::vector<double>& deltaPerRecord, bool strictDp,
                                double epsilon, double lipschitzMax, double strictBound) {
  lipschitz_->updateSeries(
      {mechanism, deltaPerRecord, strictDp, epsilon, lipschitzMax, stage, strictBound});
}

void PlotsView::clearAll() {
  endRun();
  lipschitz_->clear();
  lipschitzWeight_->clear();
  weights_->clear();
  synthetic_->clear();
  posterior_->clear();
  traces_->setMechanismTraces({});
  setRunLabel({});
  setStale(false);
}

void PlotsView::beginRun(const QString& previousRunNote) {
  lipschitz_->clear();
  const bool hadResults = !lipschitzWeight_->runLabel().isEmpty();
  lipschitz_->setRunLabel(tr("run in progress"));
  lipschitz_->setStale(false);
  traces_->setRunLabel(tr("run in progress"));
  traces_->setStale(false);
  // Until a stage or the run finishes, an empty plot says what it waits for (it said "No
  // results: press Run." while the run it waited for was in progress).
  lipschitz_->setWaitingText(tr("each stage's violin appears once the stage is sampling"));
  for (PlotWidget* p :
       {static_cast<PlotWidget*>(lipschitzWeight_), static_cast<PlotWidget*>(weights_),
        static_cast<PlotWidget*>(synthetic_), static_cast<PlotWidget*>(posterior_)}) {
    p->setStale(hadResults, previousRunNote);
    p->setWaitingText(hadResults ? QString() : tr("Running: drawn when the run finishes."));
  }
  stale_ = hadResults;
}

void PlotsView::endRun() {
  for (int t = 0; t < kTabCount; ++t) plot(static_cast<Tab>(t))->setWaitingText({});
}

void PlotsView::setRunLabel(const QString& run) {
  for (int t = 0; t < kTabCount; ++t) plot(static_cast<Tab>(t))->setRunLabel(run);
}

void PlotsView::setEmptyText(const QString& text) {
  for (int t = 0; t < kTabCount; ++t) plot(static_cast<Tab>(t))->setEmptyText(text);
}

void PlotsView::setStale(bool stale, const QString& why) {
  stale_ = stale;
  for (int t = 0; t < kTabCount; ++t) {
    PlotWidget* p = plot(static_cast<Tab>(t));
    // An empty plot shows nothing old; a reopened session's violins have points but no run.
    p->setStale(stale && (!p->runLabel().isEmpty() || p->pointCount() > 0), why);
  }
}

void PlotsView::setExportFolder(const QString& folder) {
  for (int t = 0; t < kTabCount; ++t) plot(static_cast<Tab>(t))->setExportFolder(folder);
}

void PlotsView::setLiveTraceSource(const QString& mechanism, const QString& stage) {
  traces_->setLiveSource(mechanism, stage);
}

void PlotsView::clearTraces(const QStringList& parameterNames, int chains) {
  traces_->clearTraces(parameterNames, chains);
}

bool PlotsView::appendDraws(int chain, std::int64_t firstDraw, const std::vector<double>& draws) {
  return traces_->appendDraws(chain, firstDraw, draws);
}

void PlotsView::setWarmupEnd(std::int64_t iteration) { traces_->setWarmupEnd(iteration); }

QStringList PlotsView::exportPaths(const QString& folder, const QString& suffix) {
  const QDir dir(folder);
  QStringList paths;
  for (int t = 0; t < kTabCount; ++t) {
    const QString picture = dir.filePath(QString::fromLatin1(kFileStems[static_cast<size_t>(t)]) +
                                         QLatin1Char('.') + suffix);
    paths << picture << csvPathFor(picture);
  }
  return paths;
}

bool PlotsView::exportAll(const QString& folder, const QString& suffix, QString* error) {
  const QDir dir(folder);
  for (int t = 0; t < kTabCount; ++t) {
    const QString path = dir.filePath(QString::fromLatin1(kFileStems[static_cast<size_t>(t)]) +
                                      QLatin1Char('.') + suffix);
    if (!plot(static_cast<Tab>(t))->exportTo(path, error)) return false;
  }
  return true;
}

PlotWidget* PlotsView::plot(Tab tab) const {
  switch (tab) {
    case kLipschitz:
      return lipschitz_;
    case kLipschitzVsWeight:
      return lipschitzWeight_;
    case kWeights:
      return weights_;
    case kSynthetic:
      return synthetic_;
    case kPosteriors:
      return posterior_;
    case kTraces:
      return traces_;
    case kTabCount:
      break;
  }
  return nullptr;
}

QString PlotsView::plotSummary() const {
  QStringList lines;
  for (int t = 0; t < kTabCount; ++t) {
    const PlotWidget* p = plot(static_cast<Tab>(t));
    lines << QStringLiteral("%1: %2 plottables, %3 points")
                 .arg(tabText(t))
                 .arg(p->plottableCount())
                 .arg(p->pointCount());
  }
  return lines.join(QLatin1Char('\n'));
}

}  // namespace dpsynth::ui
