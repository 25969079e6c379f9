#pragma once
/// What every workspace is built from besides the document: the services that do work for it
/// (reading data, running the pipeline) and the channel through which it tells the analyst
/// something (status bar, error and refusal dialogs, all shown by the window). Workspaces reach
/// each other only through the document, never through the window.
#include <QObject>
#include <QString>

#include "ui/dialogs/error_report.h"
#include "ui/dialogs/release_refused_dialog.h"

namespace dpsynth::ui {

class AppSettings;
class DataService;
class RunController;

/// Messages for the analyst; the window shows them (tests record them).
class StudioNotifier : public QObject {
  Q_OBJECT

 public:
  static constexpr int kStatusTimeoutMs = 8000;

  using QObject::QObject;
  void message(const QString& text, int timeoutMs = kStatusTimeoutMs) {
    emit messageShown(text, timeoutMs);
  }
  void error(const ErrorReport& report) { emit errorShown(report); }
  void refusal(const RefusalReport& report) { emit refusalShown(report); }

 signals:
  void messageShown(const QString& text, int timeoutMs);
  void errorShown(const dpsynth::ui::ErrorReport& report);
  void refusalShown(const dpsynth::ui::RefusalReport& report);
};

struct StudioServices {
  DataService* data = nullptr;
  RunController* run = nullptr;
  StudioNotifier* notifier = nullptr;
  AppSettings* appSettings = nullptr;
};

}  // namespace dpsynth::ui
