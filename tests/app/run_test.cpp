/// dpsynth run: a studio session repeated from the command line gives the same folder every
/// time, refuses changed or missing data, and agrees with `dpsynth fit`.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <memory>

#include "core/data/sha256.h"
#include "core/pipeline/mechanism.h"
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

const QStringList kFiles = {"internal/internal_report.html",
                            "internal/report_censor-w.json",
                            "internal/report_lw.json",
                            "internal/results.csv",
                            "internal/session.dpsynth",
                            "release/release_note.html",
                            "release/synthetic_censor-w.csv",
                            "release/synthetic_censor-w.csv.json",
                            "release/synthetic_lw.csv",
                            "release/synthetic_lw.csv.json"};
/// kFiles and each folder's ownership manifest (names and SHA-256 of the files dpsynth wrote).
const QStringList kFilesAndManifests = [] {
  QStringList all = kFiles;
  all << "internal/.dpsynth-manifest.json" << "release/.dpsynth-manifest.json";
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

/// True when `written` shows `secret` at the precision it is written with, and carries at least
/// three significant digits (fewer would match public settings such as ε = 8 by chance).
bool shows(const QString& written, double secret) {
  QString digits = written;
  digits.remove('-').remove('.');
  const int mantissa = written.indexOf(QRegularExpression("[eE]"));
  if (mantissa >= 0) digits = digits.left(mantissa);
  while (digits.startsWith('0')) digits.remove(0, 1);
  if (digits.size() < 3) return false;
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
    QVERIFY(readAll(a + "/internal/results.csv").startsWith("mechanism,guarantee,lipschitz,epsilon,"));
    for (const QString& f : kFiles) QVERIFY2(r1.out.contains(f), qPrintable(r1.out));
    // A seeded session is for studies and tests: every release file says so.
    QVERIFY(readAll(a + "/release/release_note.html").contains("NOT FOR RELEASE"));
    QCOMPARE(QJsonDocument::fromJson(readAll(a + "/release/synthetic_lw.csv.json"))
                 .object()["not_for_release"]
                 .toBool(),
             true);
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
    r = runCommand({"run", "--session", dir_->filePath("none.dpsynth"), "--out", dir_->filePath("o")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(!QDir(dir_->filePath("o")).exists());
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
    r = runCommand({"run", "--session", session_, "--out", dir_->filePath("bad"), "--metric", "unit"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--metric"), qPrintable(r.err));
  }

  void releaseFolderHoldsNoConfidentialNumber() {
    // A release session (no seed) with every mechanism: nothing under release/ may show a
    // statistic of the confidential data that the internal reports hold.
    // Poisson data: its censored fits mix well at this ε (the NB mixture's hierarchical prior
    // makes censored fits fail the diagnostics gate at small sizes).
    const QString poisson = dir_->filePath("poisson.csv");
    QVERIFY(QFile::copy(QString(DPSYNTH_SOURCE_DIR) + "/resources/samples/poisson.csv", poisson));
    session::Session s = session::loadSession(session_.toStdString());
    s.dataFile = poisson.toStdString();
    s.dataSha256 = dpsynth::core::data::sha256File(s.dataFile);
    s.dataset.family = s.run.model.family = dpsynth::core::models::Family::poisson;
    s.reproducible = false;
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
    s.run.nuts.chains = 4;
    s.run.nuts.warmup = 500;
    s.run.nuts.draws = 500;
    const QString file = dir_->filePath("all.dpsynth");
    session::saveSession(file.toStdString(), s);
    const QString out = dir_->filePath("all");
    Run r = runCommand({"run", "--session", file, "--out", out, "--quiet"});
    if (r.exitCode == 2 && r.err.contains("release refused"))
      QSKIP(qPrintable("the censored fits failed their diagnostics this time: " + r.err));
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));

    std::vector<double> secret;
    auto add = [&](const QJsonValue& v) {
      if (v.isDouble()) secret.push_back(v.toDouble());
    };
    QStringList internalText;
    for (const QString& f : filesBelow(out)) {
      if (!f.startsWith("internal/")) continue;
      const QByteArray text = readAll(out + "/" + f);
      internalText << QString::fromUtf8(text);
      if (!f.startsWith("internal/report_")) continue;
      const QJsonObject j = QJsonDocument::fromJson(text).object();
      for (const char* key : {"lipschitz", "lipschitz_q90", "lipschitz_q95",
                              "lipschitz_uncensored", "k", "downscale"})
        add(j[key]);
      // aDP's ε_x = 2Δ is published by design, rounded up to two decimals (SPEC §0); Δ itself,
      // its quantiles and every other stage's figures are not.
      for (const auto& w : j["weights"].toObject()) add(w);
      for (const auto& c : j["confidential"].toObject()) add(c);
      for (const auto& stage : j["stages"].toArray())
        for (const char* key : {"lipschitz", "lipschitz_q90", "lipschitz_q95"})
          add(stage.toObject()[key]);
      for (const auto& p : j["posterior"].toObject())
        for (const char* key : {"mean", "sd", "q025", "q975"}) add(p.toObject()[key]);
    }
    QVERIFY(secret.size() > 50);
    // The ph mechanism's release file is among the scanned files, and holds no seed.
    QVERIFY(filesBelow(out).contains("release/ph-release_ph.json"));
    const QJsonObject phFile =
        QJsonDocument::fromJson(readAll(out + "/release/ph-release_ph.json")).object();
    QCOMPARE(phFile["kind"].toString(), QString("ph"));
    QVERIFY(!phFile.contains("seed") && !phFile.contains("not_for_release"));
    // The release note shows each synthetic file's mean, median, q15 and q90: statistics of the
    // DP output, public by design, and close to the confidential ones by construction (an
    // unweighted synthetic mean rounds to the confidential mean's three digits now and then).
    // A number the synthetic files themselves explain is not a leak.
    std::vector<double> synthetic;
    for (const QString& f : filesBelow(out)) {
      if (!f.startsWith("release/") || !f.endsWith(".csv")) continue;
      const QStringList lines = QString::fromUtf8(readAll(out + "/" + f)).split('\n', Qt::SkipEmptyParts);
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
    QVERIFY(!synthetic.empty());
    const auto explainedBySynthetic = [&](const QString& number) {
      return std::any_of(synthetic.begin(), synthetic.end(),
                         [&](double v) { return shows(number, v); });
    };
    const QString hash = QString::fromStdString(s.dataSha256);
    int scanned = 0;
    for (const QString& f : filesBelow(out)) {
      if (!f.startsWith("release/")) continue;
      QString text = QString::fromUtf8(readAll(out + "/" + f));
      // Synthetic values are the DP output itself; their header and the JSON/HTML are scanned.
      if (f.endsWith(".csv")) text = text.section('\n', 0, 0);
      // The SHA-256 of a release file (sidecars, manifest) is a digest of public bytes, and its
      // hex digits are no number: "3910e5126866" would read as one.
      text.remove(QRegularExpression("\\b[0-9a-f]{64}\\b"));
      QVERIFY2(!text.contains(hash.left(16)), qPrintable(f));
      QVERIFY2(!text.contains(dir_->path()), qPrintable(f + ": an absolute path"));
      for (const QString& number : numbersIn(text)) {
        if (f.endsWith("release_note.html") && explainedBySynthetic(number)) continue;
        for (double v : secret) {
          // Whole numbers (0, 1, ε/2 = 20, ε = 40, count quantiles) also arise as settings or
          // as the synthetic data's own quantiles, which are public: only fractions are telling.
          if (v == std::round(v)) continue;
          QVERIFY2(!shows(number, v), qPrintable(f + " shows " + number + " = " +
                                                 QString::number(v, 'g', 17)));
        }
        ++scanned;
      }
    }
    QVERIFY(scanned > 20);
    // The release's seed is nowhere: the internal report says it was not kept.
    QVERIFY(internalText.join('\n').contains("not kept"));
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
  std::unique_ptr<QTemporaryDir> dir_;
  QString data_, session_;
};

QTEST_GUILESS_MAIN(RunTest)
#include "run_test.moc"
