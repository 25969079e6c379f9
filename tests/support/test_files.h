#pragma once
/// Reading back what a test wrote: a file's bytes, a folder's entries.
#include <QDir>
#include <QString>
#include <QStringList>
#include <fstream>
#include <sstream>
#include <string>

namespace dpsynth::test {

/// The file's bytes; empty when it cannot be opened.
inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}
inline std::string readFile(const QString& path) { return readFile(path.toStdString()); }

/// Every entry of the folder, hidden ones too, sorted by name.
inline QStringList folderEntries(const QString& dir) {
  return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

}  // namespace dpsynth::test
