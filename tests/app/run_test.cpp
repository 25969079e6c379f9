/// dpsynth run: a studio session repeated from the command line gives the same folder every
/// time, refuses changed or missing data, and agrees with `dpsynth fit`.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <map>
#include <memory>
#include <optional>

#include "core/data/sha256.h"
#include "core/pipeline/mechanism.h"
#include "core/privacy/neighbours.h"
#include "core/session/session.h"
#include "core/utility/utility.h"
#include "support/cli_process.h"

namespace session = dpsynth::core::session;
namespace pipeline = dpsynth::core::pipeline;

namespace {

using Run = dpsynth::test::CliRun;
Run runCommand(const QStringList& args) { return dpsynth::test::runDpsynth(args); }

QByteArray readAll(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.readAll();
}

/// JSON without the keys that measure time (they differ between runs by nature) and, when
/// asked, without "from_cache" (a run shares stages between mechanisms, fit does not).
QJsonValue withoutTimings(const QJsonValue& v, bool dropCache) {
  if (v.isObject()) {
    QJsonObject o;
    const QJsonObject in = v.toObject();
    for (auto it = in.begin(); it != in.end(); ++it) {
      if (it.key() == "seconds" || it.key() == "sampling_seconds" || it.key() == "wall_seconds")
        continue;
      if (dropCache && it.key() == "from_cache") continue;
      o.insert(it.key(), withoutTimings(it.value(), dropCache));
    }
    return o;
  }
  if (v.isArray()) {
    QJsonArray a;
    for (const auto& item : v.toArray()) a.append(withoutTimings(item, dropCache));
    return a;
  }
  return v;
}

/// dropCache: also drops the run's total gradient evaluations, which count only the stages
/// that were not served from the cache (a cost, not a result).
QJsonValue jsonFile(const QString& path, bool dropCache = false) {
  QJsonObject o =
      withoutTimings(QJsonDocument::fromJson(readAll(path)).object(), dropCache).toObject();
  if (dropCache) {
    QJsonObject sampler = o["sampler"].toObject();
    sampler.remove("gradient_evaluations");
    o["sampler"] = sampler;
  }
  return o;
}

/// A seeded session's files: all in internal/ (SPEC §0: a seeded run never writes release/).
const QStringList kFiles = {"internal/internal_report.html",
                            "internal/release_note.html",
                            "internal/report_censor-w.json",
                            "internal/report_lw.json",
                            "internal/results.csv",
                            "internal/session.dpsynth",
                            "internal/synthetic_censor-w.csv",
                            "internal/synthetic_censor-w.csv.json",
                            "internal/synthetic_lw.csv",
                            "internal/synthetic_lw.csv.json"};
/// kFiles and each folder's ownership manifest (names and SHA-256 of the files dpsynth wrote).
const QStringList kFilesAndManifests = [] {
  QStringList all = kFiles;
  for (const char* folder : {"internal/", "release/"})
    if (!kFiles.filter(folder).isEmpty()) all << QString(folder) + ".dpsynth-manifest.json";
  all.sort();
  return all;
}();

/// Every file below dir, as "folder/name", sorted.
QStringList filesBelow(const QString& dir) {
  QStringList out;
  const auto all = QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot;
  for (const QString& sub : QDir(dir).entryList(all, QDir::Name)) {
    const QFileInfo info(dir + "/" + sub);
    if (!info.isDir()) {
      out << sub;
      continue;
    }
    for (const QString& f : QDir(info.filePath()).entryList(all, QDir::Name)) out << sub + "/" + f;
  }
  return out;
}

/// Every number written in text, as it is written.
QStringList numbersIn(const QString& text) {
  QStringList out;
  static const QRegularExpression re("-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?");
  for (auto it = re.globalMatch(text); it.hasNext();) out << it.next().captured(0);
  return out;
}

/// True when `written` shows `secret` at the precision it is written with. A number of two
/// significant digits shows only a whole secret written exactly (a count, a quantile of count
/// data); fewer digits, or two digits against a fraction, would match by chance (the scan
/// leaves out numbers that public settings and outputs explain, such as ε = 40).
bool shows(const QString& written, double secret) {
  QString digits = written;
  digits.remove('-').remove('.');
  const int mantissa = written.indexOf(QRegularExpression("[eE]"));
  if (mantissa >= 0) digits = digits.left(mantissa);
  while (digits.startsWith('0')) digits.remove(0, 1);
  if (digits.size() < 2) return false;
  if (digits.size() == 2) return secret == std::round(secret) && written.toDouble() == secret;
  const int dot = written.indexOf('.');
  const int decimals = dot < 0 || mantissa >= 0 ? 0 : written.size() - dot - 1;
  const double value = written.toDouble();
  const double tolerance = mantissa >= 0 ? std::abs(value) * 1e-6 : 0.5 * std::pow(10.0, -decimals);
  return std::abs(value - secret) <= tolerance;
}

}  // namespace

class RunTest : public QObject {
  Q_OBJECT
 private slots:
  void init() {
    dir_ = std::make_unique<QTemporaryDir>();
    QVERIFY(dir_->isValid());
    data_ = dir_->filePath("nbmix.csv");
    QVERIFY(QFile::copy(QString(DPSYNTH_SOURCE_DIR) + "/resources/samples/nbmix.csv", data_));
    QFile::setPermissions(data_, QFile::ReadOwner | QFile::WriteOwner);

    session::Session s;
    s.dataFile = "nbmix.csv";  // relative: resolved against the session file's folder
    s.dataSha256 = dpsynth::core::data::sha256File(data_.toStdString());
    s.dataset.outcome = "count";
    s.dataset.family = dpsynth::core::models::Family::negbin;
    pipeline::MechanismConfig lw, censor;
    lw.mechanism = pipeline::Mechanism::lw;
    censor.mechanism = pipeline::Mechanism::censorW;
    censor.epsilon = 6;
    s.mechanisms = {lw, censor};
    s.run.model.family = s.dataset.family;
    s.run.nuts.chains = 2;
    s.run.nuts.warmup = 150;
    s.run.nuts.draws = 150;
    s.run.nuts.seed = 5;
    s.reproducible = true;
    session_ = dir_->filePath("study.dpsynth");
    session::saveSession(session_.toStdString(), s);
  }

  void runTwiceGivesIdenticalFolders() {
    const QString a = dir_->filePath("a"), b = dir_->filePath("b/nested");
    Run r1 = runCommand({"run", "--session", session_, "--out", a, "--threads", "2"});
    QVERIFY2(r1.exitCode == 0, qPrintable(r1.err));
    Run r2 = runCommand({"run", "--session", session_, "--out", b, "--threads", "1", "--quiet"});
    QVERIFY2(r2.exitCode == 0, qPrintable(r2.err));
    QVERIFY(r2.out.isEmpty());
    QCOMPARE(filesBelow(a), kFilesAndManifests);  // no temporary folder left
    QCOMPARE(filesBelow(b), kFilesAndManifests);
    for (const QString& f : kFiles) {
      if (f.endsWith(".json")) {
        QVERIFY2(jsonFile(a + "/" + f) == jsonFile(b + "/" + f), qPrintable(f));
      } else {
        QVERIFY2(readAll(a + "/" + f) == readAll(b + "/" + f), qPrintable(f));
      }
    }
    QVERIFY(
        readAll(a + "/internal/results.csv").startsWith("mechanism,guarantee,lipschitz,epsilon,"));
    for (const QString& f : kFiles) QVERIFY2(r1.out.contains(f), qPrintable(r1.out));
    // A seeded session is for studies and tests: every file says so and claims nothing.
    QVERIFY(readAll(a + "/internal/release_note.html").contains("NOT FOR RELEASE"));
    const QJsonObject side =
        QJsonDocument::fromJson(readAll(a + "/internal/synthetic_lw.csv.json")).object();
    QCOMPARE(side["not_for_release"].toBool(), true);
    QCOMPARE(side["guarantee"].toString(), QString("none"));
    QCOMPARE(side["guarantee_if_released"].toString(), QString("aDP"));
    QCOMPARE(QJsonDocument::fromJson(readAll(a + "/internal/report_censor-w.json"))
                 .object()["guarantee"]
                 .toString(),
             QString("none"));
  }

  void changedOrMissingDataIsRefused() {
    {
      QFile f(data_);
      QVERIFY(f.open(QIODevice::Append));
      f.write("100\n");
    }
    const QString out = dir_->filePath("out");
    Run r = runCommand({"run", "--session", session_, "--out", out});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("changed"), qPrintable(r.err));
    QVERIFY2(r.err.contains("nbmix.csv"), qPrintable(r.err));
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QVERIFY(!QDir(out).exists());

    QVERIFY(QFile::remove(data_));
    r = runCommand({"run", "--session", session_, "--out", out});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("not found"), qPrintable(r.err));
    QVERIFY(!QDir(out).exists());
  }

  void badSessionIsBadInput() {
    const QString bad = dir_->filePath("bad.dpsynth");
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"version\": 1}");
    f.close();
    Run r = runCommand({"run", "--session", bad, "--out", dir_->filePath("o")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("bad.dpsynth"), qPrintable(r.err));
    r = runCommand(
        {"run", "--session", dir_->filePath("none.dpsynth"), "--out", dir_->filePath("o")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(!QDir(dir_->filePath("o")).exists());
  }

  /// A session whose family the studio only suggested from the confidential values is no
  /// release (the family would follow one record, SPEC §0); seeded, it still replays.
  void anUndeclaredFamilyIsNoRelease() {
    session::Session s = session::loadSession(session_.toStdString());
    s.familyDeclared = false;
    s.reproducible = false;
    const QString file = dir_->filePath("suggested.dpsynth");
    session::saveSession(file.toStdString(), s);
    const QString out = dir_->filePath("suggested_out");
    Run r = runCommand({"run", "--session", file, "--out", out, "--quiet"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("suggested from the confidential data"), qPrintable(r.err));
    QVERIFY(!QDir(out).exists());
    s.reproducible = true;
    session::saveSession(file.toStdString(), s);
    r = runCommand({"run", "--session", file, "--out", out, "--quiet"});
    QCOMPARE(r.exitCode, 0);
  }

  void runAndFitAgree() {
    const QString out = dir_->filePath("run");
    Run r = runCommand({"run", "--session", session_, "--out", out, "--quiet"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QStringList common = {"--data",  data_,      "--outcome", "count",    "--family",
                                "negbin",  "--chains", "2",         "--warmup", "150",
                                "--draws", "150",      "--seed",    "5",        "--quiet"};
    const QString lw = dir_->filePath("fit_lw.json"), cw = dir_->filePath("fit_cw.json");
    r = runCommand(QStringList{"fit", "--mechanism", "lw", "--report", lw} + common);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    r = runCommand(QStringList{"fit", "--mechanism", "censor-w", "--epsilon", "6", "--report", cw} +
                   common);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(jsonFile(lw), jsonFile(out + "/internal/report_lw.json"));
    // censor-w re-uses the unweighted and LW fits of the run's cache: only the cache flags and
    // the cost of the stages that ran differ.
    QCOMPARE(jsonFile(cw, true), jsonFile(out + "/internal/report_censor-w.json", true));
  }

  /// Issue 25: a session's reference_levels choose the reference of its categorical covariates,
  /// --reference overrides them column by column, and the exported session says which held.
  void referenceLevelsFromTheSessionAndTheCommandLine() {
    const QString salary = dir_->filePath("salary.csv");
    QVERIFY(QFile::copy(QString(DPSYNTH_SOURCE_DIR) + "/resources/samples/salary.csv", salary));
    session::Session s;
    s.dataFile = "salary.csv";
    s.dataSha256 = dpsynth::core::data::sha256File(salary.toStdString());
    s.dataset.outcome = "salary";
    s.dataset.covariates = {"gender", "age_group"};
    s.dataset.family = dpsynth::core::models::Family::normal;
    s.dataset.referenceLevels = {{"gender", "M"}};
    pipeline::MechanismConfig unweighted;
    unweighted.mechanism = pipeline::Mechanism::unweighted;
    s.mechanisms = {unweighted};
    s.run.model.family = s.dataset.family;
    s.run.model.sdScale = 10000;
    s.run.nuts.chains = 1;
    s.run.nuts.warmup = 60;
    s.run.nuts.draws = 60;
    s.run.nuts.seed = 5;
    s.reproducible = true;
    const QString file = dir_->filePath("salary.dpsynth");
    session::saveSession(file.toStdString(), s);
    const auto labels = [](const QString& folder) {
      QStringList out;
      const auto l = QJsonDocument::fromJson(readAll(folder + "/internal/report_unweighted.json"))
                         .object()["parameter_labels"]
                         .toObject();
      for (const auto& key : l.keys()) out << l[key].toString();
      out.sort();
      return out;
    };
    const QString plain = dir_->filePath("ref-session");
    Run r = runCommand({"run", "--session", file, "--out", plain, "--quiet"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    // gender: M from the session; age_group: the first in sorted order (16-24).
    QCOMPARE(labels(plain), (QStringList{"age_group=25-34", "age_group=35-49", "age_group=50-64",
                                         "gender=F", "intercept", "sigma"}));
    const QString over = dir_->filePath("ref-flag");
    r = runCommand({"run", "--session", file, "--out", over, "--quiet", "--reference",
                    "gender=F,age_group=35-49"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(labels(over), (QStringList{"age_group=16-24", "age_group=25-34", "age_group=50-64",
                                        "gender=M", "intercept", "sigma"}));
    const auto saved = session::loadSession((over + "/internal/session.dpsynth").toStdString());
    QVERIFY(saved.dataset.referenceLevels ==
            (std::map<std::string, std::string>{{"age_group", "35-49"}, {"gender", "F"}}));
    // A level the column does not hold: one line, exit 2, nothing written.
    const QString bad = dir_->filePath("ref-bad");
    r = runCommand({"run", "--session", file, "--out", bad, "--quiet", "--reference", "gender=X"});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(r.err.contains("'gender'") && r.err.contains("'X'"), qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(bad + "/internal"));
  }

  /// --metric overrides the session's sampler metric; without it the session's setting (auto)
  /// holds, which for this intercept-only model is the diagonal metric.
  void metricFlagOverridesTheSession() {
    const QString plain = dir_->filePath("plain"), dense = dir_->filePath("dense");
    Run r = runCommand({"run", "--session", session_, "--out", plain, "--quiet"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    r = runCommand({"run", "--session", session_, "--out", dense, "--quiet", "--metric", "dense"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const auto samplerOf = [](const QString& folder) {
      return QJsonDocument::fromJson(readAll(folder + "/internal/report_lw.json"))
          .object()["sampler"]
          .toObject();
    };
    QCOMPARE(samplerOf(plain)["metric_setting"].toString(), QString("auto"));
    QCOMPARE(samplerOf(plain)["metric"].toString(), QString("diag"));
    QCOMPARE(samplerOf(dense)["metric_setting"].toString(), QString("dense"));
    QCOMPARE(samplerOf(dense)["metric"].toString(), QString("dense"));
    r = runCommand(
        {"run", "--session", session_, "--out", dir_->filePath("bad"), "--metric", "unit"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--metric"), qPrintable(r.err));
  }

  void releaseFolderHoldsNoConfidentialNumber() {
    // A release session (no seed) with every mechanism: nothing under release/ may show a
    // statistic of the confidential data that the internal reports hold.
    const QString out = dir_->filePath("all");
    const Run r = runReleaseSession(out, {});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    scanReleaseFolder(out, std::nullopt);
  }

  /// SPEC §0 "The size of the data": under add-remove n is confidential, so no file of release/
  /// shows it, as a number or as the row count of a synthetic file. The published size is
  /// noisy; when the noise happens to be 0 (probability tanh(ε_n/2) ≈ 0.005 at ε_n = 0.01) it
  /// equals n by chance, and the run is repeated: an implementation that publishes n fails all
  /// three runs.
  void releaseFolderHidesTheSizeUnderAddRemove() {
    constexpr int kN = 1000;  // records of resources/samples/poisson.csv
    for (int attempt = 0; attempt < 3; ++attempt) {
      const QString out = dir_->filePath("add-remove-" + QString::number(attempt));
      const Run r = runReleaseSession(out, {"--size-epsilon", "0.01"},
                                      /*addRemove=*/true);
      QVERIFY2(r.exitCode == 0, qPrintable(r.err));
      const QJsonObject side =
          QJsonDocument::fromJson(readAll(out + "/release/synthetic_censor-uw.csv.json")).object();
      QCOMPARE(side["n_source"].toString(), QString("noisy"));
      QCOMPARE(side["epsilon"].toDouble(), 40.01);  // ε + ε_n
      if (side["n"].toInt() == kN) continue;        // the noise was 0 this time
      scanReleaseFolder(out, kN);
      return;
    }
    QFAIL("the published size equalled n in three runs of noise at epsilon_n = 0.01");
  }

  /// --rows N declares a public size: every synthetic file has exactly N rows, the sidecar says
  /// "declared" and spends no ε_n.
  void declaredRowsAreExact() {
    const QString out = dir_->filePath("declared");
    const Run r = runReleaseSession(out, {"--rows", "257"},
                                    /*addRemove=*/true);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    int csvs = 0;
    for (const QString& f : filesBelow(out)) {
      if (!f.endsWith(".csv") || f.endsWith("results.csv")) continue;
      QCOMPARE(QString::fromUtf8(readAll(out + "/" + f)).count('\n'), 1 + 257);
      ++csvs;
    }
    QVERIFY(csvs >= 9);
    const QJsonObject side =
        QJsonDocument::fromJson(readAll(out + "/release/synthetic_censor-uw.csv.json")).object();
    QCOMPARE(side["n"].toInt(), 257);
    QCOMPARE(side["n_source"].toString(), QString("declared"));
    QCOMPARE(side["epsilon"].toDouble(), 40.0);
    const QJsonObject ph =
        QJsonDocument::fromJson(readAll(out + "/release/ph-release_ph.json")).object();
    QCOMPARE(ph["n"].toInt(), 257);
    QCOMPARE(ph["bins"].toInt(), 17);  // ⌈√257⌉, from the declared size
    scanReleaseFolder(out, 1000);
    const Run both = runCommand({"run", "--session", dir_->filePath("all.dpsynth"), "--out",
                                 dir_->filePath("both"), "--rows", "5", "--size-epsilon", "1"});
    QCOMPARE(both.exitCode, 2);
    QVERIFY2(both.err.contains("--rows"), qPrintable(both.err));
  }
  /// SPEC §0: where the number of records is confidential (add-remove; the complete records
  /// after --drop-missing), a database too small to fit is no reason to refuse. Each
  /// intercept-only family's empty database releases the same files as its neighbour of one
  /// record, every mechanism of a DP label with ñ = max(1, n + noise) rows; refused before
  /// this, which told the two apart outside every printed ε.
  void anEmptyDatabaseIsReleasedLikeItsNeighbour() {
    const std::map<std::string, std::pair<dpsynth::core::models::Family, const char*>> families{
        {"poisson", {dpsynth::core::models::Family::poisson, "3"}},
        {"negbin", {dpsynth::core::models::Family::negbin, "5"}},
        {"beta", {dpsynth::core::models::Family::beta, "0.4"}},
        {"normal", {dpsynth::core::models::Family::normal, "1.5"}}};
    for (const auto& [name, family] : families) {
      QStringList listings;
      for (const QString variant : {"add-remove 0", "add-remove 1", "drop-missing 0"}) {
        const bool dropMissing = variant.startsWith("drop");
        const QString data = dir_->filePath(QString::fromStdString(name) + "_" +
                                            QString(variant).replace(' ', '_') + ".csv");
        QFile f(data);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("y\n");
        if (variant.endsWith('1')) f.write(QByteArray(family.second) + "\n");
        if (dropMissing) f.write("NA\n");
        f.close();
        session::Session s = session::loadSession(session_.toStdString());
        s.dataFile = data.toStdString();
        s.dataSha256 = dpsynth::core::data::sha256File(s.dataFile);
        s.dataset.outcome = "y";
        s.dataset.family = s.run.model.family = family.first;
        s.dataset.dropMissing = dropMissing;
        s.reproducible = false;
        s.run.neighbours = dropMissing ? dpsynth::core::privacy::Neighbours::replaceOne
                                       : dpsynth::core::privacy::Neighbours::addRemove;
        s.run.nuts.warmup = s.run.nuts.draws = 60;
        s.mechanisms.clear();
        for (auto m :
             {pipeline::Mechanism::lw, pipeline::Mechanism::censorUw, pipeline::Mechanism::ph}) {
          pipeline::MechanismConfig c;
          c.mechanism = m;
          if (pipeline::requiresEpsilon(m)) c.epsilon = 1;
          if (m == pipeline::Mechanism::ph) {
            c.lower = family.first == dpsynth::core::models::Family::normal ? -10 : 0;
            c.upper = family.first == dpsynth::core::models::Family::beta ? 1 : 20;
          }
          s.mechanisms.push_back(c);
        }
        const QString file = data + ".dpsynth", out = data + ".out";
        session::saveSession(file.toStdString(), s);
        const Run r = runCommand({"run", "--session", file, "--out", out, "--quiet"});
        const QString what = QString::fromStdString(name) + ", " + variant + ": " + r.err;
        QVERIFY2(r.exitCode == 0, qPrintable(what));
        QVERIFY2(r.err.contains("the run goes on"), qPrintable(what));
        QStringList files = QDir(out + "/release").entryList(QDir::Files);
        listings.push_back(files.join(' '));
        for (const QString mechanism : {"lw", "censor-uw", "ph"}) {
          const QString csv = out + "/release/synthetic_" + mechanism + ".csv";
          const QJsonObject side = QJsonDocument::fromJson(readAll(csv + ".json")).object();
          QCOMPARE(side["n_source"].toString(), QString("noisy"));
          QVERIFY2(side["n"].toInt() >= 1, qPrintable(what));
          QCOMPARE(QString::fromUtf8(readAll(csv)).count('\n'), 1 + side["n"].toInt());
          QVERIFY2(std::isfinite(side["epsilon"].toDouble()), qPrintable(what));
        }
      }
      QCOMPARE(listings[0], listings[1]);
      QCOMPARE(listings[0], listings[2]);
    }
  }

  /// Where n is public (replace-one, no --drop-missing), or the model has covariates (whose
  /// copied values already show how many records there are), fewer than 2 records stay refused
  /// with file and column.
  void tooFewRecordsAreRefusedWhereTheirCountIsNoSecret() {
    for (const bool covariate : {false, true}) {
      const QString data = dir_->filePath(covariate ? "one_cov.csv" : "one.csv");
      QFile f(data);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(covariate ? "y,x\n3,1\n" : "y\n3\n");
      f.close();
      QStringList args{"fit", "--data", data, "--outcome", "y", "--family", "poisson", "--quiet"};
      if (covariate)
        args << "--covariates"
             << "x"
             << "--neighbours"
             << "add-remove";
      const Run r = runCommand(args);
      QCOMPARE(r.exitCode, 2);
      QVERIFY2(r.err.contains("only 1 usable record"), qPrintable(r.err));
    }
  }

  void interruptWritesNothing() {
    session::Session s = session::loadSession(session_.toStdString());
    s.run.nuts.warmup = 20000;
    s.run.nuts.draws = 20000;
    const QString slow = dir_->filePath("slow.dpsynth");
    session::saveSession(slow.toStdString(), s);
    const QString out = dir_->filePath("slow_out");
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(DPSYNTH_CLI_PATH, {"run", "--session", slow, "--out", out});
    QVERIFY(p.waitForStarted());
    QByteArray output;
    QElapsedTimer timer;
    timer.start();
    while (!output.contains("running") && timer.elapsed() < 20000) {
      p.waitForReadyRead(100);
      output += p.readAll();
    }
    QVERIFY2(output.contains("running"), output.constData());
    QTest::qWait(300);  // well inside the sampler
    p.terminate();      // SIGTERM, handled like Ctrl-C
    QVERIFY(p.waitForFinished(20000));
    QCOMPARE(p.exitCode(), 130);
    QVERIFY(!QDir(out).exists());
  }

 private:
  /// Saves a release session (no seed) of every mechanism on the Poisson sample and runs it
  /// into `out`. Poisson data: its censored fits mix well at this ε (the NB mixture's
  /// hierarchical prior makes censored fits fail the diagnostics gate at small sizes).
  Run runReleaseSession(const QString& out, const QStringList& extra, bool addRemove = false) {
    const QString poisson = dir_->filePath("poisson.csv");
    if (!QFile::exists(poisson))
      QFile::copy(QString(DPSYNTH_SOURCE_DIR) + "/resources/samples/poisson.csv", poisson);
    session::Session s = session::loadSession(session_.toStdString());
    s.dataFile = poisson.toStdString();
    s.dataSha256 = dpsynth::core::data::sha256File(s.dataFile);
    s.dataset.family = s.run.model.family = dpsynth::core::models::Family::poisson;
    s.reproducible = false;
    s.run.neighbours = addRemove ? dpsynth::core::privacy::Neighbours::addRemove
                                 : dpsynth::core::privacy::Neighbours::replaceOne;
    s.mechanisms.clear();
    for (auto m : pipeline::allMechanisms()) {
      pipeline::MechanismConfig c;
      c.mechanism = m;
      if (pipeline::requiresEpsilon(m)) c.epsilon = 40;
      if (m == pipeline::Mechanism::ph) {
        c.lower = 0;
        c.upper = 400;
      }
      if (m == pipeline::Mechanism::weightedE || m == pipeline::Mechanism::censorW)
        c.downscale = std::nullopt;  // auto: chosen from the data, must stay internal
      s.mechanisms.push_back(c);
    }
    // Enough draws that the censored fit's R-hat stays well inside the diagnostics gate (a
    // refused release is a failure of this test, not a skip).
    s.run.nuts.chains = 4;
    s.run.nuts.warmup = 900;  // not 1000: that is the data's n, checked apart
    s.run.nuts.draws = 2000;
    const QString file = dir_->filePath("all.dpsynth");
    session::saveSession(file.toStdString(), s);
    return runCommand(QStringList{"run", "--session", file, "--out", out, "--quiet"} + extra);
  }

  /// Scans every file of out/release/ (JSON, HTML, synthetic CSVs): no number in it shows a
  /// statistic the internal reports hold (whole numbers included), unless a public setting or
  /// a published DP output explains it; the unweighted fit and every seed stay out. With
  /// `confidentialN` (add-remove), n appears in no file, as no number and as no synthetic
  /// file's row count.
  void scanReleaseFolder(const QString& out, std::optional<int> confidentialN) {
    // SPEC §0: only files with a DP or aDP label enter release/.
    for (const QString& f : filesBelow(out))
      QVERIFY2(!f.startsWith("release/") || !f.contains("unweighted"), qPrintable(f));
    QVERIFY(QFile::exists(out + "/internal/synthetic_unweighted.csv"));

    std::vector<double> secret;
    auto add = [&](const QJsonValue& v) {
      if (v.isDouble()) secret.push_back(v.toDouble());
    };
    // Public numbers: the session's settings and the DP outputs the release publishes. A
    // number written as one of them cannot be told from a secret of the same value.
    std::vector<double> known = {40, 20, 10,  0,    400,   4,       900,      2000,
                                 1,  2,  0.2, 0.01, 40.01, 1000000, 20000000, 40000000};
    QStringList internalText;
    for (const QString& f : filesBelow(out)) {
      if (!f.startsWith("internal/")) continue;
      const QByteArray text = readAll(out + "/" + f);
      internalText << QString::fromUtf8(text);
      if (!f.startsWith("internal/report_")) continue;
      const QJsonObject j = QJsonDocument::fromJson(text).object();
      for (const char* key : {"lipschitz", "lipschitz_q90", "lipschitz_q95", "lipschitz_uncensored",
                              "k", "downscale", "censored_records", "truncated_records"})
        add(j[key]);
      // aDP's ε_x = 2Δ is published by design, rounded up to two decimals (SPEC §0); Δ itself,
      // its quantiles and every other stage's figures are not.
      for (const auto& w : j["weights"].toObject()) add(w);
      for (const auto& c : j["confidential"].toObject()) add(c);
      for (const auto& stage : j["stages"].toArray())
        for (const char* key : {"lipschitz", "lipschitz_q90", "lipschitz_q95", "censored_records"})
          add(stage.toObject()[key]);
      for (const auto& p : j["posterior"].toObject())
        for (const char* key : {"mean", "sd", "q025", "q975"}) add(p.toObject()[key]);
      for (const auto& count : j["ph"].toObject()["noisy_counts"].toArray())
        known.push_back(count.toDouble());  // the histogram's DP output, published
    }
    QVERIFY(secret.size() > 50);
    // The published size, its ε and the histogram's bins and edges are public outputs; under
    // add-remove n itself is checked apart below.
    QVERIFY(filesBelow(out).contains("release/ph-release_ph.json"));
    const QJsonObject phFile =
        QJsonDocument::fromJson(readAll(out + "/release/ph-release_ph.json")).object();
    QCOMPARE(phFile["kind"].toString(), QString("ph"));
    QVERIFY(!phFile.contains("seed") && !phFile.contains("not_for_release"));
    for (const char* key : {"n", "bins", "epsilon", "epsilon_total", "size_epsilon"})
      if (phFile[key].isDouble()) known.push_back(phFile[key].toDouble());
    for (const auto& e : phFile["edges"].toArray()) known.push_back(e.toDouble());
    const int published = phFile["n"].toInt();
    if (confidentialN) QVERIFY(published != *confidentialN);
    // The release note shows each synthetic file's mean, median, q15 and q90: statistics of the
    // DP output, public by design, and close to the confidential ones by construction (an
    // unweighted synthetic mean rounds to the confidential mean's three digits now and then).
    // A number the synthetic files themselves explain is not a leak.
    std::vector<double> synthetic;
    int csvs = 0;
    for (const QString& f : filesBelow(out)) {
      if (!f.startsWith("release/") || !f.endsWith(".csv")) continue;
      const QStringList lines =
          QString::fromUtf8(readAll(out + "/" + f)).split('\n', Qt::SkipEmptyParts);
      // Every synthetic file has the published number of rows, never the confidential n.
      QCOMPARE(int(lines.size()) - 1, published);
      if (confidentialN) QVERIFY2(lines.size() - 1 != *confidentialN, qPrintable(f));
      ++csvs;
      const int columns = lines.isEmpty() ? 0 : int(lines.front().split(',').size());
      for (int c = 0; c < columns; ++c) {
        std::vector<double> values;
        bool numeric = lines.size() > 1;
        for (int i = 1; numeric && i < lines.size(); ++i) {
          values.push_back(lines[i].split(',').value(c).toDouble(&numeric));
        }
        if (!numeric) continue;
        const auto d = dpsynth::core::utility::describe(
            Eigen::Map<const Eigen::VectorXd>(values.data(), Eigen::Index(values.size())));
        synthetic.insert(synthetic.end(), {d.mean, d.median, d.q15, d.q90});
      }
    }
    QVERIFY(csvs >= 8);  // every mechanism but unweighted
    QVERIFY(!synthetic.empty());
    const auto near = [](double a, double b) {
      return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
    };
    const auto isKnown = [&](double v) {
      return std::any_of(known.begin(), known.end(), [&](double k) { return near(v, k); });
    };
    // A secret equal to a public value cannot be told from it; every other secret, fractions
    // and whole numbers alike, is looked for.
    std::erase_if(secret, isKnown);
    QVERIFY(secret.size() > 40);
    const auto explainedBySynthetic = [&](const QString& number) {
      return std::any_of(synthetic.begin(), synthetic.end(),
                         [&](double v) { return shows(number, v); });
    };
    const QString hash = QString::fromStdString(
        session::loadSession(dir_->filePath("all.dpsynth").toStdString()).dataSha256);
    int scanned = 0;
    for (const QString& f : filesBelow(out)) {
      if (!f.startsWith("release/")) continue;
      QString text = QString::fromUtf8(readAll(out + "/" + f));
      // Synthetic values are the DP output itself; their header and row count are checked, the
      // JSON and HTML scanned whole but for the note's fixed style sheet (layout numbers).
      if (f.endsWith(".csv")) text = text.section('\n', 0, 0);
      const auto style = text.indexOf("<style"), styleEnd = text.indexOf("</style>");
      if (style >= 0 && styleEnd > style) text.remove(style, styleEnd - style);
      // The SHA-256 of a release file (sidecars, manifest) is a digest of public bytes, and its
      // hex digits are no number: "3910e5126866" would read as one.
      text.remove(QRegularExpression("\\b[0-9a-f]{64}\\b"));
      QVERIFY2(!text.contains(hash.left(16)), qPrintable(f));
      QVERIFY2(!text.contains(dir_->path()), qPrintable(f + ": an absolute path"));
      for (const QString& number : numbersIn(text)) {
        const double value = number.toDouble();
        if (confidentialN)
          QVERIFY2(value != *confidentialN,
                   qPrintable(f + " shows the confidential n = " + number));
        ++scanned;
        if (isKnown(value)) continue;
        if (f.endsWith("release_note.html") && explainedBySynthetic(number)) continue;
        for (double v : secret)
          QVERIFY2(!shows(number, v),
                   qPrintable(f + " shows " + number + " = " + QString::number(v, 'g', 17)));
      }
    }
    QVERIFY(scanned > 20);
    // The release's seed is nowhere: the internal report says it was not kept.
    QVERIFY(internalText.join('\n').contains("not kept"));
  }

  std::unique_ptr<QTemporaryDir> dir_;
  QString data_, session_;
};

QTEST_GUILESS_MAIN(RunTest)
#include "run_test.moc"
