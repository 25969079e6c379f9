#include "ui/workspaces/inference/analyze_workspace.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <map>

#include "core/data/csv_table.h"
#include "core/data/regular_file.h"
#include "core/infer/da_sampler.h"
#include "core/infer/infer_outputs.h"
#include "core/infer/release_file.h"
#include "core/privacy/perturbed_histogram.h"
#include "ui/main_window.h"
#include "ui/plots/trace_plot.h"
#include "ui/studio_test_helpers.h"
#include "ui/workspaces/inference/acceptance_plot.h"
#include "ui/workspaces/inference/inference_summary_table.h"
#include "ui/workspaces/inference/record_acceptance_plot.h"
#include "ui/workspaces/inference/release_density_plot.h"
#include "ui/workspaces/inference/sampler_settings_box.h"

using dpsynth::ui::AnalyzeWorkspace;
using dpsynth::ui::InferenceSummaryTable;
namespace infer = dpsynth::core::infer;

namespace {

/// The confidential data of the tiny release: N = 30, class cls ∈ {a, b}, one feature f ∈ {x, y}.
std::string analyzeCsvText() {
  std::string text = "cls,f,other\n";
  for (int i = 0; i < 30; ++i) {
    text += (i % 3 == 0 ? "a," : "b,");
    text += (i % 5 < 2 ? "x," : "y,");
    text += std::to_string(i) + "\n";
  }
  return text;
}

infer::NaiveBayesLayout analyzeLayout() {
  infer::NaiveBayesLayout l;
  l.classes = {"a", "b"};
  l.features = {"f"};
  l.levels = {{"x", "y"}};
  return l;
}

/// A tiny naive-Bayes release (I = 2, K = 1, J = 2, N = 30) from a seeded bit source.
infer::NaiveBayesRelease tinyRelease(double epsilon) {
  std::vector<std::vector<int>> records;
  for (int i = 0; i < 30; ++i) records.push_back({i % 3 == 0 ? 0 : 1, i % 5 < 2 ? 0 : 1});
  const auto bits = dpsynth::core::privacy::makeSeededSource(99);
  return infer::makeNaiveBayesRelease(analyzeLayout(), records, epsilon, *bits, true);
}

QString writeAnalyzeFile(const QTemporaryDir& dir, const QString& name, const std::string& text) {
  const QString path = dir.filePath(name);
  std::ofstream(path.toStdString(), std::ios::binary) << text;
  return path;
}

/// Short, seeded settings.
void shortRun(AnalyzeWorkspace& w, int iterations, int warmup, int chains, const QString& seed) {
  w.samplerSettings()->iterationsBox()->setValue(iterations);
  w.samplerSettings()->warmupBox()->setValue(warmup);
  w.samplerSettings()->chainsBox()->setValue(chains);
  w.samplerSettings()->seedEdit()->setText(seed);
}

struct AnalyzeErrors {
  std::shared_ptr<QStringList> messages = std::make_shared<QStringList>();
  AnalyzeWorkspace::ErrorSink sink() const {
    auto target = messages;
    return [target](const QString&, const QString& m) { target->push_back(m); };
  }
};

bool waitForAnalysis(QSignalSpy& ended) {
  if (ended.isEmpty() && !ended.wait(120000)) return false;
  return ended.takeFirst().at(0).toBool();
}

}  // namespace

class AnalyzeWorkspaceTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { dpsynth::ui::test::isolateSettings(settingsDir_); }

  void opensAReleaseAndShowsItsHeader() {
    QTemporaryDir dir;
    const QString path = writeAnalyzeFile(dir, "tiny.json", infer::releaseToJson(tinyRelease(1.0)));
    AnalyzeWorkspace w;
    QVERIFY(w.openRelease(path));
    const QString header = w.headerLabel()->text();
    QVERIFY2(header.contains("naive-bayes"), qPrintable(header));
    QVERIFY2(header.contains(QString::fromUtf8("ε = 1")), qPrintable(header));
    QVERIFY2(header.contains("n = 30"), qPrintable(header));
    QVERIFY2(header.contains("replace-one"), qPrintable(header));
    QVERIFY2(header.contains("feature f (2): x, y"), qPrintable(header));
    QCOMPARE(w.parameterChooser()->count(), 2 + 4);  // p[a], p[b], then 2 × 2 cells
    // The empty plots say what comes next, no longer "Open a release".
    QCOMPARE(w.tracePlot()->caption(), QStringLiteral("tiny.json is open: press Run."));
  }

  void aShortRunFillsEveryView() {
    QTemporaryDir dir;
    const infer::NaiveBayesRelease release = tinyRelease(1.0);
    const QString path = writeAnalyzeFile(dir, "tiny.json", infer::releaseToJson(release));
    AnalyzeWorkspace w;
    AnalyzeErrors errors;
    w.setErrorSink(errors.sink());
    QVERIFY(w.openRelease(path));
    shortRun(w, 60, 20, 2, "7");
    QSignalSpy ended(&w, &AnalyzeWorkspace::runEnded);
    QVERIFY(w.startRun());
    QVERIFY(waitForAnalysis(ended));
    QVERIFY2(errors.messages->isEmpty(), qPrintable(errors.messages->join('\n')));
    QVERIFY(w.mergedBatches() > 0);
    const auto* status = w.findChild<QLabel*>(QStringLiteral("inferenceStatus"));
    QVERIFY(status != nullptr);
    QVERIFY2(status->text().contains("NOT converged"), qPrintable(status->text()));

    // The same settings straight through core give the same run (seeded).
    const infer::NaiveBayesModel model = release.model();
    infer::DaConfig config;
    config.iterations = 60;
    config.warmup = 20;
    config.chains = 2;
    config.seed = 7;
    const infer::DaResult direct = infer::runDataAugmentation(model, config);
    const infer::DaResult& shown = *w.lastOutput()->result;
    for (std::size_t c = 0; c < 2; ++c) QVERIFY(shown.chains[c].draws == direct.chains[c].draws);

    // Traces: one point per kept draw, every parameter, every chain.
    for (int c = 0; c < 2; ++c) {
      for (int p = 0; p < model.parameterDim(); ++p) {
        QCOMPARE(w.tracePlot()->trace(c, p).drawCount(), std::int64_t{40});
      }
    }
    // Acceptance: one point per sweep, never below e^{−ε}.
    const double bound = std::exp(-1.0);
    QCOMPARE(w.acceptancePlot()->bound(), bound);
    for (int c = 0; c < 2; ++c) {
      QCOMPARE(w.acceptancePlot()->sweeps(c).size(), std::size_t{60});
      for (double a : w.acceptancePlot()->sweeps(c))
        QVERIFY2(a >= bound, qPrintable(QString::number(a)));
    }
    QCOMPARE(w.recordPlot()->sortedRecords().size(), std::size_t{30});
    // Each plot's caption names what it shows (not "no results").
    QCOMPARE(w.acceptancePlot()->shownMechanisms(), QStringLiteral("2 chains of the release"));
    QCOMPARE(w.recordPlot()->shownMechanisms(), QStringLiteral("30 latent records, all chains"));
    QVERIFY(w.densityPlot()->shownMechanisms().endsWith("from the release"));
    QVERIFY(w.recordPlot()->sortedRecords().front() >= bound);

    // The summary table is core's summarize().
    const auto expected = infer::summarize(model, direct);
    const InferenceSummaryTable* table = w.summaryTable();
    QCOMPARE(table->table()->rowCount(), static_cast<int>(expected.size()));
    for (int r = 0; r < static_cast<int>(expected.size()); ++r) {
      const auto& s = expected[static_cast<std::size_t>(r)];
      QCOMPARE(table->table()->item(r, InferenceSummaryTable::Parameter)->text(),
               QString::fromStdString(s.name));
      QCOMPARE(table->value(r, InferenceSummaryTable::Mean), s.mean);
      QCOMPARE(table->value(r, InferenceSummaryTable::Sd), s.sd);
      QCOMPARE(table->value(r, InferenceSummaryTable::Q05), s.q05);
      QCOMPARE(table->value(r, InferenceSummaryTable::Q50), s.q50);
      QCOMPARE(table->value(r, InferenceSummaryTable::Q95), s.q95);
      QCOMPARE(table->value(r, InferenceSummaryTable::Rhat), s.rhat);
      QCOMPARE(table->value(r, InferenceSummaryTable::Ess), s.ess);
    }
    QVERIFY(table->acceptanceLabel()->text().contains("minimum"));
    QCOMPARE(w.progressBar()->value(), w.progressBar()->maximum());

    // Density: the posterior from the release and the prior (no confidential data loaded).
    const QStringList curves = w.densityPlot()->curveNames();
    QCOMPARE(curves.size(), qsizetype{2});
    QVERIFY(curves.at(0).contains("80 draws"));
    QCOMPARE(curves.at(1), QStringLiteral("prior"));

    // Export writes what `dpsynth infer` writes.
    QVERIFY(w.exportRun(dir.filePath("out")));
    QCOMPARE(dpsynth::core::data::readRegularFile(dir.filePath("out/draws.csv").toStdString()),
             infer::inferDrawsCsv(model, shown));
    QCOMPARE(dpsynth::core::data::readRegularFile(dir.filePath("out/trace.csv").toStdString()),
             infer::inferTraceCsv(shown));
    const std::string summary =
        dpsynth::core::data::readRegularFile(dir.filePath("out/summary.json").toStdString());
    QVERIFY(summary.find("\"min_acceptance\"") != std::string::npos);
    QVERIFY(summary.find("\"not_for_release\": true") != std::string::npos);
    // 40 draws per chain cannot give 100 effective draws per chain: the exported summary says
    // the chains have not converged, as `dpsynth infer` does (and the status did, above).
    QVERIFY(summary.find("\"converged\": false") != std::string::npos);
    QVERIFY(summary.find("bulk-ESS") != std::string::npos);
    // The status line that said so still does after the export.
    QVERIFY2(w.statusLabel()->text().contains("NOT converged"),
             qPrintable(w.statusLabel()->text()));
  }

  /// Export writes three names a user's own files have too (summary.json): it replaces an
  /// earlier export's, asks before replacing anything else, and never replaces the release it
  /// analyses.
  void anExportNeverReplacesAFileItDidNotWriteUnasked() {
    QTemporaryDir dir;
    const QString out = dir.filePath("out");
    QVERIFY(QDir().mkpath(out));
    const QString path = writeAnalyzeFile(dir, "tiny.json", infer::releaseToJson(tinyRelease(1.0)));
    AnalyzeWorkspace w;
    AnalyzeErrors errors;
    w.setErrorSink(errors.sink());
    QVERIFY(w.openRelease(path));
    shortRun(w, 20, 10, 1, "4");
    QSignalSpy ended(&w, &AnalyzeWorkspace::runEnded);
    QVERIFY(w.startRun());
    QVERIFY(waitForAnalysis(ended));
    const QString mine = writeAnalyzeFile(dir, "out/summary.json", "the analyst's notes\n");
    w.setExportFolderChooser([out](const QString&) { return out; });
    QStringList asked;
    bool answer = false;
    w.setReplaceQuestion([&](const QString& text) {
      asked << text;
      return answer;
    });
    // Asked, answered No: nothing written.
    w.exportButton()->click();
    QCOMPARE(asked.size(), qsizetype{1});
    QVERIFY2(asked.front().startsWith(out + " holds summary.json, which dpsynth did not write "
                                            "(or which changed since it wrote it)."),
             qPrintable(asked.front()));
    QCOMPARE(dpsynth::core::data::readRegularFile(mine.toStdString()),
             std::string("the analyst's notes\n"));
    QVERIFY(!QFile::exists(QDir(out).filePath("draws.csv")));
    // Called without leave, the export refuses the file by name.
    QVERIFY(!w.exportRun(out));
    QVERIFY2(errors.messages->back().contains("summary.json"), qPrintable(errors.messages->back()));
    QVERIFY(!QFile::exists(QDir(out).filePath("draws.csv")));
    // Answered Yes: written; the next export replaces its own files without a question.
    answer = true;
    w.exportButton()->click();
    QVERIFY(QFile::exists(QDir(out).filePath("draws.csv")));
    QVERIFY(dpsynth::core::data::readRegularFile(mine.toStdString()).find("min_acceptance") !=
            std::string::npos);
    w.exportButton()->click();
    QCOMPARE(asked.size(), qsizetype{2});
    // The release under analysis is never an output, asked or not.
    const QString inside = dir.filePath("inside");
    QVERIFY(QDir().mkpath(inside));
    const QString release =
        writeAnalyzeFile(dir, "inside/summary.json", infer::releaseToJson(tinyRelease(1.0)));
    const std::string before = dpsynth::core::data::readRegularFile(release.toStdString());
    QVERIFY(w.openRelease(release));
    QVERIFY(w.startRun());
    QVERIFY(waitForAnalysis(ended));
    w.setExportFolderChooser([inside](const QString&) { return inside; });
    w.exportButton()->click();
    QCOMPARE(asked.size(), qsizetype{2});
    QVERIFY2(errors.messages->back().contains("summary.json"), qPrintable(errors.messages->back()));
    QVERIFY(!w.exportRun(inside, true));
    QCOMPARE(dpsynth::core::data::readRegularFile(release.toStdString()), before);
    QVERIFY(!QFile::exists(QDir(inside).filePath("draws.csv")));
  }

  void theConfidentialPosteriorShowsWhenItsDataIsLoaded() {
    QTemporaryDir dir;
    const QString path = writeAnalyzeFile(dir, "tiny.json", infer::releaseToJson(tinyRelease(1.0)));
    AnalyzeWorkspace w;
    QVERIFY(w.openRelease(path));
    shortRun(w, 30, 10, 1, "3");
    QSignalSpy ended(&w, &AnalyzeWorkspace::runEnded);
    QVERIFY(w.startRun());
    QVERIFY(waitForAnalysis(ended));
    QCOMPARE(w.densityPlot()->curveNames().size(), qsizetype{2});
    w.setLoadedData(std::make_shared<const dpsynth::core::data::CsvTable>(
        dpsynth::core::data::parseCsv(analyzeCsvText(), "conf.csv")));
    const QStringList curves = w.densityPlot()->curveNames();
    QCOMPARE(curves.size(), qsizetype{3});
    QVERIFY2(curves.at(1).contains("confidential-data posterior (conf.csv, class cls)"),
             qPrintable(curves.join('|')));
  }

  void cancelStopsTheRun() {
    QTemporaryDir dir;
    const QString path = writeAnalyzeFile(dir, "tiny.json", infer::releaseToJson(tinyRelease(1.0)));
    AnalyzeWorkspace w;
    QVERIFY(w.openRelease(path));
    shortRun(w, 5'000'000, 10, 2, "5");
    QSignalSpy ended(&w, &AnalyzeWorkspace::runEnded);
    QVERIFY(w.startRun());
    QVERIFY(w.isRunning());
    QVERIFY(w.cancelButton()->isEnabled());
    w.cancelRun();
    QVERIFY(!waitForAnalysis(ended));
    QVERIFY(!w.isRunning());
    QVERIFY(!w.lastOutput().has_value());
    QVERIFY(w.runButton()->isEnabled());
    QVERIFY(w.statusLabel()->text().startsWith("Cancelled"));
  }

  void aMalformedReleaseShowsTheCoreMessage() {
    QTemporaryDir dir;
    const std::string text = R"({"version": 1, "kind": "naive-bayes", "epsilon": "one"})";
    const QString path = writeAnalyzeFile(dir, "bad.json", text);
    std::string expected;
    try {
      infer::releaseFromJson(text, path.toStdString());
    } catch (const std::exception& e) {
      expected = e.what();
    }
    QVERIFY(!expected.empty());
    AnalyzeWorkspace w;
    AnalyzeErrors errors;
    w.setErrorSink(errors.sink());
    QVERIFY(!w.openRelease(path));
    QCOMPARE(errors.messages->size(), qsizetype{1});
    QCOMPARE(errors.messages->front(), QString::fromStdString(expected));
    QVERIFY(!w.release().has_value());
    QVERIFY(!w.runButton()->isEnabled());
    QVERIFY(!w.openRelease(dir.filePath("missing.json")));  // unreadable: a message, no crash
    QCOMPARE(errors.messages->size(), qsizetype{2});
  }

  void makesARealReleaseFromTheLoadedData() {
    QTemporaryDir dir;
    AnalyzeWorkspace w;
    AnalyzeErrors errors;
    w.setErrorSink(errors.sink());
    QVERIFY(!w.makeButton()->isEnabled());  // no data loaded
    w.setLoadedData(std::make_shared<const dpsynth::core::data::CsvTable>(
        dpsynth::core::data::parseCsv(analyzeCsvText(), "conf.csv")));
    QVERIFY(w.makeButton()->isEnabled());
    const QString out = dir.filePath("made.json");
    const std::map<std::string, std::vector<std::string>> levels{{"cls", {"a", "b"}},
                                                                 {"f", {"x", "y"}}};
    QVERIFY2(w.makeRelease("cls", {"f"}, levels, 2.0, out),
             qPrintable(errors.messages->join('\n')));
    const infer::NaiveBayesRelease made = infer::releaseFromJson(
        dpsynth::core::data::readRegularFile(out.toStdString()), out.toStdString());
    QVERIFY(!made.notForRelease);  // OS randomness, as in the command line
    QCOMPARE(made.n, 30);
    QCOMPARE(made.epsilon, 2.0);
    QVERIFY(made.layout.classes == analyzeLayout().classes);
    QVERIFY(made.layout.levels == analyzeLayout().levels);
    QVERIFY(w.release().has_value());
    QCOMPARE(w.release()->n, 30);
    // The class cannot also be a feature: the core's message, nothing written.
    QVERIFY(!w.makeRelease("cls", {"cls"}, levels, 1.0, dir.filePath("again.json")));
    QVERIFY(!QFile::exists(dir.filePath("again.json")));
    // As on the command line, a value outside the declared levels is refused.
    const std::map<std::string, std::vector<std::string>> partial{{"cls", {"a", "b"}},
                                                                  {"f", {"x", "z"}}};
    QVERIFY(!w.makeRelease("cls", {"f"}, partial, 1.0, dir.filePath("again.json")));
    QVERIFY2(errors.messages->back().contains("'y' is not one of the declared levels"),
             qPrintable(errors.messages->back()));
    QVERIFY(!QFile::exists(dir.filePath("again.json")));
  }

  void theWindowHostsTheWorkspace() {
    dpsynth::ui::MainWindow window;
    QTabWidget* tabs = window.workspaces();
    int found = -1;
    for (int i = 0; i < tabs->count(); ++i) {
      if (tabs->tabText(i) == QStringLiteral("Analyze a release")) found = i;
    }
    QVERIFY(found > 0);
    auto* w = qobject_cast<AnalyzeWorkspace*>(tabs->widget(found));
    QVERIFY(w != nullptr);
    window.loadDefaults();
    QVERIFY(w->makeButton()->isEnabled());  // the synthesis workspace's data reached it
  }

 private:
  QTemporaryDir settingsDir_;
};

QTEST_MAIN(AnalyzeWorkspaceTest)
#include "analyze_workspace_test.moc"
