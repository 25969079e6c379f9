/// A study's rows as values and their CSV codec (core/study/study_row.h): fields read back give
/// the same row, and what is not a row is refused naming the column.
#include "core/study/study_row.h"

#include <QtTest>

#include "core/study/study_runner.h"
#include "support/tiny_study.h"

namespace study = dpsynth::core::study;

class StudyRowTest : public QObject {
  Q_OBJECT

 private slots:
  void fieldsReadBackToTheSameRow() {
    study::StudyRow row;
    row.replicate = 17;
    row.cell = 3;
    row.keys = {"censor-w", 0.1 + 0.2, 1, 0, true, std::nullopt};  // downscale auto
    row.results.mechanism = "censor-w";
    row.results.guarantee = "aDP";
    row.results.lipschitz = 1.5;
    row.results.censored = 4;
    row.results.attributeCap = 0.25;
    row.divergences = 2;
    row.maxRhat = 1.0123;
    row.seconds = 0.5;
    const auto fields = study::studyCsvFields(row);
    QCOMPARE(fields.size(), study::studyHeader().size());
    QCOMPARE(fields[6], std::string("auto"));
    const auto back = study::studyRowFromCsv(fields);
    QCOMPARE(study::studyCsvFields(back), fields);
    QCOMPARE(back.replicate, 17);
    QCOMPARE(*back.cell, 3);
    QVERIFY(back.keys == row.keys);
    QCOMPARE(*back.keys.epsilon, 0.1 + 0.2);
    QCOMPARE(back.keys.epsilonText(), std::string("0.30000000000000004"));
    QCOMPARE(*back.results.censored, std::size_t(4));
    QCOMPARE(*back.divergences, 2LL);
    // Every numeric column by its name, as the studio's violins and frontier read them.
    QCOMPARE(*back.number("lipschitz"), 1.5);
    QCOMPARE(*back.number("censored"), 4.0);
    QCOMPARE(*back.number("divergences"), 2.0);
    QCOMPARE(*back.number("max_rhat"), 1.0123);
    QCOMPARE(*back.number("cell_epsilon"), 0.1 + 0.2);
    QVERIFY(!back.number("cell_downscale"));  // auto
    QVERIFY(!back.number("truncated"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, back.number("no_such_column"));

    study::StudyRow confidential;
    confidential.replicate = 2;
    confidential.keys.mechanism = "confidential";
    confidential.results.mechanism = "confidential";
    const auto again = study::studyRowFromCsv(study::studyCsvFields(confidential));
    QVERIFY(again.isConfidential());
    QVERIFY(!again.keys.hasDownscale && !again.keys.epsilon);
  }

  void aReplicatesRowsDecode() {
    const auto config = dpsynth::test::tinyStudyConfig(1);
    const auto rows = study::runReplicate(config, study::ReplicateSource(config), 0);
    QVERIFY(rows.has_value());
    const auto typed = study::studyRowsFromCsv(rows->rows);
    QCOMPARE(typed.size(), std::size_t(4));
    QVERIFY(typed[0].isConfidential());
    QCOMPARE(typed[1].keys.mechanism, std::string("unweighted"));
    QCOMPARE(typed[3].keys.mechanism, std::string("censor-uw"));
    QCOMPARE(*typed[3].keys.epsilon, 6.0);
    QVERIFY(typed[3].results.censored.has_value());
    for (std::size_t i = 0; i < typed.size(); ++i)
      QCOMPARE(study::studyCsvFields(typed[i]), rows->rows[i]);
  }

  void whatIsNoRowIsRefusedNamingTheColumn() {
    study::StudyRow row;
    row.keys.mechanism = "lw";
    auto fields = study::studyCsvFields(row);
    fields[3] = "four";
    try {
      study::studyRowFromCsv(fields);
      QFAIL("a bad ε was read");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(std::string(e.what()).find("'cell_epsilon'") != std::string::npos, e.what());
    }
    fields = study::studyCsvFields(row);
    fields[0] = "";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, study::studyRowFromCsv(fields));
    fields = study::studyCsvFields(row);
    fields[1] = "1.5";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, study::studyRowFromCsv(fields));
    fields.pop_back();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, study::studyRowFromCsv(fields));
  }
};

QTEST_APPLESS_MAIN(StudyRowTest)
#include "study_row_test.moc"
