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
    row[static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin())] =
        v;
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

const study::ColumnSummary& riskColumn(const study::CellSummary& c, const char* name) {
  for (const auto& s : c.disclosure)
    if (s.column == name) return s;
  throw std::logic_error(std::string("no disclosure column ") + name);
}

/// studySummaryRow with the four disclosure-risk fields.
std::vector<std::string> riskRow(int replicate, const std::string& cell,
                                 const std::vector<std::string>& risk) {
  auto row = studySummaryRow(replicate, cell, "1", "");
  const auto header = study::studyHeader();
  for (std::size_t k = 0; k < risk.size(); ++k)
    row[static_cast<std::size_t>(std::find(header.begin(), header.end(), study::kRiskColumns[k]) -
                                 header.begin())] = risk[k];
  return row;
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
        studySummaryRow(0, "0", "1.5", ""), studySummaryRow(0, "1", "2", "3"),
        studySummaryRow(1, "0", "0.5", ""), studySummaryRow(1, "1", "2", "5"),
        studySummaryRow(2, "0", "2.5", ""), studySummaryRow(2, "1", "1.25", "1"),
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

  /// Issue 24: the disclosure-risk columns are summarised per cell as the other measures are,
  /// with CAP − baseline per replicate, and the summaries say they are internal.
  void disclosureRiskIsSummarisedPerCellAndInternal() {
    const std::vector<std::vector<std::string>> rows = {
        riskRow(0, "0", {"0.25", "0.5", "0.25", "0.1"}),
        riskRow(0, "1", {"0.125", "0.75", "0.5", ""}),
        riskRow(1, "0", {"0.75", "0.25", "0.25", "0.3"}),
        riskRow(1, "1", {"0.375", "0.5", "0.5", ""}),
        riskRow(2, "0", {"0.5", "1", "0.5", "0.2"}),
        riskRow(2, "1", {"0.25", "", "0.5", ""}),  // CAP undefined: no gain for this replicate
    };
    const auto cells = study::summarizeStudy(rows);
    QCOMPARE(cells.size(), std::size_t(2));
    // replicated_uniques of cell 0: {0.25, 0.75, 0.5}: median 0.5, Q1 0.375, Q3 0.625.
    const auto& ru = riskColumn(cells[0], "replicated_uniques");
    QCOMPARE(ru.n, std::size_t(3));
    QCOMPARE(ru.median, 0.5);
    QCOMPARE(ru.q1, 0.375);
    QCOMPARE(ru.q3, 0.625);
    // The same numbers as the column summaries (the risk is a measure like the others).
    QCOMPARE(studySummaryColumn(cells[0], "replicated_uniques").median, ru.median);
    // CAP − baseline per replicate: cell 0 {0.25, 0, 0.5}; cell 1 {0.25, 0} (replicate 2 has
    // no CAP).
    const auto& gain0 = riskColumn(cells[0], study::kCapGainColumn);
    QCOMPARE(gain0.n, std::size_t(3));
    QCOMPARE(gain0.median, 0.25);
    QCOMPARE(gain0.max, 0.5);
    const auto& gain1 = riskColumn(cells[1], study::kCapGainColumn);
    QCOMPARE(gain1.n, std::size_t(2));
    QCOMPARE(gain1.mean, 0.125);
    // dcr_share is undefined in every replicate of cell 1: no summary.
    QVERIFY(std::none_of(cells[1].disclosure.begin(), cells[1].disclosure.end(),
                         [](const auto& c) { return c.column == "dcr_share"; }));
    QCOMPARE(riskColumn(cells[0], "dcr_share").mean, 0.2);

    const auto config = dpsynth::test::tinyStudyConfig(3);
    const auto json = nlohmann::json::parse(study::summaryJson(config, cells));
    const auto& risk = json["cells"][0]["disclosure_risk"];
    QCOMPARE(risk["internal"].get<bool>(), true);
    QCOMPARE(risk["columns"]["attribute_cap_gain"]["median"].get<double>(), 0.25);
    QCOMPARE(risk["columns"]["attribute_cap"]["max"].get<double>(), 1.0);
    // "columns" keeps every numeric column as before (keys are added, never removed).
    QCOMPARE(json["cells"][0]["columns"]["attribute_cap"]["max"].get<double>(), 1.0);
    const std::string md = study::summaryMarkdown(config, cells);
    QVERIFY(md.find(study::kRiskInternalLine) != std::string::npos);
    QVERIFY2(md.find("| attribute_cap_gain | 3 | 0 | 0.125 | 0.25 | 0.25 | 0.375 | 0.5 | 0.25 |") !=
                 std::string::npos,
             md.c_str());
    // Each risk row appears once per cell, in its own table.
    std::size_t count = 0;
    for (auto at = md.find("| replicated_uniques |"); at != std::string::npos;
         at = md.find("| replicated_uniques |", at + 1))
      ++count;
    QCOMPARE(count, std::size_t(2));
  }

  /// A real replicate fills the risk columns of every mechanism's row.
  void aReplicateCarriesTheDisclosureRisk() {
    const auto config = dpsynth::test::tinyStudyConfig(1);
    const auto rows = study::runReplicate(config, study::ReplicateSource(config), 0);
    QVERIFY(rows.has_value());
    const auto cells = study::summarizeStudy(rows->rows);
    QCOMPARE(cells.size(), std::size_t(4));  // the confidential row, then three cells
    QVERIFY(cells[0].disclosure.empty());
    for (std::size_t c = 1; c < cells.size(); ++c) {
      QVERIFY(riskColumn(cells[c], "replicated_uniques").n == 1);
      QVERIFY(riskColumn(cells[c], "attribute_cap").n == 1);
      QVERIFY(riskColumn(cells[c], study::kCapGainColumn).n == 1);
    }
  }
};

QTEST_APPLESS_MAIN(StudySummaryTest)
#include "study_summary_test.moc"
