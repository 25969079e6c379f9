/// The frontier as an analyst reads it (issue 23, defect 5; issue 24): axes that one wild
/// replicate does not wreck, "marginal only" in the legend, censor-w weighted by the reference
/// loaded in Synthesis, and the disclosure risk attribute CAP − baseline as the horizontal axis.
#include <qcustomplot.h>

#include <QComboBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

#include "core/study/frontier.h"
#include "core/study/study_row.h"
#include "core/study/study_runner.h"
#include "tests/ui/studio_test_helpers.h"
#include "ui/main_window.h"
#include "ui/workspaces/frontier/frontier_form.h"
#include "ui/workspaces/frontier/frontier_plot.h"
#include "ui/workspaces/frontier/frontier_workspace.h"

using namespace dpsynth::ui;
namespace pipeline = dpsynth::core::pipeline;
namespace study = dpsynth::core::study;

namespace {

study::FrontierPoint axesPoint(const std::string& series, double x, double median, double q1,
                               double q3, bool marginalOnly = false) {
  study::FrontierPoint p;
  p.series = series;
  p.mechanism = series;
  static int cells = 0;
  p.cell = cells++;
  p.x = x;
  p.epsilon = x;
  p.value.median = median;
  p.value.q1 = q1;
  p.value.q3 = q3;
  p.value.n = 5;
  p.marginalOnly = marginalOnly;
  p.bestGuarantee = pipeline::Guarantee::DP;
  p.guarantee = pipeline::Guarantee::DP;
  return p;
}

/// One replicate row of a cell with its CAP and baseline (none: the mechanism has nothing to
/// attribute).
study::StudyRow capRow(int cell, std::optional<double> cap, std::optional<double> baseline) {
  study::StudyRow row;
  row.cell = cell;
  row.results.attributeCap = cap;
  row.results.attributeCapBaseline = baseline;
  return row;
}

}  // namespace

class FrontierAxesTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::isolateSettings(settingsDir_);
  }

  void oneWildMedianDoesNotWreckTheAxis() {
    // ci_overlap of lw around 0.4, ph's at −8000: ph is drawn at the axis' edge.
    const auto [lo, hi] =
        frontierAxisRange({0.35, 0.45, 0.5, -8000}, {0.2, 0.6, -9000, -7000}, "ci_overlap");
    QVERIFY2(lo >= -1.05 && lo < 0.35, qPrintable(QString::number(lo)));
    QVERIFY2(hi > 0.5 && hi <= 1.05, qPrintable(QString::number(hi)));
    // A wide but finite band widens the axis only as far as the medians' spread again.
    const auto [lo2, hi2] = frontierAxisRange({10, 12}, {9, 13, -500}, "max_std_diff");
    QVERIFY(lo2 >= 8 - 1 && lo2 < 9);
    QVERIFY(hi2 > 13 && hi2 < 15);
    // Shares stay within [0, 1].
    const auto [lo3, hi3] = frontierAxisRange({0.02, 0.04}, {0.0, 0.3}, "max_ecdf");
    QVERIFY(lo3 >= -0.03 && hi3 <= 1.03);

    FrontierPlot plot;
    plot.setPoints({axesPoint("lw", 1, 0.4, 0.3, 0.5), axesPoint("lw", 4, 0.5, 0.4, 0.6),
                    axesPoint("ph", 1, -8000, -9000, -7000, true)},
                   QStringLiteral("ci_overlap"));
    plot.redrawNow();
    const QCPRange range = plot.customPlot()->yAxis->range();
    QVERIFY2(range.lower > -1.1 && range.upper < 1.1,
             qPrintable(QStringLiteral("%1..%2").arg(range.lower).arg(range.upper)));
    // ph's point sits on the edge, where a click and the tooltip find it.
    const QPointF ph = plot.pointPixel(2);
    QVERIFY(std::abs(ph.y() - plot.customPlot()->yAxis->coordToPixel(range.lower)) < 1);
    QVERIFY(plot.toolTipAt(ph).contains(QLatin1String("beyond the axis")));
  }

  void marginalOnlyIsInTheLegend() {
    FrontierPlot plot;
    plot.setPoints({axesPoint("lw", 1, 0.1, 0.05, 0.15), axesPoint("ph", 1, 0.2, 0.1, 0.3, true)},
                   QStringLiteral("max_ecdf"));
    plot.redrawNow();
    QStringList legend;
    for (const auto& s : plot.seriesGraphs()) legend << s.median->name();
    QVERIFY2(legend.filter("ph").join(' ').contains(QLatin1String("marginal only")),
             qPrintable(legend.join(" | ")));
    QVERIFY(!legend.filter("lw").join(' ').contains(QLatin1String("marginal only")));
  }

  void theRiskAxisIsAttributeCapOverTheBaseline() {
    // Issue 24: x = median over replicates of attribute_cap − attribute_cap_baseline.
    std::vector<study::FrontierPoint> points{axesPoint("lw", 2, 0.1, 0.05, 0.15),
                                             axesPoint("ph", 2, 0.2, 0.1, 0.3)};
    points[0].cell = 1;
    points[1].cell = 2;
    const std::vector<study::StudyRow> rows{capRow(1, 0.5, 0.25), capRow(1, 0.75, 0.25),
                                            capRow(1, 0.25, 0.25),
                                            capRow(2, std::nullopt, std::nullopt)};  // ph
    const auto gained = withAttributeCapGain(points, rows);
    QCOMPARE(gained.size(), std::size_t(1));
    QCOMPARE(gained[0].cell, 1);
    QCOMPARE(gained[0].x, 0.25);  // differences 0.25, 0.5, 0: median 0.25
  }

  void censorWTakesTheSynthesisReference() {
    // Defect 5: with reference weights in Synthesis, the frontier's censor-w is strict DP too.
    MainWindow window;
    QVERIFY(window.services().data->loadFile(test::samplePath("nbmix")));
    QVERIFY(window.services().data->loadReference(test::samplePath("poisson"),
                                                  window.document()->settings().dataset));
    auto* frontier = window.findChild<FrontierWorkspace*>();
    FrontierForm* form = frontier->form();
    form->setSource(FrontierForm::Source::confidential);
    form->setMechanisms({pipeline::Mechanism::censorW});
    form->epsilonEdit()->setText(QStringLiteral("4"));
    form->replicatesBox()->setValue(1);
    form->chainsBox()->setValue(1);
    form->warmupBox()->setValue(100);
    form->drawsBox()->setValue(100);
    QSignalSpy ended(frontier, &FrontierWorkspace::studyEnded);
    QVERIFY2(frontier->start(), qPrintable(frontier->statusText()));
    QVERIFY(ended.wait(300000));
    QVERIFY(frontier->plot()->runLabel().contains(QLatin1String("weights from the reference")));
    const auto points = study::frontierPoints(frontier->rows(), "max_ecdf");
    QCOMPARE(points.size(), std::size_t(1));
    QCOMPARE(points[0].mechanism, std::string("censor-w"));
    QCOMPARE(points[0].bestGuarantee, pipeline::Guarantee::DP);
    // The axis can show its risk instead of ε.
    form->setXAxis(FrontierForm::XAxis::attributeCapGain);
    QCOMPARE(frontier->plot()->xAxisKind(), FrontierPlot::XAxis::attributeCapGain);
    QVERIFY(frontier->plot()->customPlot()->xAxis->label().contains(QLatin1String("CAP")));
  }

 private:
  QTemporaryDir settingsDir_;
};

QTEST_MAIN(FrontierAxesTest)
#include "frontier_axes_test.moc"
