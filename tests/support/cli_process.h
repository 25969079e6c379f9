#pragma once
/// Running the real `dpsynth` binary from a test, and proving that a refused command left a
/// folder as it was. Shared by the command-line tests.
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace dpsynth::test {

struct CliRun {
  int exitCode = -1;  ///< -2: did not finish in time; -1: crashed
  QString out, err;
};

/// Runs dpsynth with `args` (in `cwd` when given, stdin closed); kills it after timeoutMs.
inline CliRun runDpsynth(const QStringList& args, const QString& cwd = {}, int timeoutMs = 180000) {
  QProcess p;
  if (!cwd.isEmpty()) p.setWorkingDirectory(cwd);
  p.start(DPSYNTH_CLI_PATH, args);
  p.closeWriteChannel();
  if (!p.waitForFinished(timeoutMs)) {
    p.kill();
    p.waitForFinished();
    return {-2, {}, QString("dpsynth did not finish within %1 s").arg(timeoutMs / 1000)};
  }
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
          QString::fromUtf8(p.readAllStandardOutput()),
          QString::fromUtf8(p.readAllStandardError())};
}

/// Relative path → SHA-256 of every file below dir (hidden ones too); folders as "name/",
/// anything else (a FIFO, a device) as "special".
inline QMap<QString, QByteArray> folderSnapshot(const QString& dir) {
  QMap<QString, QByteArray> out;
  QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot | QDir::System,
                  QDirIterator::Subdirectories);
  while (it.hasNext()) {
    const QString path = it.next();
    const QFileInfo info = it.fileInfo();
    const QString rel = QDir(dir).relativeFilePath(path);
    if (info.isDir()) {
      out[rel + "/"] = {};
    } else if (info.isFile()) {
      QFile f(path);
      out[rel] = f.open(QIODevice::ReadOnly)
                     ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256)
                     : QByteArray("unreadable");
    } else {
      out[rel] = "special";
    }
  }
  return out;
}

}  // namespace dpsynth::test
