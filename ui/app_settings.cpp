#include "ui/app_settings.h"

namespace dpsynth::ui {
namespace {

constexpr auto kRecentFiles = "files/recent";
constexpr auto kGeometry = "window/geometry";
constexpr auto kState = "window/state";
constexpr auto kSplitterPrefix = "window/splitter/";
constexpr auto kAutoRun = "run/autoRun";

}  // namespace

QStringList AppSettings::recentFiles() const {
  return settings_.value(kRecentFiles).toStringList();
}

void AppSettings::addRecentFile(const QString& path) {
  QStringList files = recentFiles();
  files.removeAll(path);
  files.prepend(path);
  while (files.size() > kMaxRecentFiles) files.removeLast();
  settings_.setValue(kRecentFiles, files);
}

void AppSettings::removeRecentFile(const QString& path) {
  QStringList files = recentFiles();
  files.removeAll(path);
  settings_.setValue(kRecentFiles, files);
}

QByteArray AppSettings::windowGeometry() const { return settings_.value(kGeometry).toByteArray(); }
void AppSettings::setWindowGeometry(const QByteArray& g) { settings_.setValue(kGeometry, g); }
QByteArray AppSettings::windowState() const { return settings_.value(kState).toByteArray(); }
void AppSettings::setWindowState(const QByteArray& s) { settings_.setValue(kState, s); }

QByteArray AppSettings::splitterState(const QString& name) const {
  return settings_.value(QString::fromLatin1(kSplitterPrefix) + name).toByteArray();
}
void AppSettings::setSplitterState(const QString& name, const QByteArray& state) {
  settings_.setValue(QString::fromLatin1(kSplitterPrefix) + name, state);
}

bool AppSettings::autoRun() const { return settings_.value(kAutoRun, false).toBool(); }
void AppSettings::setAutoRun(bool on) { settings_.setValue(kAutoRun, on); }

}  // namespace dpsynth::ui
