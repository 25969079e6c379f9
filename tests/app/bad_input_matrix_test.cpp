/// The bad-input matrix (issue 8) through the real binary: each row is a command a careless or
/// careful user might type. Every row must end with its exit status (2 for bad input), one line
/// on stderr saying what is wrong (naming the file, line and column where there is one), and a
/// folder exactly as it was: no file created, changed or removed (hashes before and after).
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>

#include "support/cli_process.h"

namespace {

using Run = dpsynth::test::CliRun;
Run runCli(const QStringList& args, const QString& cwd) {
  return dpsynth::test::runDpsynth(args, cwd, 60000);
}

/// dpsynth with every file it writes limited to `bytes` (RLIMIT_FSIZE; the signal that would
/// end it is ignored, so the write fails with EFBIG): a full disk without root or a tmpfs.
Run runCliWithFileLimit(const QStringList& args, const QString& cwd, rlim_t bytes) {
  QProcess p;
  p.setWorkingDirectory(cwd);
  p.setChildProcessModifier([bytes] {
    const rlimit limit{bytes, bytes};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    ::signal(SIGXFSZ, SIG_IGN);
  });
  p.start(DPSYNTH_CLI_PATH, args);
  p.closeWriteChannel();
  if (!p.waitForFinished(60000)) {
    p.kill();
    p.waitForFinished();
    return {-2, {}, "dpsynth did not finish within 60 s"};
  }
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
          QString::fromUtf8(p.readAllStandardOutput()),
          QString::fromUtf8(p.readAllStandardError())};
}

QByteArray sha256Hex(const QByteArray& bytes) {
  return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

/// A session of the `unweighted` mechanism on `data` (outcome y, family poisson).
QByteArray sessionOn(const QString& data, const QByteArray& bytes, int datasets) {
  return R"J({"version": 1, "data": {"file": ")J" + data.toUtf8() + R"J(", "sample": "",
    "sha256": ")J" +
         sha256Hex(bytes) + R"J(", "outcome": "y", "covariates": [],
    "family": "poisson", "drop_missing": false, "weights_from": ""},
    "mechanisms": [{"mechanism": "unweighted", "c": 1, "g": 0, "radius": 0,
    "radius_relative": false, "k": 0.95, "epsilon": null, "downscale": 1, "lower": null,
    "upper": null, "bins": 0, "reproducible_noise": false}],
    "run": {"seed": 5, "neighbours": "replace-one", "chains": 1, "warmup": 50, "draws": 50,
    "threads": 1, "metric": "auto", "sd_scale": 1}, "synthetic_datasets": )J" +
         QByteArray::number(datasets) + "}";
}

/// `records` count records "y" of small integers.
QByteArray countRecords(int records) {
  QByteArray b = "y\n";
  for (int i = 0; i < records; ++i) b += QByteArray::number(i % 7) + "\n";
  return b;
}
using dpsynth::test::folderSnapshot;

QString sample(const QString& kind) {
  return QString(DPSYNTH_SOURCE_DIR) + "/resources/samples/" + kind + ".csv";
}

const QStringList kFast = {"--chains", "1", "--warmup", "50", "--draws", "50"};
const char* const kStatExtensions[] = {"sav", "zsav", "por", "dta", "sas7bdat", "xpt"};
const QStringList kFastInfer = {"--iterations", "200", "--warmup", "100",
                                "--chains",     "1",   "--seed",   "1"};

/// A naive-Bayes release file as `dpsynth release` writes it (5 records, ε = 1, --seed 1).
const QByteArray kNaiveBayesRelease =
    R"J({"version": 1, "kind": "naive-bayes", "mechanism": "discrete-laplace", "epsilon": 1.0,
    "neighbours": "replace-one", "n": 5, "layout": {"classes": ["a", "b"], "features": [{"name":
    "u", "levels": ["0", "1"]}], "order": "class, then feature, then level"}, "sensitivity": 2,
    "noise_rate": {"numerator": 1000000, "denominator": 2000000}, "noisy_counts": [3.0, 1.0, 0.0,
    2.0], "model": "naive-bayes log-linear (004 section 4)", "prior": {"dirichlet": 2.0},
    "not_for_release": true})J";

/// A perturbed-histogram release of n = 10^8 records, the readers' maximum.
const QByteArray kPhRelease1e8 =
    R"J({"version": 1, "kind": "ph", "mechanism": "perturbed histogram, discrete Laplace noise",
    "epsilon": 1.0, "neighbours": "replace-one", "n": 100000000, "bounds": {"lower": 0,
    "upper": 100}, "bins": 2, "edges": [0, 50, 100], "binning": "x", "integer": false,
    "sensitivity": 2, "noise_rate": {"numerator": 500000, "denominator": 1000000}, "noise": "x",
    "noisy_counts": [50000000, 50000000], "noisy_counts_clamped_at_zero": false,
    "synthesizer_family": "normal", "model": "x", "not_for_release": true})J";

/// A linear-regression release as `dpsynth release --kind linreg` writes it, with n = 10^8.
const QByteArray kLinregRelease1e8 =
    R"J({"version": 1, "kind": "linreg", "mechanism": "discrete-laplace", "epsilon": 1.0,
    "neighbours": "replace-one", "n": 100000000, "layout": {"predictors": [{"name": "a",
    "lower": -10.0, "upper": 10.0}, {"name": "b", "lower": -10.0, "upper": 10.0}], "outcome":
    {"name": "y", "lower": -20.0, "upper": 20.0},
    "normalisation": "clamp to [lower, upper], then 2 (v - lower) / (upper - lower) - 1",
    "statistics": ["y", "a*y", "b*y", "y*y", "a",
    "b", "a*a", "a*b", "b*b"], "grid": 0.0009765625}, "sensitivity": 13, "grid_sensitivity":
    13321, "noise_rate": {"numerator": 1000000, "denominator": 13321000000},
    "noisy_statistics": [32.697265625, 2.3095703125, -2.609375, 4.3095703125, 25.4384765625,
    -25.60546875, 6.63671875, -15.185546875, 21.69921875],
    "model": {"name": "normal linear regression with intercept (004 section 5)",
    "sigma": 1.41, "predictors": [{"name": "a",
    "mean": 0.9, "sd": 1.0}, {"name": "b", "mean": -1.17, "sd": 1.0}]}, "prior": {"beta_sd":
    2.0}, "not_for_release": true})J";

/// A study small enough to finish in a second (so that a row fails fast on code that runs it).
const QByteArray kQuickStudy =
    R"J({"version": 1, "source": {"generator": "poisson(20)", "n": 100},
    "mechanisms": ["unweighted"], "epsilon": [6], "replicates": 2,
    "sampler": {"chains": 1, "warmup": 50, "draws": 50}, "seed": 11})J";

}  // namespace

class BadInputMatrixTest : public QObject {
  Q_OBJECT
 private slots:
  void init() {
    dir_ = std::make_unique<QTemporaryDir>();
    QVERIFY(dir_->isValid());
    const QString d = dir_->path();
    QVERIFY(QFile::copy(sample("beta"), d + "/beta.csv"));
    QVERIFY(QFile::copy(sample("poisson"), d + "/counts.csv"));
    QVERIFY(QDir(d).mkdir("folder"));
    for (const char* sub : {"post", "post2", "so"}) QVERIFY(QDir(d).mkdir(sub));
    QVERIFY(QFile::link("post", d + "/link"));  // a symbolic link to the release's folder
    QVERIFY(::mkfifo(QFile::encodeName(d + "/pipe.csv").constData(), 0600) == 0);
    const QMap<QString, QByteArray> files{
        {"text_outcome.csv", "y\n1\n2\nabc\n"},
        {"missing.csv", "y\n1\n\n2\nNA\n"},
        {"negative.csv", "y\n1\n-2\n3\n"},
        {"fraction.csv", "y\n1\n2.5\n3\n"},
        {"huge_count.csv", "y\n3\n30233816673617588224\n5\n"},
        {"long_name.csv", "a_very_long_column_name_exceeding_thirty_two_chars\n1\n2\n3\n4\n"},
        {"beta_out.csv", "y\n0.2\n1\n0.3\n"},
        {"one.csv", "y\n1\n"},
        {"constant.csv", "y\n4\n4\n4\n"},
        {"duplicate.csv", "y,y\n1,2\n3,4\n"},
        {"ragged.csv", "y,x\n1,2\n3\n"},
        {"empty.csv", ""},
        {"header_only.csv", "y,x\n"},
        {"binary.csv", QByteArray("PK\x03\x04\x00\x00zz", 8)},
        {"utf16.csv", QByteArray("\xFF\xFEy\x00\n\x00"
                                 "1\x00\n\x00"
                                 "2\x00\n\x00",
                                 14)},
        {"overflow.csv", "y,x\n1,2\n2,1e400\n3,4\n4,5\n"},
        {"huge_values.csv", "y\n1e308\n-1e308\n5\n"},
        {"ids.csv",
         [] {
           QByteArray b = "y,id\n";
           for (int i = 0; i < 200; ++i)
             b += QByteArray::number(i % 7 + 1) + ",P" + QByteArray::number(i * 7919) + "\n";
           return b;
         }()},
        {"escape.csv", "y\n1\n\x1b[31mred\x1b[0m\n"},
        {"huge_field.csv", "y\n1\n" + QByteArray(5'000'000, 'x') + "\n"},
        {"session_bad.dpsynth", "{\"version\": 1}"},
        {"session_text.dpsynth", "this is not json"},
        {"session_big_number.dpsynth", "{\"version\": 1e999}"},
        {"session_version.dpsynth", "{\"version\": 99}"},
        {"syn.csv.json", "{}"},
        {"d_1.csv", "y\n0.2\n0.3\n0.4\n"},
        // Issue 21: a JSON at a sidecar's path that lists files is no earlier release.
        {"notes.csv.json", R"J({"files": ["important.txt", "thesis.tex"]})J"},
        {"important.txt", "keep\n"},
        {"thesis.tex", "keep\n"},
        {"post/summary.json", kNaiveBayesRelease},
        {"post2/draws.csv", kNaiveBayesRelease},
        {"so/summary.json", kQuickStudy},
        {"nb.csv", "y,u\na,0\nb,1\na,1\nb,0\na,0\n"},
        {"spaced.csv", "y,my group\n1,a\n2,b\n3,a\n4,b\n"},
    };
    for (auto it = files.begin(); it != files.end(); ++it) {
      QFile f(d + "/" + it.key());
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(it.value());
    }
    // Issue 21: sizes at the bounds, a symbolic-link loop, sessions that pass their checks.
    const QMap<QString, QByteArray> more{
        {"ph1e8.json", kPhRelease1e8},
        {"ph_far.json", QByteArray(kPhRelease1e8)
                            .replace("\"lower\": 0,", "\"lower\": 50,")
                            .replace("\"upper\": 100}", "\"upper\": 150}")
                            .replace("[0, 50, 100]", "[50, 100, 150]")},
        {"lin1e8.json", kLinregRelease1e8},
        {"nb1e8.json", QByteArray(kNaiveBayesRelease).replace("\"n\": 5,", "\"n\": 100000000,")},
        {"records.csv", countRecords(100'001)},
        {"small.csv", countRecords(2'000)},
    };
    for (auto it = more.begin(); it != more.end(); ++it) {
      QFile f(d + "/" + it.key());
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(it.value());
    }
    {
      QFile f(d + "/many.dpsynth");
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(sessionOn("small.csv", countRecords(2'000), 100'000));
    }
    {
      QFile f(d + "/ok.dpsynth");
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(sessionOn("small.csv", countRecords(2'000), 2));
    }
    QVERIFY(QFile::link("loop", d + "/loop"));  // a link to itself
    // An export folder whose release/ is a link to another folder.
    QVERIFY(QDir(d).mkpath("linked/elsewhere"));
    QVERIFY(QFile::link("elsewhere", d + "/linked/release"));
    // Issue 25: statistical files cut short or damaged, and a CSV under such a name.
    for (const char* ext : kStatExtensions) {
      QFile original(QString(DPSYNTH_SOURCE_DIR) + "/tests/data/formats/survey." + ext);
      QVERIFY(original.open(QIODevice::ReadOnly));
      const QByteArray bytes = original.readAll();
      QFile cut(d + "/cut." + ext), damaged(d + "/damaged." + ext), text(d + "/text." + ext);
      QVERIFY(cut.open(QIODevice::WriteOnly) && damaged.open(QIODevice::WriteOnly) &&
              text.open(QIODevice::WriteOnly));
      cut.write(bytes.left(bytes.size() / 2 + 13));  // inside a record, past the header
      QByteArray broken = bytes;
      for (int i = 0; i < 64 && i < broken.size(); ++i) broken[i] = char(broken[i] ^ 0x5A);
      damaged.write(broken);
      text.write("visits,health\n1,2\n3,4\n");
    }
  }

  void matrix_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exit");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<int>("fileLimit");  ///< bytes any file may grow to (a full disk); 0: none

    auto fit = [](const QString& data, const QString& outcome, const QString& family,
                  const QStringList& more = {}) {
      return QStringList{"fit", "--data", data, "--outcome", outcome, "--family", family} + more;
    };
    auto betaFit = [&](const QStringList& more) { return fit("beta.csv", "value", "beta", more); };
    auto add = [](const char* name, const QStringList& args, const QString& expected,
                  int exit = 2) { QTest::newRow(name) << args << exit << expected << 0; };
    // A full disk: every file dpsynth writes may hold at most `bytes` bytes.
    auto full = [](const char* name, const QStringList& args, const QString& expected,
                   int bytes = 512) { QTest::newRow(name) << args << 2 << expected << bytes; };

    // Data the tool cannot use: file, line and column named.
    add("text outcome", fit("text_outcome.csv", "y", "normal"), "text_outcome.csv:4");
    add("missing value", fit("missing.csv", "y", "normal"), "missing");
    add("negative count", fit("negative.csv", "y", "poisson"), "negative");
    add("fractional count", fit("fraction.csv", "y", "negbin"), "integer");
    // A count past 2^53 is not the value the file holds (its synthetic counts came out as the
    // smallest 64-bit integer, exit 0).
    add("count above 2^53", fit("huge_count.csv", "y", "poisson"), "huge_count.csv:3");
    // Stata takes names of at most 32 characters; ReadStat's .dta 118 let 50 through.
    add("Stata name too long",
        fit("long_name.csv", "a_very_long_column_name_exceeding_thirty_two_chars", "poisson",
            {"--synthetic-out", "syn.dta"}),
        "too long");
    add("beta outside (0,1)", fit("beta_out.csv", "y", "beta"), "beta_out.csv");
    add("one record", fit("one.csv", "y", "normal"), "At least 2");
    add("duplicate columns", fit("duplicate.csv", "y", "normal"), "unique");
    add("ragged row", fit("ragged.csv", "y", "normal"), "ragged.csv:3");
    add("empty file", fit("empty.csv", "y", "normal"), "empty.csv");
    add("header only", fit("header_only.csv", "y", "normal"), "header_only.csv");
    add("binary file", fit("binary.csv", "y", "normal"), "binary.csv");
    // UTF-16 text was called a binary file, with no word of its encoding.
    add("UTF-16 text", fit("utf16.csv", "y", "normal"), "UTF-16");
    add("unknown outcome", fit("beta.csv", "nope", "beta"), "nope");
    add("unknown covariate", betaFit({"--covariates", "nope"}), "nope");
    add("number out of range", fit("overflow.csv", "y", "normal", {"--covariates", "x"}),
        "overflow.csv:3");
    add("values near the double limit", fit("huge_values.csv", "y", "normal", kFast), "rescale");
    add("identifier covariate", fit("ids.csv", "y", "poisson", {"--covariates", "id"}), "id");
    add("escape sequence", fit("escape.csv", "y", "normal"), "escape.csv:3");
    add("huge field", fit("huge_field.csv", "y", "normal"), "huge_field.csv:3");
    add("data is a pipe", fit("pipe.csv", "y", "normal"), "pipe.csv");
    add("data is a device", fit("/dev/zero", "y", "normal"), "/dev/zero");
    add("data is a folder", fit("folder", "y", "normal"), "folder");
    add("data missing", fit("absent.csv", "y", "normal"), "absent.csv");
    add("unknown family", fit("beta.csv", "value", "gamma"), "gamma");
    // Issue 25: SPSS, Stata and SAS files cut short, damaged, or holding CSV text; a format
    // dpsynth does not write, and a column name the output format refuses.
    for (const char* ext : kStatExtensions) {
      for (const char* kind : {"cut", "damaged", "text"}) {
        const QString file = QString("%1.%2").arg(kind, ext);
        QTest::newRow(qPrintable(QString("%1 %2 file").arg(kind, ext)))
            << fit(file, "visits", "poisson") << 2 << file << 0;
      }
    }
    add("synthetic-out in a read-only format",
        betaFit(QStringList{"--synthetic-out", "s.sas7bdat"} + kFast), "s.sas7bdat");
    add("synthetic-out name a Stata file refuses",
        fit("spaced.csv", "y", "poisson",
            QStringList{"--covariates", "my group", "--synthetic-out", "s.dta"} + kFast),
        "'my group'");

    // Flags out of bounds or of the wrong kind.
    add("draws 2e9", betaFit({"--draws", "2e9"}), "--draws");
    add("draws 0", betaFit({"--draws", "0"}), "--draws");
    add("draws -5", betaFit({"--draws", "-5"}), "--draws");
    add("chains 0", betaFit({"--chains", "0"}), "--chains");
    add("metric unknown", betaFit({"--metric", "unit"}), "--metric");
    add("chains 1e3", betaFit({"--chains", "1e3"}), "--chains");
    add("chains x draws", betaFit({"--chains", "200", "--draws", "1000000"}), "--chains");
    add("warmup -1", betaFit({"--warmup", "-1"}), "--warmup");
    add("bins 1e9", betaFit({"--mechanism", "ph", "--epsilon", "1", "--bins", "1e9"}), "--bins");
    add("seed -1", betaFit({"--seed", "-1"}), "--seed");
    add("seed 1e3", betaFit({"--seed", "1e3"}), "--seed");
    add("seed text", betaFit({"--seed", "abc"}), "--seed");
    add("seed too big", betaFit({"--seed", "18446744073709551616"}), "--seed");
    add("epsilon 0", betaFit({"--mechanism", "censor-uw", "--epsilon", "0"}), "--epsilon");
    add("epsilon -1", betaFit({"--mechanism", "censor-uw", "--epsilon", "-1"}), "--epsilon");
    add("epsilon inf", betaFit({"--mechanism", "censor-uw", "--epsilon", "inf"}), "--epsilon");
    add("epsilon nan", betaFit({"--mechanism", "censor-uw", "--epsilon", "nan"}), "--epsilon");
    add("epsilon 1e400", betaFit({"--mechanism", "censor-uw", "--epsilon", "1e400"}), "--epsilon");
    add("c negative", betaFit({"--mechanism", "lw", "--c", "-1"}), "--c");
    add("k 2", betaFit({"--mechanism", "lw-final", "--k", "2"}), "k");
    add("k text", betaFit({"--mechanism", "lw-final", "--k", "abc"}), "--k");
    add("downscale 0", betaFit({"--mechanism", "censor-w", "--epsilon", "2", "--downscale", "0"}),
        "downscale");
    add("downscale 2", betaFit({"--mechanism", "censor-w", "--epsilon", "2", "--downscale", "2"}),
        "downscale");
    add("unknown mechanism", betaFit({"--mechanism", "magic"}), "magic");
    add("unknown neighbours", betaFit({"--neighbours", "swap"}), "swap");
    add("datasets 0", betaFit({"--datasets", "0"}), "--datasets");
    add("datasets 1e9", betaFit({"--datasets", "1e9"}), "--datasets");
    add("threads -1", betaFit({"--threads", "-1"}), "--threads");
    add("sd-scale 0", fit("counts.csv", "count", "normal", {"--sd-scale", "0"}), "--sd-scale");
    add("radius -1", betaFit({"--mechanism", "cw", "--radius", "-1"}), "--radius");
    add("censor without epsilon", betaFit({"--mechanism", "censor-uw"}), "--epsilon");
    // Beta's natural bounds [0, 1] are public (cli_test's phTakesBetasNaturalBounds); counts have
    // none.
    add("ph without bounds",
        fit("counts.csv", "count", "poisson", {"--mechanism", "ph", "--epsilon", "1"}), "--lower");
    add("ph bounds inverted",
        betaFit({"--mechanism", "ph", "--epsilon", "1", "--lower", "1", "--upper", "0"}), "lower");
    add("weights-from with lw", betaFit({"--mechanism", "lw", "--weights-from", "beta.csv"}),
        "--weights-from");
    add("weights-from missing",
        betaFit(QStringList{"--mechanism", "censor-w", "--epsilon", "2", "--weights-from",
                            "absent.csv"} +
                kFast),
        "absent.csv");
    // The data themselves as the "public" reference would make censor-w's DP label false.
    add("weights-from the data",
        betaFit(
            QStringList{"--mechanism", "censor-w", "--epsilon", "2", "--weights-from", "beta.csv"} +
            kFast),
        "same records");

    // Outputs checked before any sampling.
    add("synthetic-out empty", betaFit({"--synthetic-out", ""}), "path is empty");
    add("report empty", betaFit({"--report", ""}), "path is empty");
    add("synthetic-out up from a missing folder onto the input",
        betaFit({"--synthetic-out", "nope/../beta.csv"}), "does not exist");
    add("report up from a missing folder onto the input", betaFit({"--report", "nope/../beta.csv"}),
        "does not exist");
    add("synthetic-out is a folder", betaFit({"--synthetic-out", "folder"}), "folder");
    add("synthetic-out trailing slash", betaFit({"--synthetic-out", "out/"}), "folder");
    add("synthetic-out in a missing folder", betaFit({"--synthetic-out", "absent/x.csv"}),
        "does not exist");
    add("report is a folder", betaFit({"--report", "folder"}), "folder");
    add("synthetic-out is the data", betaFit({"--synthetic-out", "beta.csv"}), "input");
    add("report is the data", betaFit({"--report", "beta.csv"}), "input");
    add("report is the synthetic file", betaFit({"--synthetic-out", "s.csv", "--report", "s.csv"}),
        "also written");
    add("report is the sidecar", betaFit({"--synthetic-out", "s.csv", "--report", "s.csv.json"}),
        "also written");
    add("datasets clobber the input",
        fit("d_1.csv", "y", "beta", {"--datasets", "2", "--synthetic-out", "d.csv"}), "input");
    add("sidecar clobbers the input",
        fit("syn.csv.json", "value", "beta", {"--synthetic-out", "syn.csv"}), "input");

    // Nothing lost (issue 21): dpsynth replaces or deletes only what it can show it wrote, and
    // never writes over what a command reads.
    add("sidecar path holds another JSON listing files",
        betaFit(QStringList{"--synthetic-out", "notes.csv"} + kFast), "notes.csv.json");
    add("a dataset name of the bundle is the user's file",
        betaFit(QStringList{"--datasets", "2", "--synthetic-out", "d.csv"} + kFast), "d_1.csv");
    add("infer over its own release",
        QStringList{"infer", "--release", "post/summary.json", "--out", "post"} + kFastInfer,
        "input");
    add("infer over its own release named draws.csv",
        QStringList{"infer", "--release", "post2/draws.csv", "--out", "post2"} + kFastInfer,
        "input");
    add("infer out is a link to the release's folder",
        QStringList{"infer", "--release", "post/summary.json", "--out", "link"} + kFastInfer,
        "input");
    add("infer out is a file",
        QStringList{"infer", "--release", "post/summary.json", "--out", "beta.csv"} + kFastInfer,
        "not a folder");
    add("study config is one of its outputs",
        {"study", "--config", "so/summary.json", "--out", "so", "--quiet"}, "input");
    add("study out is a file", {"study", "--config", "so/summary.json", "--out", "beta.csv"},
        "not a folder");
    add("bench out is a folder", {"bench", "--quick", "--only", "csv import", "--out", "folder"},
        "folder");
    add("bench out in a missing folder",
        {"bench", "--quick", "--only", "csv import", "--out", "absent/b.json"}, "does not exist");
    add("release over its data",
        {"release", "--kind", "naive-bayes", "--data", "nb.csv", "--class", "y", "--class-levels",
         "a|b", "--features", "u", "--levels", "u=0|1", "--epsilon", "1", "--out", "nb.csv"},
        "input");

    // Sessions and `dpsynth run`.
    add("session missing", {"run", "--session", "absent.dpsynth", "--out", "o"}, "absent");
    add("session is a pipe", {"run", "--session", "pipe.csv", "--out", "o"}, "pipe.csv");
    add("session is a device", {"run", "--session", "/dev/zero", "--out", "o"}, "/dev/zero");
    add("session not json", {"run", "--session", "session_text.dpsynth", "--out", "o"},
        "session_text.dpsynth");
    add("session keys missing", {"run", "--session", "session_bad.dpsynth", "--out", "o"},
        "session_bad.dpsynth");
    add("session number overflow", {"run", "--session", "session_big_number.dpsynth", "--out", "o"},
        "session_big_number");
    add("session newer version", {"run", "--session", "session_version.dpsynth", "--out", "o"},
        "version");
    add("run threads -1",
        {"run", "--session", "session_bad.dpsynth", "--out", "o", "--threads", "-1"}, "--threads");

    // generate.
    add("generate n 1e13", {"generate", "--kind", "beta", "--n", "1e13", "--out", "g.csv"}, "--n");
    add("generate n -1", {"generate", "--kind", "beta", "--n", "-1", "--out", "g.csv"}, "--n");
    add("generate kind", {"generate", "--kind", "magic", "--out", "g.csv"}, "magic");
    add("generate seed -1", {"generate", "--kind", "beta", "--seed", "-1", "--out", "g.csv"},
        "--seed");
    add("generate over the data", {"generate", "--kind", "beta", "--out", "folder"}, "folder");

    // Release layouts (issue 21, 12): a level or class named twice would make two cells of one.
    auto nbRelease = [](const QStringList& more) {
      return QStringList{"release", "--kind", "naive-bayes", "--data", "nb.csv",
                         "--class", "y",      "--features",  "u",      "--epsilon",
                         "1",       "--out",  "r.json",      "--seed", "1"} +
             more;
    };
    add("release duplicate level", nbRelease({"--class-levels", "a|b", "--levels", "u=0|0|1"}),
        "'0'");
    add("release duplicate class", nbRelease({"--class-levels", "a|b|a", "--levels", "u=0|1"}),
        "'a'");
    add("release levels given twice",
        nbRelease({"--class-levels", "a|b", "--levels", "u=0|1", "--levels", "u=1|0"}), "u");
    add("release feature named twice",
        QStringList{"release", "--kind", "naive-bayes", "--data", "nb.csv", "--class", "y",
                    "--class-levels", "a|b", "--features", "u,u", "--levels", "u=0|1", "--epsilon",
                    "1", "--out", "r.json"},
        "'u'");

    // Issue 21, 5: m synthetic datasets of n records are bounded (m x n x mechanisms <= 10^8),
    // refused before the sampling with the largest m that fits.
    add("run synthetic_datasets beyond the bound",
        {"run", "--session", "many.dpsynth", "--out", "o", "--quiet"}, "use synthetic_datasets");
    add("fit datasets beyond the bound",
        fit("records.csv", "y", "poisson",
            QStringList{"--datasets", "1000", "--synthetic-out", "s.csv"} + kFast),
        "use --datasets 999");

    // Issue 21, 6: what a release the readers accept asks of memory is checked before anything
    // is allocated (no bad_alloc, no 8.5 GB).
    add("infer ph n 1e8 on four chains",
        QStringList{"infer", "--release", "ph1e8.json", "--family", "normal", "--out", "pi",
                    "--chains", "4", "--iterations", "20", "--warmup", "10", "--seed", "1"},
        "use --chains 1");
    // A family whose values all fall outside the histogram's bounds: one edge bin holds every
    // latent record, and the release says nothing (it ran to the end, every acceptance 1).
    add("infer ph beta outside the bounds",
        QStringList{"infer", "--release", "ph_far.json", "--family", "beta", "--out", "pi"} +
            kFastInfer,
        "edge bin");
    add("infer linreg n 1e8",
        QStringList{"infer", "--release", "lin1e8.json", "--out", "pi"} + kFastInfer,
        "latent records alone");
    add("infer naive-Bayes n 1e8",
        QStringList{"infer", "--release", "nb1e8.json", "--out", "pi"} + kFastInfer,
        "latent records alone");
    add("infer draws beyond memory",
        {"infer", "--release", "post/summary.json", "--out", "pi", "--chains", "256",
         "--iterations", "10000000", "--warmup", "1", "--seed", "1"},
        "--chains");

    // Issue 21, 15: the user's environment is bad input (exit 2), one line naming their path.
    const QStringList quickInfer =
        QStringList{"infer", "--release", "post/summary.json"} + kFastInfer;
    add("run out under /proc", {"run", "--session", "ok.dpsynth", "--out", "/proc/dpsynth-x"},
        "/proc");
    add("study out under /proc",
        {"study", "--config", "so/summary.json", "--out", "/proc/dpsynth-x", "--quiet"}, "/proc");
    add("infer out under /proc", quickInfer + QStringList{"--out", "/proc/dpsynth-x"}, "/proc");
    add("run out inside a file", {"run", "--session", "ok.dpsynth", "--out", "beta.csv/sub"},
        "not a folder");
    add("study out inside a file",
        {"study", "--config", "so/summary.json", "--out", "beta.csv/sub", "--quiet"},
        "not a folder");
    add("infer out inside a file", quickInfer + QStringList{"--out", "beta.csv/sub"},
        "not a folder");
    add("run release is a symlink", {"run", "--session", "ok.dpsynth", "--out", "linked"},
        "release is a symbolic link");
    add("run out is a symlink loop", {"run", "--session", "ok.dpsynth", "--out", "loop"},
        "loop of symbolic links");
    add("study out is a symlink loop",
        {"study", "--config", "so/summary.json", "--out", "loop", "--quiet"},
        "loop of symbolic links");
    add("infer out is a symlink loop", quickInfer + QStringList{"--out", "loop"},
        "loop of symbolic links");
    add("fit synthetic-out through a symlink loop", betaFit({"--synthetic-out", "loop/s.csv"}),
        "loop of symbolic links");
    add("fit report is a symlink loop", betaFit({"--report", "loop"}), "loop of symbolic links");
    add("generate out is a symlink loop", {"generate", "--kind", "beta", "--out", "loop"},
        "loop of symbolic links");
    add("bench out is a symlink loop",
        {"bench", "--quick", "--only", "csv import", "--out", "loop"}, "loop of symbolic links");
    add("data is a symlink loop", fit("loop", "y", "normal"), "loop");
    add("shard empty", {"study", "--config", "so/summary.json", "--out", "st", "--shard", ""},
        "--shard");
    full("run on a full disk", {"run", "--session", "ok.dpsynth", "--out", "o", "--quiet"},
         "cannot write '");
    full("fit on a full disk", betaFit(QStringList{"--report", "r.json", "--quiet"} + kFast),
         "r.json': File too large");
    full("fit synthetic data on a full disk",
         betaFit(QStringList{"--synthetic-out", "s.csv", "--datasets", "3", "--quiet"} + kFast),
         "s_");
    full("infer on a full disk", quickInfer + QStringList{"--out", "pi"}, "pi/");
    // 128 bytes: study.json itself does not fit, so the study has stored nothing (one that has
    // stored complete replicates keeps them, as after Ctrl-C, and resumes).
    full("study on a full disk", {"study", "--config", "so/summary.json", "--out", "st", "--quiet"},
         "study.json': File too large", 128);
    full("generate on a full disk", {"generate", "--kind", "beta", "--out", "g.csv"},
         "g.csv': File too large");
    full("release on a full disk",
         {"release", "--kind", "naive-bayes", "--data", "nb.csv", "--class", "y", "--class-levels",
          "a|b", "--features", "u", "--levels", "u=0|1", "--epsilon", "1", "--out", "r.json",
          "--seed", "1"},
         "r.json': File too large");
    full("bench on a full disk", {"bench", "--quick", "--only", "csv import", "--out", "b.json"},
         "File too large");
  }

  void matrix() {
    QFETCH(QStringList, args);
    QFETCH(int, exit);
    QFETCH(QString, expected);
    QFETCH(int, fileLimit);
    const auto before = folderSnapshot(dir_->path());
    const Run r = fileLimit > 0 ? runCliWithFileLimit(args, dir_->path(), rlim_t(fileLimit))
                                : runCli(args, dir_->path());
    QVERIFY2(r.exitCode == exit, qPrintable(QString("exit %1: %2").arg(r.exitCode).arg(r.err)));
    QVERIFY2(r.err.contains(expected), qPrintable(r.err.left(400)));
    QVERIFY2(r.err.trimmed().count('\n') == 0, qPrintable(r.err.left(400)));  // one line
    QVERIFY2(r.err.size() < 600, qPrintable(r.err.left(400)));                // values quoted short
    QVERIFY2(!r.err.contains(QChar(0x1b)), "an escape sequence reached the terminal");
    // Messages name the user's paths, never a hidden staging folder.
    QVERIFY2(!r.err.contains(".dpsynth-"), qPrintable(r.err.left(400)));
    QCOMPARE(folderSnapshot(dir_->path()), before);
  }

 private:
  std::unique_ptr<QTemporaryDir> dir_;
};

QTEST_GUILESS_MAIN(BadInputMatrixTest)
#include "bad_input_matrix_test.moc"
