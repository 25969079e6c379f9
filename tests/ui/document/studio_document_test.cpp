/// The studio document without a window: typed edits and their undo steps, the consequences an
/// edit carries, per-dataset settings (the reference dataset goes with the data), a reference
/// matched to the data's design by level names, and results that stay current until something
/// changes.
#include "ui/document/studio_document.h"

#include <QSignalSpy>
#include <QUndoStack>
#include <QtTest>

#include "core/data/csv_table.h"
#include "ui/controllers/settings_check.h"
#include "ui/document/field_edit_command.h"

using namespace dpsynth::ui;
namespace data = dpsynth::core::data;
namespace pipeline = dpsynth::core::pipeline;
using dpsynth::core::models::Family;

namespace {

/// A table typed the way the loader would hand it over (outcome `y`, no covariates).
LoadedData loadedTable(const std::string& csv, const std::string& name, Family family) {
  LoadedData loaded;
  loaded.table = std::make_shared<const data::CsvTable>(data::parseCsv(csv, name));
  loaded.spec.outcome = "y";
  loaded.spec.family = family;
  loaded.dataset =
      std::make_shared<const data::Dataset>(data::buildDataset(*loaded.table, loaded.spec));
  loaded.source.file = QString::fromStdString("/data/" + name);
  loaded.source.displayName = QString::fromStdString(name);
  loaded.source.sha256 = name + "-digest";
  return loaded;
}

/// y, a region with levels north/south/east (north first) and an age.
std::string regionsCsv(const std::vector<std::string>& order, int rows) {
  std::string csv = "y,region,age\n";
  for (int i = 0; i < rows; ++i)
    csv += std::to_string(1 + i % 7) + "," + order[std::size_t(i) % order.size()] + "," +
           std::to_string(20 + i % 40) + "\n";
  return csv;
}

}  // namespace

class StudioDocumentTest : public QObject {
  Q_OBJECT

 private slots:
  void anEditIsOneTypedUndoStep() {
    StudioDocument doc;
    QSignalSpy edited(&doc, &StudioDocument::edited);
    doc.edit(Field::epsilon, 2.5);
    QCOMPARE(doc.settings().tuning.epsilon, std::optional<double>(2.5));
    QCOMPARE(doc.undoStack()->count(), 1);
    const auto* step = static_cast<const FieldEditCommand*>(doc.undoStack()->command(0));
    QCOMPARE(step->changes().size(), std::size_t(1));
    QVERIFY(step->changes().front().field == Field::epsilon);
    QVERIFY(step->changes().front().before == FieldValue(std::optional<double>(5.0)));
    QVERIFY(step->changes().front().after == FieldValue(std::optional<double>(2.5)));
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("ε → 2.5"));
    doc.undoStack()->undo();
    QCOMPARE(doc.settings().tuning.epsilon, std::optional<double>(5.0));
    QCOMPARE(edited.count(), 2);  // auto-run sees undo too
    // The same value again is no step; a value of the wrong kind is a programming error.
    doc.edit(Field::epsilon, 5.0);
    QCOMPARE(doc.undoStack()->index(), 0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, doc.edit(Field::epsilon, std::string("x")));
  }

  void editsOfOneDragMerge() {
    StudioDocument doc;
    for (double c : {0.9, 0.8, 0.7}) doc.edit(Field::c, c, 41);
    doc.edit(Field::c, 0.6, 42);
    QCOMPARE(doc.undoStack()->count(), 2);
    doc.undoStack()->undo();
    QCOMPARE(doc.settings().tuning.c, 0.7);
    doc.undoStack()->undo();
    QCOMPARE(doc.settings().tuning.c, 1.0);
  }

  void severalFieldsAreOneStep() {
    // What a frontier point loads: mechanism, ε, tuning and the release switch at once.
    StudioDocument doc;
    doc.edit(Field::reproducible, true);
    doc.edit({{Field::mechanisms, std::vector<pipeline::Mechanism>{pipeline::Mechanism::ph}},
              {Field::epsilon, 0.0316227766},
              {Field::reproducible, false},
              {Field::tunedOnConfidential, true}},
             QStringLiteral("Load frontier point"));
    QCOMPARE(doc.undoStack()->count(), 2);
    // The exact ε, not a rounded copy of a field.
    QCOMPARE(doc.current().tuning.epsilon, std::optional<double>(0.0316227766));
    doc.undoStack()->undo();
    QCOMPARE(doc.settings().mechanisms,
             std::vector<pipeline::Mechanism>{pipeline::Mechanism::lwFinal});
    QCOMPARE(doc.settings().tuning.epsilon, std::optional<double>(5.0));
    QVERIFY(doc.settings().reproducible);
    QVERIFY(!doc.settings().run.tunedOnConfidential);
  }

  void aNewOutcomeCarriesItsConsequencesInOneStep() {
    StudioDocument doc;
    doc.installData(loadedTable(regionsCsv({"north", "south"}, 40), "a.csv", Family::negbin));
    doc.edit(Field::covariates, std::vector<std::string>{"region", "age"});
    doc.edit(Field::family, Family::poisson);
    QVERIFY(doc.familyDeclared());
    doc.edit(Field::outcome, std::string("age"));
    QCOMPARE(doc.settings().dataset.covariates, std::vector<std::string>{"region"});
    QVERIFY(!doc.familyDeclared());  // suggested from the data until picked
    QCOMPARE(doc.settings().dataset.family, doc.suggestedFamily());
    QCOMPARE(doc.undoStack()->count(), 3);
    doc.undoStack()->undo();
    QCOMPARE(doc.settings().dataset.outcome, std::string("y"));
    QCOMPARE(doc.settings().dataset.covariates, (std::vector<std::string>{"region", "age"}));
    QCOMPARE(doc.settings().dataset.family, Family::poisson);
    QVERIFY(doc.familyDeclared());
  }

  void pickingTheFamilyShownDeclaresItOnce() {
    StudioDocument doc;
    doc.installData(loadedTable(regionsCsv({"north"}, 20), "a.csv", Family::negbin));
    QVERIFY(!doc.familyDeclared());
    const int steps = doc.undoStack()->count();
    doc.edit(Field::family, Family::negbin);  // the suggested one, picked: declared
    QVERIFY(doc.familyDeclared());
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    doc.edit(Field::family, Family::negbin);  // again: nothing new, no step
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    doc.undoStack()->undo();
    QVERIFY(!doc.familyDeclared());
  }

  void theReferenceBelongsToItsData() {
    // Issue 23, defect 3: a reference chosen for one dataset does not carry over to another.
    StudioDocument doc;
    doc.installData(loadedTable(regionsCsv({"north", "south"}, 40), "a.csv", Family::negbin));
    doc.setReference(loadedTable(regionsCsv({"north", "south"}, 30), "ref.csv", Family::negbin));
    QVERIFY(doc.reference().isLoaded());
    QVERIFY(doc.current().run.weightReference);
    const QStringList reset =
        doc.installData(loadedTable(regionsCsv({"east", "west"}, 50), "b.csv", Family::negbin));
    QVERIFY(!doc.reference().isLoaded());
    QVERIFY(doc.settings().weightsFrom.empty());
    QVERIFY(!doc.current().run.weightReference);
    QVERIFY(doc.current().referenceProblem.empty());
    QVERIFY2(reset.join(' ').contains("ref.csv"), qPrintable(reset.join(' ')));
    QVERIFY(planRun(doc.current()).canRun());
  }

  void aReferenceMatchesTheDesignByLevelNames() {
    // Issue 23, defect 2: same columns and levels, first seen in another order.
    StudioDocument doc;
    doc.installData(
        loadedTable(regionsCsv({"north", "south", "east"}, 60), "a.csv", Family::negbin));
    doc.edit(Field::covariates, std::vector<std::string>{"region", "age"});
    doc.setReference(
        loadedTable(regionsCsv({"east", "north", "south"}, 45), "ref.csv", Family::negbin));
    std::string problem;
    const auto reference = doc.referenceDataset(&problem);
    QVERIFY2(reference, problem.c_str());
    QVERIFY(reference->designNames == doc.dataset()->designNames);
    // Every reference record's dummies say its own region, in the data's coding (levels in
    // sorted order: east is the reference, north and south have dummies).
    const auto& names = reference->designNames;
    QVERIFY(std::find(names.begin(), names.end(), "region=north") != names.end());
    QVERIFY(std::find(names.begin(), names.end(), "region=south") != names.end());
    const auto column = [&names](const std::string& name) {
      return Eigen::Index(std::find(names.begin(), names.end(), name) - names.begin());
    };
    const dpsynth::core::data::SourceCells cells(*reference);
    for (std::size_t r = 0; r < cells.size(); ++r) {
      const std::string region(cells(r, 1).view());
      const auto i = Eigen::Index(r);
      QCOMPARE(reference->X(i, column("region=south")), region == "south" ? 1.0 : 0.0);
      QCOMPARE(reference->X(i, column("region=north")), region == "north" ? 1.0 : 0.0);
      QCOMPARE(reference->X(i, column("age")), std::stod(std::string(cells(r, 2).view())));
    }
    QVERIFY(planRun(doc.current()).canRun());
  }

  void aReferenceWithOtherLevelsStopsOnlyItsMechanisms() {
    StudioDocument doc;
    doc.installData(
        loadedTable(regionsCsv({"north", "south", "east"}, 60), "a.csv", Family::negbin));
    doc.edit(Field::covariates, std::vector<std::string>{"region"});
    doc.edit(Field::mechanisms, std::vector<pipeline::Mechanism>{pipeline::Mechanism::lwFinal,
                                                                 pipeline::Mechanism::censorW,
                                                                 pipeline::Mechanism::weightedE});
    doc.setReference(loadedTable(regionsCsv({"north", "west"}, 40), "ref.csv", Family::negbin));
    std::string problem;
    QVERIFY(!doc.referenceDataset(&problem));
    // In words a person can compare.
    QVERIFY2(problem.find("region") != std::string::npos, problem.c_str());
    QVERIFY2(problem.find("only in the data: east, south") != std::string::npos, problem.c_str());
    QVERIFY2(problem.find("only in the reference: west") != std::string::npos, problem.c_str());
    const RunPlan plan = planRun(doc.current());
    QVERIFY(plan.canRun());
    QCOMPARE(plan.settings.mechanisms,
             std::vector<pipeline::Mechanism>{pipeline::Mechanism::lwFinal});
    QVERIFY(!plan.settings.run.weightReference);
    QCOMPARE(plan.skipped.size(), 2);
    QVERIFY(plan.skipped.join(' ').contains("only in the reference: west"));
  }

  void storedResultsStayCurrentUntilAnEdit() {
    // Issue 23, defect 4: a reopened session's results are current until something changes.
    StudioDocument doc;
    const LoadedData loaded = loadedTable(regionsCsv({"north"}, 20), "a.csv", Family::negbin);
    doc.installData(loaded);
    dpsynth::core::session::SessionResults stored;
    stored.dataSha256 = loaded.source.sha256;
    stored.createdAt = "2026-11-27T10:00:00Z";
    stored.rows.resize(2);
    stored.rows[1].mechanism = "lw-final";
    doc.setStoredResults(stored);
    QVERIFY(doc.resultsCurrent());
    QVERIFY(!doc.resultsNote().contains("STALE"));
    // The session's own reference arriving afterwards is not a change.
    doc.setReference(loadedTable(regionsCsv({"north"}, 20), "ref.csv", Family::negbin), true);
    QVERIFY(doc.resultsCurrent());
    QVERIFY(!doc.sessionResults()->settingsChanged);
    doc.edit(Field::c, 0.5);
    QVERIFY(!doc.resultsCurrent());
    QVERIFY(doc.sessionResults()->settingsChanged);
    // Results of other data are never current.
    stored.dataSha256 = "other";
    doc.setStoredResults(stored);
    QVERIFY(!doc.resultsCurrent());
  }

  /// Undo back to the settings a run was made with makes its results current again (they were
  /// shown stale, and Run then took nothing but the cache); a change that is no field edit (a
  /// reference dataset for a run that takes weights from it) outdates them for good.
  void undoBackToTheRunsSettingsMakesItsResultsCurrent() {
    StudioDocument doc;
    doc.installData(loadedTable(regionsCsv({"north"}, 20), "a.csv", Family::negbin));
    doc.edit(Field::mechanisms, std::vector<pipeline::Mechanism>{pipeline::Mechanism::lwFinal,
                                                                 pipeline::Mechanism::censorW});
    doc.runStarting();
    RunOutput output;
    output.source = doc.source();
    doc.setRunOutput(output);
    QVERIFY(doc.resultsCurrent());
    doc.edit(Field::c, 0.5);
    doc.edit(Field::g, 0.25);
    QVERIFY(!doc.resultsCurrent());
    doc.undoStack()->undo();
    QVERIFY(!doc.resultsCurrent());
    doc.undoStack()->undo();
    QVERIFY(doc.resultsCurrent());
    QVERIFY(doc.resultsNote().isEmpty());
    doc.undoStack()->redo();
    QVERIFY(!doc.resultsCurrent());
    doc.undoStack()->undo();
    QVERIFY(doc.resultsCurrent());
    doc.setReference(loadedTable(regionsCsv({"north"}, 20), "ref.csv", Family::negbin), false);
    QVERIFY(!doc.resultsCurrent());
    doc.clearReference();
    QVERIFY(!doc.resultsCurrent());
  }

  /// A reference changes only the mechanisms that take weights from it: an lw run stays
  /// current when one is loaded, and a censor-w run checked again after a new reference is not.
  void aReferenceOutdatesOnlyTheMechanismsThatUseIt() {
    using pipeline::Mechanism;
    StudioDocument doc;
    doc.installData(loadedTable(regionsCsv({"north"}, 20), "a.csv", Family::negbin));
    doc.edit(Field::mechanisms, std::vector<Mechanism>{Mechanism::lwFinal});
    doc.runStarting();
    RunOutput output;
    output.source = doc.source();
    doc.setRunOutput(output);
    QVERIFY(doc.resultsCurrent());
    doc.setReference(loadedTable(regionsCsv({"north"}, 20), "ref.csv", Family::negbin), false);
    QVERIFY(doc.resultsCurrent());
    doc.clearReference();
    QVERIFY(doc.resultsCurrent());

    // A run of lw and censor-w with reference A; censor-w unchecked, B loaded, checked again:
    // its weights would come from B, so the results of A are not current.
    doc.setReference(loadedTable(regionsCsv({"north"}, 20), "A.csv", Family::negbin), false);
    doc.edit(Field::mechanisms, std::vector<Mechanism>{Mechanism::lwFinal, Mechanism::censorW});
    doc.runStarting();
    doc.setRunOutput(output);
    QVERIFY(doc.resultsCurrent());
    doc.edit(Field::mechanisms, std::vector<Mechanism>{Mechanism::lwFinal});
    QVERIFY(!doc.resultsCurrent());
    doc.undoStack()->undo();
    QVERIFY(doc.resultsCurrent());
    doc.undoStack()->redo();
    doc.setReference(loadedTable(regionsCsv({"north"}, 20), "B.csv", Family::negbin), false);
    doc.undoStack()->undo();  // (the reference is no undo step: the mechanisms come back)
    QCOMPARE(doc.settings().mechanisms,
             (std::vector<Mechanism>{Mechanism::lwFinal, Mechanism::censorW}));
    QVERIFY(!doc.resultsCurrent());

    // A reopened session's results of lw alone stay current too.
    StudioDocument reopened;
    const LoadedData loaded = loadedTable(regionsCsv({"north"}, 20), "a.csv", Family::negbin);
    reopened.installData(loaded);
    reopened.edit(Field::mechanisms, std::vector<Mechanism>{Mechanism::lwFinal});
    dpsynth::core::session::SessionResults stored;
    stored.dataSha256 = loaded.source.sha256;
    stored.createdAt = "2026-11-27T10:00:00Z";
    stored.rows.resize(2);
    stored.rows[1].mechanism = "lw-final";
    reopened.setStoredResults(stored);
    QVERIFY(reopened.resultsCurrent());
    reopened.setReference(loadedTable(regionsCsv({"north"}, 20), "ref.csv", Family::negbin), false);
    QVERIFY(reopened.resultsCurrent());
  }
};

QTEST_MAIN(StudioDocumentTest)
#include "studio_document_test.moc"
