#include "ui/controllers/input_guard.h"

#include <QObject>
#include <filesystem>
#include <system_error>

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
  return QObject::tr(
             "%1 is %2, which the studio reads: refusing to overwrite it. Choose another "
             "name or folder; nothing was written.")
      .arg(output, input);
}

}  // namespace dpsynth::ui
