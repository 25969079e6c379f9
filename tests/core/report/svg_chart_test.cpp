/// Inline SVG charts: structure, escaping, thinning of large samples, reference lines.
#include "core/report/svg_chart.h"

#include <QXmlStreamReader>
#include <QtTest>
#include <cmath>

namespace report = dpsynth::core::report;

namespace {

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// Well-formed XML (an SVG that a browser would render, not show as an error).
bool wellFormed(const std::string& svg) {
  QXmlStreamReader xml(QByteArray::fromStdString(svg));
  while (!xml.atEnd()) xml.readNext();
  return !xml.hasError();
}

}  // namespace

class SvgChartTest : public QObject {
  Q_OBJECT
 private slots:
  void niceTicksAreRoundAndCoverTheRange() {
    const auto t = report::detail::niceTicks(0, 1, 5);
    QCOMPARE(t.size(), std::size_t(6));
    QCOMPARE(t.front(), 0.0);
    QVERIFY(std::abs(t[1] - 0.2) < 1e-12);
    QVERIFY(std::abs(t.back() - 1.0) < 1e-12);
    // (87 - 13) / 5 = 14.8 rounds to a step of 10; ticks stay inside the range.
    QCOMPARE(report::detail::niceTicks(13, 87, 5),
             (std::vector<double>{20, 30, 40, 50, 60, 70, 80}));
    QCOMPARE(report::detail::niceTicks(0, 7, 3), (std::vector<double>{0, 2, 4, 6}));
    QCOMPARE(report::detail::niceTicks(-0.3, 0.31, 3), (std::vector<double>{-0.2, 0, 0.2}));
    QCOMPARE(report::detail::niceTicks(3, 3, 5).size(), std::size_t(1));
  }

  void violinsWithDashedReferences() {
    std::vector<double> a, b;
    for (int i = 0; i < 200; ++i) a.push_back(std::sin(i) + 2), b.push_back(0.5);
    b.push_back(NAN);  // ignored
    const std::string svg = report::violinChart(
        {{"lw", a, 3.1, "Δ"}, {"censor-w", b, 3.0, "ε/2"}, {"empty", {}, std::nullopt, ""}},
        {"Δᵢ <by> mechanism", "mechanism", "Δᵢ", 640, 300});
    QVERIFY(wellFormed(svg));
    QCOMPARE(count(svg, "<polygon"), 1);  // b is constant: drawn as a bar, not a density
    QCOMPARE(count(svg, "stroke-dasharray"), 2);
    QVERIFY(svg.find("Δᵢ &lt;by&gt; mechanism") != std::string::npos);
    QVERIFY(svg.find("no data") != std::string::npos);
    QVERIFY(svg.find("nan") == std::string::npos && svg.find("inf") == std::string::npos);
  }

  void scatterIsThinnedForLargeSamples() {
    std::vector<double> x(10000), y(10000);
    for (int i = 0; i < 10000; ++i) x[i] = i / 10000.0, y[i] = std::cos(i);
    const std::string svg = report::scatterChart(x, y, 0.75, "ε/2", {"s", "α", "Δ", 640, 280});
    QVERIFY(wellFormed(svg));
    QCOMPARE(count(svg, "<circle"), 2000);  // every 5th
    QVERIFY(svg.find("1 in 5 of 10000 records shown") != std::string::npos);
    QCOMPARE(count(svg, "stroke-dasharray"), 1);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             report::scatterChart({1, 2}, {1}, std::nullopt, "", {}));
  }

  void ecdfIsOneStepPathPerSeries() {
    const std::string svg = report::ecdfChart(
        {{"confidential", {1, 2, 3, 4}}, {"synthetic", {2, 3, 4, 5}}}, {"e", "y", "F", 640, 280});
    QVERIFY(wellFormed(svg));
    QCOMPARE(count(svg, "<path"), 2);
    // 5 distinct pooled values: each path has one horizontal + vertical move per value.
    const std::size_t first = svg.find("<path d=\"");
    const std::string d = svg.substr(first, svg.find('"', first + 9) - first);
    QCOMPARE(count(d, "V"), 5);
    QVERIFY(svg.find(">confidential<") != std::string::npos);
    QVERIFY(svg.find(">synthetic<") != std::string::npos);
  }

  void chartsAreDeterministic() {
    std::vector<double> v;
    for (int i = 0; i < 500; ++i) v.push_back(std::exp(std::sin(i * 0.37)));
    const report::ChartOptions o{"t", "x", "y", 640, 300};
    QCOMPARE(report::violinChart({{"a", v, std::nullopt, ""}}, o),
             report::violinChart({{"a", v, std::nullopt, ""}}, o));
    QCOMPARE(report::ecdfChart({{"a", v}}, o), report::ecdfChart({{"a", v}}, o));
  }
};

QTEST_APPLESS_MAIN(SvgChartTest)
#include "svg_chart_test.moc"
