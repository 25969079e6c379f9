#pragma once
/// Every QSettings key the studio uses, in one place: window geometry and splitter state,
/// recent files, auto-run. Not a singleton: the window owns one.
#include <QByteArray>
#include <QSettings>
#include <QStringList>

namespace dpsynth::ui {

class AppSettings {
 public:
  static constexpr int kMaxRecentFiles = 8;

  AppSettings() = default;

  QStringList recentFiles() const;
  /// Moves path to the front (most recent first), at most kMaxRecentFiles kept.
  void addRecentFile(const QString& path);
  void removeRecentFile(const QString& path);

  QByteArray windowGeometry() const;
  void setWindowGeometry(const QByteArray& geometry);
  QByteArray windowState() const;
  void setWindowState(const QByteArray& state);
  QByteArray splitterState(const QString& name) const;
  void setSplitterState(const QString& name, const QByteArray& state);

  bool autoRun() const;
  void setAutoRun(bool on);

 private:
  mutable QSettings settings_;
};

}  // namespace dpsynth::ui
