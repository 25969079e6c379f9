/// The real dpsynth-studio binary: --help and --version need no display, and --session FILE
/// opens the session (Qt's application object would otherwise take --session for itself).
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Result {
  int exitCode = -1;
  QString out, err;
};

/// Runs the studio with `arguments`; display: "" = no display at all (no DISPLAY, no
/// WAYLAND_DISPLAY, QT_QPA_PLATFORM unset), else the value of QT_QPA_PLATFORM.
Result runStudio(const QStringList& arguments, const QString& platform = {}) {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) env.remove(name);
  if (!platform.isEmpty()) env.insert("QT_QPA_PLATFORM", platform);
  QProcess process;
  process.setProcessEnvironment(env);
  process.start(QStringLiteral(DPSYNTH_STUDIO_PATH), arguments);
  Result r;
  if (!process.waitForFinished(120000)) return r;
  r.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
  r.out = QString::fromLocal8Bit(process.readAllStandardOutput());
  r.err = QString::fromLocal8Bit(process.readAllStandardError());
  return r;
}

}  // namespace

class StudioCommandLineTest : public QObject {
  Q_OBJECT

 private slots:
  void helpWorksWithoutADisplay() {
    const Result r = runStudio({"--help"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("--session"));
    QVERIFY(r.out.contains("--screenshot"));
    QVERIFY(r.out.startsWith("Usage: dpsynth-studio"));
  }

  void versionWorksWithoutADisplay() {
    const Result r = runStudio({"--version"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.startsWith("dpsynth-studio "));
  }

  void sessionOptionOpensTheSession() {
    QTemporaryDir dir;
    // A session whose data file is gone: opening it must fail (exit 2) and say why. Were
    // --session ignored, the studio would start on its default sample and exit 0.
    const QString session = dir.filePath("gone.dpsynth");
    QFile in(DPSYNTH_SOURCE_DIR "/tests/data/sessions/before_results.dpsynth");
    QVERIFY(in.open(QIODevice::ReadOnly));
    QByteArray text = in.readAll();
    text.replace("../../../resources/samples/nbmix.csv", "missing.csv");
    QFile out(session);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(text);
    out.close();
    const QString shot = dir.filePath("shot.png");
    Result r = runStudio({"--session", session, "--screenshot", shot}, "offscreen");
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("missing.csv"), qPrintable(r.err));

    // A good session opens; the same with --session=FILE.
    const QString good =
        QStringLiteral(DPSYNTH_SOURCE_DIR "/tests/data/sessions/before_results.dpsynth");
    r = runStudio({"--session", good, "--screenshot", shot}, "offscreen");
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(QFile::exists(shot));
    r = runStudio({"--session=" + session, "--screenshot", shot}, "offscreen");
    QCOMPARE(r.exitCode, 2);
  }
};

QTEST_GUILESS_MAIN(StudioCommandLineTest)
#include "studio_command_line_test.moc"
