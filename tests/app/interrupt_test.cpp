/// Ctrl-C through the real binary while it reads a large input: the read stops at its next
/// check, the command exits 130 with one clear line, and no output (nor a temporary file) is
/// left. Nothing here is timed tightly: the test waits until dpsynth says it is reading, then
/// signals, then allows many seconds for the exit.
#include <signal.h>
#include <sys/types.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

/// About `megabytes` MB of "id,visits,age,income,region" records, written in 1 MB blocks.
bool writeLargeCsv(const QString& path, int megabytes) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return false;
  static const char* const kRegions[] = {"north", "south", "east", "west"};
  QByteArray block;
  block.reserve(1 << 20);
  for (int i = 0; block.size() < (1 << 20); ++i) {
    block += QByteArray("P") + QByteArray::number(1000000 + i) + ',' + QByteArray::number(i % 9) +
             ',' + QByteArray::number(18 + i % 70) + ',' + QByteArray::number(15000 + i % 60000) +
             ".25," + kRegions[i % 4] + '\n';
  }
  if (file.write("id,visits,age,income,region\n") < 0) return false;
  for (int k = 0; k < megabytes; ++k) {
    if (file.write(block) != block.size()) return false;
  }
  return file.flush();
}

}  // namespace

class InterruptTest : public QObject {
  Q_OBJECT

 private slots:
  void ctrlCWhileReadingEndsTheCommandAndWritesNothing() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // ~200 MB: reading and parsing it takes seconds even on a fast machine, so the signal
    // (sent as soon as dpsynth announces the read) lands in the read.
    const QString data = dir.filePath("large.csv");
    QVERIFY(writeLargeCsv(data, 200));

    QProcess p;
    p.start(DPSYNTH_CLI_PATH,
            {"fit", "--data", data, "--outcome", "visits", "--covariates", "age,region",
             "--family", "poisson", "--mechanism", "unweighted", "--seed", "1", "--report",
             dir.filePath("report.json"), "--synthetic-out", dir.filePath("synthetic.csv")});
    p.closeWriteChannel();
    QVERIFY(p.waitForStarted(60000));
    QByteArray err;
    QElapsedTimer waited;
    waited.start();
    while (!err.contains("reading ") && waited.elapsed() < 120000 &&
           p.state() == QProcess::Running) {
      p.waitForReadyRead(1000);
      err += p.readAllStandardError();
    }
    QVERIFY2(err.contains("reading " + data.toUtf8()), err.constData());
    QVERIFY(::kill(static_cast<pid_t>(p.processId()), SIGINT) == 0);

    QVERIFY2(p.waitForFinished(60000), "dpsynth did not stop after Ctrl-C");
    err += p.readAllStandardError();
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 130);
    QVERIFY2(err.contains("dpsynth: cancelled while reading " + data.toUtf8() +
                          "; no files were written"),
             err.constData());
    // Nothing after the read happened (the family was given, so the next line would be about
    // dropped columns or sampling), and nothing was written: not even a temporary file.
    QVERIFY2(!err.contains("stage"), err.constData());
    const QStringList entries =
        QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
    QCOMPARE(entries, QStringList{"large.csv"});
    QVERIFY(p.readAllStandardOutput().isEmpty());
  }
};

QTEST_GUILESS_MAIN(InterruptTest)
#include "interrupt_test.moc"
