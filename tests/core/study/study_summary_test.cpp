#include "core/study/study_summary.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/study/study_runner.h"
#include "support/tiny_study.h"

namespace study = dpsynth::core::study;

namespace {

/// A row of a fabricated study: replicate, cell and mechanism keys, lipschitz and censored.
std::vector<std::string> studySummaryRow(int replicate, const std::string& cell,
                                         const std::string& lipschitz,
                                         const std::string& censored) {
  const auto header = study::studyHeader();
  std::vector<std::string> row(header.size());
  auto set = [&](const char* name, const std::string& v) {
    row[static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin())] = v;
  };
  set("replicate", std::to_string(replicate));
  set("cell", cell);
  set("cell_mechanism", cell == "0" ? "lw" : "censor-uw");
  set("cell_epsilon", cell == "0" ? "" : "4");
  set("mechanism", cell == "0" ? "lw" : "censor-uw");
  set("lipschitz", lipschitz);
  set("censored", censored);
  return row;
}

const study::ColumnSummary& studySummaryColumn(const study::CellSummary& c, const char* name) {
  for (const auto& s : c.columns)
    if (s.column == name) return s;
  throw std::logic_error(std::string("no column ") + name);
}

}  // namespace

class StudySummaryTest : public QObject {
  Q_OBJECT

 private slots:
  void typeSevenQuantilesAndSampleSd() {
    // {1, 2, 3, 4, 10}: h = 4p, so Q1 = x[1] = 2, Q3 = x[3] = 4; mean 4;
    // sd = sqrt((9 + 4 + 1 + 0 + 36) / 4) = sqrt(12.5).
    const auto s = study::summarizeValues("x", {10, 3, 1, 4, 2});
    QCOMPARE(s.n, std::size_t(5));
    QCOMPARE(s.min, 1.0);
    QCOMPARE(s.q1, 2.0);
    QCOMPARE(s.median, 3.0);
    QCOMPARE(s.mean, 4.0);
    QCOMPARE(s.q3, 4.0);
    QCOMPARE(s.max, 10.0);
    QCOMPARE(s.sd, std::sqrt(12.5));
    // {1, 2, 3, 4}: h = 3p, Q1 = 1 + 0.75 = 1.75, median 2.5, Q3 = 3 + 0.25 = 3.25 (R:
    // quantile(1:4, c(.25, .5, .75)) = 1.75 2.50 3.25); sd = sqrt(5/3).
    const auto t = study::summarizeValues("x", {4, 3, 2, 1});
    QCOMPARE(t.q1, 1.75);
    QCOMPARE(t.median, 2.5);
    QCOMPARE(t.q3, 3.25);
    QCOMPARE(t.sd, std::sqrt(5.0 / 3.0));
    QVERIFY(std::isnan(study::summarizeValues("x", {7}).sd));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, study::summarizeValues("x", {}));
  }

  void tinyStudySummaryEqualsTheHandComputation() {
    const std::vector<std::vector<std::string>> rows = {
        studySummaryRow(0, "0", "1.5", ""),  studySummaryRow(0, "1", "2", "3"),
        studySummaryRow(1, "0", "0.5", ""),  studySummaryRow(1, "1", "2", "5"),
        studySummaryRow(2, "0", "2.5", ""),  studySummaryRow(2, "1", "1.25", "1"),
    };
    const auto cells = study::summarizeStudy(rows);
    QCOMPARE(cells.size(), std::size_t(2));
    QCOMPARE(cells[0].cell, std::string("0"));
    QCOMPARE(cells[0].keys[0], std::string("lw"));
    // lw Δ: {0.5, 1.5, 2.5}: Q1 = 1, median 1.5, Q3 = 2, mean 1.5, sd 1.
    const auto& lw = studySummaryColumn(cells[0], "lipschitz");
    QCOMPARE(lw.n, std::size_t(3));
    QCOMPARE(lw.q1, 1.0);
    QCOMPARE(lw.median, 1.5);
    QCOMPARE(lw.q3, 2.0);
    QCOMPARE(lw.mean, 1.5);
    QCOMPARE(lw.sd, 1.0);
    // lw has no censored counts (empty = not applicable): no such column.
    QVERIFY(std::none_of(cells[0].columns.begin(), cells[0].columns.end(),
                         [](const auto& c) { return c.column == "censored"; }));
    // censor-uw #censored {3, 5, 1}: Q1 = 2, median 3, Q3 = 4, mean 3, sd 2.
    const auto& cens = studySummaryColumn(cells[1], "censored");
    QCOMPARE(cens.q1, 2.0);
    QCOMPARE(cens.median, 3.0);
    QCOMPARE(cens.q3, 4.0);
    QCOMPARE(cens.mean, 3.0);
    QCOMPARE(cens.sd, 2.0);
    // Text columns (mechanism) are not summarised.
    QVERIFY(std::none_of(cells[1].columns.begin(), cells[1].columns.end(),
                         [](const auto& c) { return c.column == "mechanism"; }));

    const auto config = dpsynth::test::tinyStudyConfig(3);
    const auto json = nlohmann::json::parse(study::summaryJson(config, cells));
    QCOMPARE(json["quantile_type"].get<int>(), 7);
    QCOMPARE(json["internal_study"].get<bool>(), false);
    QCOMPARE(json["cells"][1]["columns"]["censored"]["q3"].get<double>(), 4.0);
    QCOMPARE(json["cells"][1]["keys"]["cell_epsilon"].get<std::string>(), std::string("4"));
    const std::string md = study::summaryMarkdown(config, cells);
    QVERIFY2(md.find("| censored | 3 | 1 | 2 | 3 | 3 | 4 | 5 | 2 |") != std::string::npos,
             md.c_str());
    QVERIFY(md.find("## censor-uw, epsilon = 4") != std::string::npos);
  }
};

QTEST_APPLESS_MAIN(StudySummaryTest)
#include "study_summary_test.moc"
