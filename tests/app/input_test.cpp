/// Bad input through the real binary (issue 8): numeric flags out of bounds, input files that
/// are not ordinary files, and data whose values must not reach the terminal whole. Each case
/// asserts exit status 2, a one-line message, and that nothing in the folder changed.
#include <sys/stat.h>

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>

#include "support/cli_process.h"

namespace {

using Run = dpsynth::test::CliRun;
Run runInput(const QStringList& args) { return dpsynth::test::runDpsynth(args, {}, 60000); }
/// Every file's hash, to show that a refused command changed nothing.
QMap<QString, QByteArray> snapshot(const QString& folder) {
  return dpsynth::test::folderSnapshot(folder);
}

void write(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(bytes);
}

const QStringList kInputSampler = {"--chains", "1",  "--warmup", "50",
                                   "--draws",  "50", "--seed",   "3"};

}  // namespace

class InputTest : public QObject {
  Q_OBJECT
 private slots:
  void init() {
    dir_ = std::make_unique<QTemporaryDir>();
    QVERIFY(dir_->isValid());
  }

  void generateRefusesBadNumbers_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    QTest::newRow("n in exponent form")
        << QStringList{"--n", "1e13"} << "--n: '1e13' is not a whole";
    QTest::newRow("n negative") << QStringList{"--n", "-1"} << "--n: '-1' is not a whole";
    QTest::newRow("n zero") << QStringList{"--n", "0"} << "from 1 to 1000000";
    QTest::newRow("n too large") << QStringList{"--n", "1000001"} << "'1000001' is out of range";
    QTest::newRow("n beyond 2^64")
        << QStringList{"--n", "99999999999999999999999"} << "is out of range";
    QTest::newRow("n with a sign") << QStringList{"--n", "+5"} << "not a whole number";
    QTest::newRow("n with text") << QStringList{"--n", "12abc"} << "not a whole number";
    QTest::newRow("n decimal") << QStringList{"--n", "10.0"} << "not a whole number";
    QTest::newRow("n hex") << QStringList{"--n", "0x10"} << "not a whole number";
    QTest::newRow("n empty") << QStringList{"--n", ""} << "--n";
    QTest::newRow("seed negative") << QStringList{"--seed", "-1"} << "--seed: '-1' is not a whole";
    QTest::newRow("seed exponent") << QStringList{"--seed", "1e3"} << "not a whole number";
    QTest::newRow("seed 2^64") << QStringList{"--seed", "18446744073709551616"}
                               << "to 18446744073709551615";
    QTest::newRow("escape in value") << QStringList{"--n", "\x1b[31m5"} << "'\\x1b[31m5'";
  }
  void generateRefusesBadNumbers() {
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    const auto before = snapshot(dir_->path());
    const QString out = dir_->filePath("g.csv");
    QElapsedTimer timer;
    timer.start();
    const Run r = runInput(QStringList{"generate", "--kind", "poisson", "--out", out} + args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(timer.elapsed() < 10000);
    QVERIFY2(r.err.contains(expected), qPrintable(r.err));
    QVERIFY2(!r.err.contains('\x1b'), qPrintable(r.err));
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QCOMPARE(snapshot(dir_->path()), before);
  }

  void generateAcceptsTheBounds() {
    const QString out = dir_->filePath("g.csv");
    Run r = runInput({"generate", "--kind", "poisson", "--out", out, "--n", "1", "--seed",
                      "18446744073709551615"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("seed 18446744073709551615"), qPrintable(r.out));
    r = runInput({"generate", "--kind", "poisson", "--out", out, "--n", "1000000", "--seed", "0"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(QFileInfo(out).size() > 3'000'000);
  }

  void nonRegularDataFilesAreRefusedAtOnce_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expected");
    QTest::newRow("FIFO") << "FIFO"
                          << "named pipe";
    QTest::newRow("/dev/zero") << "/dev/zero"
                               << "/dev/zero: this is a device";
    QTest::newRow("folder") << "FOLDER"
                            << "folder, not a file";
  }
  void nonRegularDataFilesAreRefusedAtOnce() {
    QFETCH(QString, path);
    QFETCH(QString, expected);
    if (path == "FIFO") {
      path = dir_->filePath("pipe.csv");
      QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    } else if (path == "FOLDER") {
      path = dir_->filePath("sub");
      QVERIFY(QDir(dir_->path()).mkdir("sub"));
    }
    const auto before = snapshot(dir_->path());
    QElapsedTimer timer;
    timer.start();
    const Run r = runInput(QStringList{"fit", "--data", path, "--outcome", "y", "--family",
                                       "normal", "--synthetic-out", dir_->filePath("s.csv")} +
                           kInputSampler);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(timer.elapsed() < 10000);
    QVERIFY2(r.err.contains(expected), qPrintable(r.err));
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QCOMPARE(snapshot(dir_->path()), before);
  }

  void badDataValuesAreReportedShortAndEscaped_data() {
    QTest::addColumn<QByteArray>("csv");
    QTest::addColumn<QString>("covariates");
    QTest::addColumn<QString>("expected");
    QTest::newRow("1e400 in a covariate") << QByteArray("y,x\n1,2\n2,1e400\n3,4\n4,6\n") << "x"
                                          << "d.csv:3: column 'x': value '1e400' is out of range";
    QTest::newRow("-1e999 in a covariate") << QByteArray("y,x\n1,2\n2,3\n3,-1e999\n4,6\n") << "x"
                                           << "d.csv:4: column 'x'";
    QTest::newRow("1e400 in the outcome") << QByteArray("y\n1\n1e400\n3\n") << ""
                                          << "too large or too small";
    QByteArray ids = "y,id\n";
    for (int i = 0; i < 200; ++i)
      ids += QByteArray::number(i % 5) + ",p" + QByteArray::number(i) + "\n";
    QTest::newRow("identifier covariate") << ids << "id"
                                          << "200 distinct values in 200 records";
    QTest::newRow("ANSI escape") << QByteArray("y\n1\n\x1b[2J\x1b]0;owned\x07\n3\n") << ""
                                 << "'\\x1b[2J\\x1b]0;owned\\x07'";
    QTest::newRow("10 MB field") << QByteArray("y\n1\n") + QByteArray(10 << 20, 'z') + "\n3\n"
                                 << ""
                                 << "... (10485760 bytes)";
    QTest::newRow("not a CSV") << QByteArray("root:x:0:0:secret:/root:/bin/bash\n") << ""
                               << "single column";
  }
  void badDataValuesAreReportedShortAndEscaped() {
    QFETCH(QByteArray, csv);
    QFETCH(QString, covariates);
    QFETCH(QString, expected);
    write(dir_->filePath("d.csv"), csv);
    const auto before = snapshot(dir_->path());
    QStringList args{"fit",
                     "--data",
                     dir_->filePath("d.csv"),
                     "--outcome",
                     "y",
                     "--family",
                     "normal",
                     "--synthetic-out",
                     dir_->filePath("s.csv"),
                     "--report",
                     dir_->filePath("r.json")};
    if (!covariates.isEmpty()) args << "--covariates" << covariates;
    const Run r = runInput(args + kInputSampler);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(expected), qPrintable(r.err.left(300)));
    QVERIFY2(r.err.size() < 600, qPrintable(r.err.left(300)));
    QVERIFY(!r.err.contains('\x1b') && !r.err.contains('\x07'));
    QVERIFY(!r.err.contains("secret"));
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QCOMPARE(snapshot(dir_->path()), before);
  }

  void dpsynthReadsBackAHeaderWithDelimitersInside() {
    // Written by dpsynth, read by dpsynth: a quoted name holding ';' and a tab.
    write(dir_->filePath("d.csv"), "\"y;a\tb\",x\n1,a\n2,b\n3.5,a\n4,b\n");
    const Run r = runInput(QStringList{"fit", "--data", dir_->filePath("d.csv"), "--outcome",
                                       "y;a\tb", "--covariates", "x", "--family", "normal",
                                       "--synthetic-out", dir_->filePath("s.csv")} +
                           kInputSampler);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const Run again = runInput(QStringList{"fit", "--data", dir_->filePath("s.csv"), "--outcome",
                                           "y;a\tb", "--covariates", "x", "--family", "normal"} +
                               kInputSampler);
    QVERIFY2(again.exitCode == 0, qPrintable(again.err));
  }

 private:
  std::unique_ptr<QTemporaryDir> dir_;
};

QTEST_GUILESS_MAIN(InputTest)
#include "input_test.moc"
