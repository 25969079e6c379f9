/// exportRun: the exact file set, the results table on disk, the release note's confidentiality,
/// escaping of column names, determinism and nothing partial on refusal.
#include "core/report/export_run.h"

#include <QDir>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/data/csv_writer.h"
#include "core/data/sha256.h"
#include "core/infer/ph_release.h"
#include "core/pipeline/bundle_writer.h"
#include "core/pipeline/export.h"
#include "core/pipeline/release_claim.h"
#include "core/pipeline/synthesis.h"
#include "core/report/html_writer.h"
#include "core/report/results_table.h"
#include "core/summary/run_summary.h"
#include "core/utility/utility.h"
#include "support/test_files.h"

namespace report = dpsynth::core::report;
namespace pipeline = dpsynth::core::pipeline;
namespace data = dpsynth::core::data;
namespace session = dpsynth::core::session;
namespace utility = dpsynth::core::utility;
namespace summary = dpsynth::core::summary;

namespace {

/// Export options for a folder and m datasets, the rest left at their defaults.
report::ExportOptions exportRunOptions(const QString& folder, int m) {
  report::ExportOptions options;
  options.outDir = folder.toStdString();
  options.syntheticDatasets = m;
  return options;
}

const std::string kOutcome = "y<b>&'";  // a column name that must be escaped in HTML
const std::string kCovariate = "x<i>";

/// `number` as a whole token: not part of a longer number.
bool containsNumber(const std::string& text, const std::string& number) {
  const QRegularExpression re(
      "(?<![0-9.])" + QRegularExpression::escape(QString::fromStdString(number)) + "(?![0-9])");
  return re.match(QString::fromStdString(text)).hasMatch();
}

}  // namespace

class ExportRunTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    // y = 50 + 3x + noise: non-integer statistics, so a leaked number cannot hide among counts.
    std::vector<std::vector<std::string>> rows;
    for (int i = 0; i < 300; ++i) {
      const double x = (i % 17) / 4.0;
      const double y = 50 + 3 * x + 9 * std::sin(i * 1.7) + 0.013 * i;
      rows.push_back({data::formatNumber(x), data::formatNumber(std::round(y * 1000) / 1000)});
    }
    dataPath_ = tmp_.filePath("data.csv").toStdString();
    data::writeCsvAtomic(dataPath_, {kCovariate, kOutcome}, rows);

    session_.dataFile = dataPath_;
    session_.dataSha256 = data::sha256File(dataPath_);
    session_.dataset.outcome = kOutcome;
    session_.dataset.covariates = {kCovariate};
    session_.dataset.family = dpsynth::core::models::Family::normal;
    pipeline::MechanismConfig lw, censor, ph;
    lw.mechanism = pipeline::Mechanism::lw;
    censor.mechanism = pipeline::Mechanism::censorW;
    censor.epsilon = 6;
    ph.mechanism = pipeline::Mechanism::ph;
    ph.epsilon = 1;
    ph.lower = 0;
    ph.upper = 100;
    ph.reproducibleNoise = true;
    session_.mechanisms = {lw, censor, ph};
    session_.run.model.family = session_.dataset.family;
    session_.run.model.sdScale = 10;
    session_.run.nuts.chains = 2;
    session_.run.nuts.warmup = 150;
    session_.run.nuts.draws = 150;
    session_.run.nuts.seed = 11;
    session_.reproducible = true;

    dataset_ = data::buildDataset(data::readCsv(dataPath_), session_.dataset);
    pipeline::StageCache cache;
    seeded_ = pipeline::runMechanisms(dataset_, session_.mechanisms, session_.run, &cache);
    QCOMPARE(seeded_.mechanisms.size(), std::size_t(3));
    // The same results as a release would give them (secret seed, OS noise): what exportRun
    // writes depends on these flags alone, and the seeded numbers keep the test deterministic.
    run_ = seeded_;
    for (auto& m : run_.mechanisms) {
      m.notForRelease = false;
      if (m.ph) m.ph->forRelease = true;
    }
    out_ = tmp_.filePath("out");
    files_ = report::exportRun(session_, dataset_, run_, session_.run, exportRunOptions(out_, 1));
    seededOut_ = tmp_.filePath("seeded");
    seededFiles_ = report::exportRun(session_, dataset_, seeded_, session_.run,
                                     exportRunOptions(seededOut_, 1));
  }

  void writesExactlyTheDocumentedFiles() {
    const std::vector<std::string> expected{
        "release/synthetic_lw.csv",       "release/synthetic_lw.csv.json",
        "release/synthetic_censor-w.csv", "release/synthetic_censor-w.csv.json",
        "release/synthetic_ph.csv",       "release/synthetic_ph.csv.json",
        "release/ph-release_ph.json",     "release/release_note.html",
        "internal/report_lw.json",        "internal/report_censor-w.json",
        "internal/report_ph.json",        "internal/results.csv",
        "internal/internal_report.html",  "internal/session.dpsynth"};
    QCOMPARE(report::exportFileNames(run_, 1), expected);
    QCOMPARE(files_.files.size(), expected.size());
    QVERIFY(files_.refusals.empty());
    QStringList release, internal;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      QCOMPARE(QString::fromStdString(files_.files[i]),
               QDir(out_).absoluteFilePath(QString::fromStdString(expected[i])));
      const QString name = QString::fromStdString(expected[i]);
      (name.startsWith("release/") ? release : internal) << name.section('/', 1);
    }
    // Each folder also holds its ownership manifest, which is not among the listed files.
    release << ".dpsynth-manifest.json";
    internal << ".dpsynth-manifest.json";
    release.sort();
    internal.sort();
    // Two folders and no temporary folder left behind; nothing else in either.
    QCOMPARE(dpsynth::test::folderEntries(out_), (QStringList{"internal", "release"}));
    QCOMPARE(dpsynth::test::folderEntries(out_ + "/release"), release);
    QCOMPARE(dpsynth::test::folderEntries(out_ + "/internal"), internal);
  }

  /// SPEC §0: a seeded run claims nothing and never writes into release/; its files, note
  /// included, go to internal/.
  void aSeededRunWritesNothingIntoRelease() {
    const std::vector<std::string> expected{
        "internal/synthetic_lw.csv",       "internal/synthetic_lw.csv.json",
        "internal/synthetic_censor-w.csv", "internal/synthetic_censor-w.csv.json",
        "internal/synthetic_ph.csv",       "internal/synthetic_ph.csv.json",
        "internal/ph-release_ph.json",     "internal/release_note.html",
        "internal/report_lw.json",         "internal/report_censor-w.json",
        "internal/report_ph.json",         "internal/results.csv",
        "internal/internal_report.html",   "internal/session.dpsynth"};
    QCOMPARE(report::exportFileNames(seeded_, 1), expected);
    QCOMPARE(seededFiles_.files.size(), expected.size());
    QCOMPARE(dpsynth::test::folderEntries(seededOut_), QStringList{"internal"});
    for (const char* label : {"lw", "censor-w", "ph"}) {
      const auto side = nlohmann::json::parse(
          dpsynth::test::readFile(seededOut_ + "/internal/synthetic_" + label + ".csv.json"));
      QCOMPARE(side["guarantee"].get<std::string>(), std::string("none"));
      QCOMPARE(side["not_for_release"].get<bool>(), true);
      QVERIFY(side["epsilon"].is_null());
      QVERIFY(!side.contains("composition"));
      const auto report = nlohmann::json::parse(
          dpsynth::test::readFile(seededOut_ + "/internal/report_" + label + ".json"));
      QCOMPARE(report["guarantee"].get<std::string>(), std::string("none"));
      QCOMPARE(report["not_for_release"].get<bool>(), true);
    }
    const auto ph = nlohmann::json::parse(
        dpsynth::test::readFile(seededOut_ + "/internal/synthetic_ph.csv.json"));
    QCOMPARE(ph["guarantee_if_released"].get<std::string>(), std::string("DP"));
    QCOMPARE(ph["epsilon_if_released"].get<double>(), 1.0);
    // The note says NOT FOR RELEASE and never that the run rests on secret OS randomness.
    const std::string note = dpsynth::test::readFile(seededOut_ + "/internal/release_note.html");
    QVERIFY(note.find("NOT FOR RELEASE") != std::string::npos);
    QVERIFY(note.find("operating system") == std::string::npos);
    QVERIFY(note.find("Strict ε-differential privacy") == std::string::npos);
  }

  /// SPEC §0: the unweighted fit (no guarantee) never enters release/, even in a release run.
  void theUnweightedFitNeverEntersRelease() {
    session::Session s = session_;
    pipeline::MechanismConfig unweighted, lw;
    unweighted.mechanism = pipeline::Mechanism::unweighted;
    lw.mechanism = pipeline::Mechanism::lw;
    s.mechanisms = {unweighted, lw};
    pipeline::RunSettings settings = s.run;
    pipeline::makeRelease(settings);
    const auto run = pipeline::runMechanisms(dataset_, s.mechanisms, settings);
    const QString dir = tmp_.filePath("with-unweighted");
    const auto files = report::exportRun(s, dataset_, run, settings, exportRunOptions(dir, 1));
    QVERIFY(files.refusals.empty());
    QCOMPARE(dpsynth::test::folderEntries(dir + "/release"),
             (QStringList{".dpsynth-manifest.json", "release_note.html", "synthetic_lw.csv",
                          "synthetic_lw.csv.json"}));
    QVERIFY(QFile::exists(dir + "/internal/synthetic_unweighted.csv"));
    const std::string note = dpsynth::test::readFile(dir + "/release/release_note.html");
    QVERIFY(note.find("synthetic_unweighted") == std::string::npos);
    // A release of the unweighted fit alone writes no release/ at all.
    s.mechanisms = {unweighted};
    const auto alone = pipeline::runMechanisms(dataset_, s.mechanisms, settings);
    const QString only = tmp_.filePath("unweighted-only");
    report::exportRun(s, dataset_, alone, settings, exportRunOptions(only, 1));
    QCOMPARE(dpsynth::test::folderEntries(only), QStringList{"internal"});
  }

  /// Issue 21, 5: an export that is stopped writes nothing and says so; the datasets it writes
  /// one at a time are the ones synthesize() draws.
  void aStoppedExportWritesNothing() {
    const QString dir = tmp_.filePath("stopped");
    report::ExportOptions options = exportRunOptions(dir, 3);
    std::stop_source stop;
    stop.request_stop();
    options.stop = stop.get_token();
    const auto out = report::exportRun(session_, dataset_, run_, session_.run, options);
    QVERIFY(out.cancelled);
    QVERIFY(out.files.empty());
    QVERIFY(!QFileInfo::exists(dir));  // not even the folder it would have created
    // Not stopped: each of the m files holds synthesize()'s dataset j in its row order.
    report::ExportOptions whole = exportRunOptions(dir, 3);
    const auto written = report::exportRun(session_, dataset_, run_, session_.run, whole);
    QVERIFY(!written.cancelled);
    const auto expected =
        pipeline::synthesize(dataset_, run_.mechanisms[0], session_.run.model, 3, 11);
    for (int j = 0; j < 3; ++j)
      QCOMPARE(dpsynth::test::readFile(dir + QString("/release/synthetic_lw_%1.csv").arg(j + 1)),
               pipeline::syntheticCsvText(dataset_, expected[static_cast<std::size_t>(j)], 11, j));
  }

  void aRefusalWithholdsOnlyItsOwnMechanism() {
    // Whether one mechanism's release appears must not rest on another's check of the
    // confidential data: a refused regression once withheld every other file, a DP histogram's
    // too.
    const QString dir = tmp_.filePath("refused");
    report::exportRun(session_, dataset_, run_, session_.run, exportRunOptions(dir, 1));
    pipeline::RunResult refused = run_;
    refused.mechanisms[1].refusals = {"stage censor-w: R-hat 1.200 for beta[0] is above 1.01"};
    const auto out =
        report::exportRun(session_, dataset_, refused, session_.run, exportRunOptions(dir, 1));
    QCOMPARE(out.refusals.size(), std::size_t(1));
    QVERIFY(out.refusals[0].find("R-hat 1.200") != std::string::npos);
    QVERIFY(QFileInfo::exists(dir + "/release/synthetic_lw.csv"));
    for (const auto& f : out.files)
      QVERIFY2(f.find("synthetic_censor-w") == std::string::npos, f.c_str());
    QVERIFY(!QFileInfo::exists(dir + "/release/synthetic_censor-w.csv"));
    QVERIFY(!QFileInfo::exists(dir + "/internal/synthetic_censor-w.csv"));
    const auto j =
        nlohmann::json::parse(dpsynth::test::readFile(dir + "/internal/report_censor-w.json"));
    QCOMPARE(j["release_refused"].size(), std::size_t(1));
    // The release note describes what release/ holds: the refused mechanism is not in it.
    const std::string note = dpsynth::test::readFile(dir + "/release/release_note.html");
    QVERIFY(note.find("censor-w") == std::string::npos);
  }

  void whenEveryReleaseIsRefusedOnlyTheInternalFolderIsWritten() {
    const QString dir = tmp_.filePath("all-refused");
    report::exportRun(session_, dataset_, run_, session_.run, exportRunOptions(dir, 1));
    const std::string before = dpsynth::test::readFile(dir + "/release/synthetic_lw.csv");
    pipeline::RunResult refused = run_;
    for (auto& m : refused.mechanisms)
      if (pipeline::releasable(m)) m.refusals = {"stage: R-hat 1.200 for beta[0] is above 1.01"};
    const auto out =
        report::exportRun(session_, dataset_, refused, session_.run, exportRunOptions(dir, 1));
    QVERIFY(!out.refusals.empty());
    for (const auto& f : out.files) QVERIFY(f.find("/internal/") != std::string::npos);
    // The earlier release went with the internal/ it belonged to: no mix of two runs is left.
    QVERIFY(!before.empty());
    QCOMPARE(dpsynth::test::folderEntries(dir), QStringList{"internal"});
    QCOMPARE(out.removedFolders,
             std::vector<std::string>{QDir(dir).absoluteFilePath("release").toStdString()});
  }

  /// A run's two folders are one set: a run with nothing releasable (seeded, or unweighted
  /// alone) replaces internal/ and takes an earlier run's release/ away in the same commit;
  /// it used to leave that release/ beside an internal/ that did not describe it.
  void aRunWithNothingReleasableRemovesTheEarlierRelease() {
    const QString dir = tmp_.filePath("set");
    report::ExportOptions options = exportRunOptions(dir, 1);
    options.refuseForeignFiles = true;  // `dpsynth run` without --replace, and the studio
    report::exportRun(session_, dataset_, run_, session_.run, options);
    QVERIFY(QFile::exists(dir + "/release/synthetic_lw.csv"));
    // A file the user put in release/ is neither deleted nor left behind: refused, unchanged.
    { std::ofstream((dir + "/release/mine.txt").toStdString()) << "mine"; }
    const QStringList releaseBefore = dpsynth::test::folderEntries(dir + "/release");
    const std::string resultsBefore = dpsynth::test::readFile(dir + "/internal/results.csv");
    try {
      report::exportRun(session_, dataset_, seeded_, session_.run, options);
      QFAIL("a release/ holding the user's file was removed");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(std::string(e.what()).find("refusing to remove") != std::string::npos &&
                   std::string(e.what()).find("mine.txt") != std::string::npos,
               e.what());
    }
    QCOMPARE(dpsynth::test::folderEntries(dir + "/release"), releaseBefore);
    QCOMPARE(dpsynth::test::readFile(dir + "/internal/results.csv"), resultsBefore);
    QVERIFY(QFile::remove(dir + "/release/mine.txt"));
    const auto out = report::exportRun(session_, dataset_, seeded_, session_.run, options);
    QCOMPARE(dpsynth::test::folderEntries(dir), QStringList{"internal"});
    QCOMPARE(out.removedFolders,
             std::vector<std::string>{QDir(dir).absoluteFilePath("release").toStdString()});
    QVERIFY(QFile::exists(dir + "/internal/synthetic_lw.csv"));
    // Nothing to remove the next time: removedFolders says only what went.
    QVERIFY(report::exportRun(session_, dataset_, seeded_, session_.run, options)
                .removedFolders.empty());
  }

  void resultsCsvHoldsTheTableRows() {
    const auto rows = summary::summarizeRun(dataset_, run_, session_.run).rows;
    std::string expected =
        "mechanism,guarantee,lipschitz,epsilon,censored,truncated,max_ecdf,"
        "avg_ecdf,mean,median,q15,q90,marginal_only,ci_overlap,max_std_diff,pmse,"
        "max_group_mean_diff,replicated_uniques,attribute_cap,attribute_cap_baseline,"
        "dcr_share\n";
    for (const auto& r : report::resultsCsvRows(rows)) {
      std::string line;
      for (const auto& f : r) line += (line.empty() ? "" : ",") + f;
      expected += line + "\n";
    }
    QCOMPARE(dpsynth::test::readFile(out_ + "/internal/results.csv"), expected);
    QVERIFY(expected.find("\nconfidential,,,,,,,,") != std::string::npos);
    // censor-w with weights from the data it releases is aDP, never DP (SPEC §0).
    QVERIFY(expected.find("\ncensor-w,aDP,") != std::string::npos);
    // The report JSON of each mechanism shows the same utility numbers.
    const auto j =
        nlohmann::json::parse(dpsynth::test::readFile(out_ + "/internal/report_censor-w.json"));
    QCOMPARE(j["utility"]["mean"].get<double>(), rows[2].mean);
    QCOMPARE(j["utility"]["max_ecdf"].get<double>(), *rows[2].maxEcdf);
    QCOMPARE(j["confidential"]["q90"].get<double>(), rows[0].q90);
  }

  void releaseNoteHoldsNoConfidentialNumbers() {
    // The style sheet holds layout numbers only ("margin: 0.6em"); a max-ECDF, a multiple of
    // 1/n, can print the same digits, so only the text outside it is scanned.
    std::string note = dpsynth::test::readFile(out_ + "/release/release_note.html");
    const auto styleBegin = note.find("<style");
    const auto styleEnd = note.find("</style>");
    QVERIFY(styleBegin != std::string::npos && styleEnd != std::string::npos);
    note.erase(styleBegin, styleEnd - styleBegin);
    const std::string internal = dpsynth::test::readFile(out_ + "/internal/internal_report.html");
    std::vector<double> secret;
    const auto c = utility::describe(dataset_.y);
    secret.insert(secret.end(), {c.mean, c.median, c.q15, c.q90});
    for (const auto& m : run_.mechanisms) {
      if (!m.final) continue;
      const auto& f = *m.final;
      const auto& w = f.weights;
      secret.insert(secret.end(), {w.min, w.q25, w.median, w.mean, w.q75, w.max, f.lipschitz.max,
                                   f.lipschitz.q90, f.lipschitz.q95});
      for (const auto& p : f.posterior) secret.insert(secret.end(), {p.mean, p.sd, p.q975});
    }
    for (const auto& row : summary::summarizeRun(dataset_, run_, session_.run).rows)
      if (row.maxEcdf) secret.insert(secret.end(), {*row.maxEcdf, *row.avgEcdf});
    int checked = 0;
    for (double v : secret) {
      if (v == 0 || v == 1) continue;  // weights of exactly 0 or 1 are not informative
      // A censored fit's bound that sits at the clamp is the public interval, not a statistic.
      bool atClamp = false;
      for (const auto& m : run_.mechanisms)
        if (m.clamp) atClamp |= v == -m.clamp->lower || v == m.clamp->upper;
      if (atClamp) continue;
      const std::string text = report::displayNumber(v);
      QVERIFY2(containsNumber(internal, text), text.c_str());  // the format matches
      QVERIFY2(!containsNumber(note, text), text.c_str());
      ++checked;
    }
    QVERIFY(checked >= 20);
    // Per-record quantities: the release note has no chart and no weights.
    QVERIFY(note.find("<svg") == std::string::npos);
    QVERIFY(note.find("α") == std::string::npos);
    QVERIFY(note.find("ECDF") == std::string::npos);
    QVERIFY(internal.find("CONFIDENTIAL") != std::string::npos);
    QVERIFY(note.find("CONFIDENTIAL") == std::string::npos);
  }

  void phReleaseFileHoldsTheNoisyCountsOnly() {
    // The ph mechanism's DP output, readable by `dpsynth infer`; never the exact counts, the
    // probabilities or a data summary.
    const std::string text = dpsynth::test::readFile(out_ + "/release/ph-release_ph.json");
    const auto r = dpsynth::core::infer::phReleaseFromJson(text, "ph-release_ph.json");
    const auto& ph = *run_.mechanisms[2].ph;
    QVERIFY(r.noisyCounts == ph.noisy);
    QCOMPARE(r.n, 300);
    QCOMPARE(r.lower, 0.0);
    QCOMPARE(r.upper, 100.0);
    QCOMPARE(r.epsilon, 1.0);
    QCOMPARE(r.sensitivity(), 2);
    QCOMPARE(r.nSource, dpsynth::core::privacy::SizeSource::publicSize);
    QVERIFY(!r.notForRelease);
    const auto j = nlohmann::json::parse(text);
    for (const char* key : {"counts", "probabilities", "seed", "data", "file"})
      QVERIFY2(!j.contains(key), key);
    const auto c = utility::describe(dataset_.y);
    for (double v : {c.mean, c.median, c.q15, c.q90})
      QVERIFY2(!containsNumber(text, report::displayNumber(v)), report::displayNumber(v).c_str());
  }

  void releaseNoteDescribesTheRelease() {
    const std::string note = dpsynth::test::readFile(out_ + "/release/release_note.html");
    const auto syn = pipeline::synthesize(dataset_, run_.mechanisms[1], session_.run.model, 1, 11);
    QVERIFY(containsNumber(note, report::displayNumber(utility::describe(syn[0]).mean)));
    QVERIFY(note.find("Strict ε-differential privacy") != std::string::npos);
    QVERIFY(note.find("Asymptotic differential privacy") != std::string::npos);
    QVERIFY(note.find("NOT FOR RELEASE") == std::string::npos);
    // aDP's ε_x is published rounded up to two decimals, never at full precision.
    QVERIFY(containsNumber(
        note, report::displayNumber(pipeline::roundUpEpsilon(run_.mechanisms[0].epsilon))));
    QVERIFY(!containsNumber(note, report::displayNumber(run_.mechanisms[0].epsilon)));
    QVERIFY(note.find("replace-one") != std::string::npos);
  }

  void columnNamesAreEscaped() {
    for (const QString file : {"internal/internal_report.html", "release/release_note.html"}) {
      const std::string html = dpsynth::test::readFile(out_ + "/" + file);
      QVERIFY2(html.find("y&lt;b&gt;&amp;&#39;") != std::string::npos, qPrintable(file));
      QVERIFY2(html.find("y<b>") == std::string::npos, qPrintable(file));
      QVERIFY2(html.find("x<i>") == std::string::npos, qPrintable(file));
    }
  }

  void htmlIsSelfContained() {
    for (const QString file : {"internal/internal_report.html", "release/release_note.html"}) {
      std::string html = dpsynth::test::readFile(out_ + "/" + file);
      const std::string ns = "xmlns=\"http://www.w3.org/2000/svg\"";  // a name, never fetched
      for (auto at = html.find(ns); at != std::string::npos; at = html.find(ns))
        html.erase(at, ns.size());
      for (const char* bad : {"<script", "http:", "https:", "src=", "href=", "url(", "<link"})
        QVERIFY2(html.find(bad) == std::string::npos, bad);
    }
  }

  void exportIsDeterministic() {
    const QString again = tmp_.filePath("again");
    report::exportRun(session_, dataset_, run_, session_.run, exportRunOptions(again, 1));
    for (const QString file :
         {"internal/results.csv", "internal/internal_report.html", "release/release_note.html",
          "internal/session.dpsynth", "release/synthetic_lw.csv", "release/synthetic_ph.csv.json"})
      QVERIFY2(
          dpsynth::test::readFile(out_ + "/" + file) == dpsynth::test::readFile(again + "/" + file),
          qPrintable(file));
  }

  void severalDatasetsAreNumbered() {
    const QString dir = tmp_.filePath("m3");
    report::exportRun(session_, dataset_, run_, session_.run, exportRunOptions(dir, 3));
    for (int j = 1; j <= 3; ++j)
      QVERIFY(QFile::exists(dir + QString("/release/synthetic_lw_%1.csv").arg(j)));
    QVERIFY(!QFile::exists(dir + "/release/synthetic_lw.csv"));
    const std::string note = dpsynth::test::readFile(dir + "/release/release_note.html");
    QVERIFY(note.find("synthetic_censor-w_3.csv") != std::string::npos);
    // Three PH datasets come from one noisy histogram: they spend ε = 1 once, not 3 · ε.
    QVERIFY(note.find("one noisy histogram)</th><td>1</td>") != std::string::npos);
    const auto side =
        nlohmann::json::parse(dpsynth::test::readFile(dir + "/release/synthetic_ph.csv.json"));
    QCOMPARE(side["composition"]["epsilon_total"].get<double>(), 1.0);
  }

  void sessionFileReloads() {
    const auto reloaded = session::fromJson(
        dpsynth::test::readFile(out_ + "/internal/session.dpsynth"), "session.dpsynth");
    QCOMPARE(session::toJson(reloaded), session::toJson(session_));  // dataFile already absolute
  }

  void filesItDidNotWriteAreRefusedWhenAsked() {
    // The CLI checks before the run; the export checks again for what appeared meanwhile.
    const QString dir = tmp_.filePath("owned");
    report::exportRun(session_, dataset_, run_, session_.run, exportRunOptions(dir, 1));
    report::ExportOptions options = exportRunOptions(dir, 1);
    options.refuseForeignFiles = true;
    report::exportRun(session_, dataset_, run_, session_.run, options);  // all dpsynth's own
    {
      std::ofstream mine((dir + "/internal/mine.txt").toStdString());
      mine << "mine";
    }
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             report::exportRun(session_, dataset_, run_, session_.run, options));
    QVERIFY(QFile::exists(dir + "/internal/mine.txt"));
    options.refuseForeignFiles = false;  // `run --replace`, and the studio as before
    report::exportRun(session_, dataset_, run_, session_.run, options);
    QVERIFY(!QFile::exists(dir + "/internal/mine.txt"));
  }

  void refusesWithoutWritingAnything() {
    // The input data file lives in a folder the export would replace.
    const QString dir = tmp_.filePath("clash");
    QVERIFY(QDir().mkpath(dir + "/internal"));
    QVERIFY(QFile::copy(QString::fromStdString(dataPath_), dir + "/internal/data.csv"));
    session::Session s = session_;
    s.dataFile = (dir + "/internal/data.csv").toStdString();
    const std::string before = dpsynth::test::readFile(dir + "/internal/data.csv");
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             report::exportRun(s, dataset_, run_, s.run, exportRunOptions(dir, 1)));
    QCOMPARE(dpsynth::test::folderEntries(dir), QStringList{"internal"});
    QCOMPARE(dpsynth::test::folderEntries(dir + "/internal"), QStringList{"data.csv"});
    QCOMPARE(dpsynth::test::readFile(dir + "/internal/data.csv"), before);

    pipeline::RunResult cancelled = run_;
    cancelled.outcome = pipeline::RunOutcome::cancelled;
    const QString none = tmp_.filePath("none");
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        report::exportRun(session_, dataset_, cancelled, session_.run, exportRunOptions(none, 1)));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        report::exportRun(session_, dataset_, run_, session_.run, exportRunOptions(none, 0)));
    QVERIFY(!QDir(none).exists());
  }

 private:
  QTemporaryDir tmp_;
  std::string dataPath_;
  session::Session session_;
  data::Dataset dataset_;
  pipeline::RunResult seeded_;  ///< the seeded run as it was made
  pipeline::RunResult run_;     ///< the same results flagged as a release
  QString out_, seededOut_;
  report::ExportedFiles files_, seededFiles_;
};

QTEST_APPLESS_MAIN(ExportRunTest)
#include "export_run_test.moc"
