#include "ui/controllers/files_read.h"

#include <QDir>
#include <QMessageBox>
#include <QObject>
#include <filesystem>
#include <system_error>

#include "core/report/ownership_manifest.h"

namespace dpsynth::ui {

QString inputAmong(const QStringList& outputs, const QStringList& inputs, QString* input) {
  for (const QString& output : outputs) {
    for (const QString& read : inputs) {
      if (read.isEmpty() || output.isEmpty()) continue;
      std::error_code ec;
      // equivalent() compares the files themselves (device and inode): hard links, symbolic
      // links and "./a/../data.csv" all name the one file they lead to.
      if (std::filesystem::equivalent(output.toStdString(), read.toStdString(), ec) && !ec) {
        if (input) *input = read;
        return output;
      }
    }
  }
  return {};
}

QString isAnInputProblem(const QString& output, const QString& input) {
  const QString what = output == input
                           ? QObject::tr("%1 is a file the studio reads").arg(output)
                           : QObject::tr("%1 is %2, which the studio reads").arg(output, input);
  return QObject::tr(
             "%1: refusing to overwrite it. Choose another name or folder; nothing was "
             "written.")
      .arg(what);
}

namespace {
FilesReadSource& filesReadSource() {
  static FilesReadSource source;
  return source;
}
}  // namespace

void setFilesTheStudioReads(FilesReadSource source) { filesReadSource() = std::move(source); }

QStringList filesTheStudioReads() {
  const FilesReadSource& source = filesReadSource();
  return source ? source() : QStringList();
}

QString foreignFilesText(const QString& folder, const QStringList& names) {
  const QString where = QDir::toNativeSeparators(folder);
  const QString list = names.join(QStringLiteral(", "));
  return names.size() == 1
             ? QObject::tr(
                   "%1 holds %2, which dpsynth did not write (or which changed since it "
                   "wrote it).")
                   .arg(where, list)
             : QObject::tr(
                   "%1 holds %2, which dpsynth did not write (or which changed since it "
                   "wrote them).")
                   .arg(where, list);
}

QStringList pathsIn(const QString& folder, const std::vector<std::string>& names) {
  QStringList paths;
  for (const auto& name : names) paths << QDir(folder).filePath(QString::fromStdString(name));
  return paths;
}

bool mayReplaceForeignFiles(QWidget* parent, const ReplaceQuestion& ask, const QString& folder,
                            const std::vector<std::string>& names, const QString& question,
                            QStringList& foreign) {
  foreign.clear();
  try {
    for (const auto& f : core::report::foreignFiles(folder.toStdString(), names))
      foreign << QString::fromStdString(f);
  } catch (const std::exception&) {
    return true;  // not a readable folder: the writer's own error names it
  }
  if (foreign.isEmpty()) return true;
  const QString text = foreignFilesText(folder, foreign) + QLatin1Char(' ') + question;
  if (ask) return ask(text);
  return QMessageBox::question(parent, QObject::tr("Replace files?"), text,
                               QMessageBox::Yes | QMessageBox::No,
                               QMessageBox::No) == QMessageBox::Yes;
}

}  // namespace dpsynth::ui
