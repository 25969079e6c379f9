/// dpsynth-studio: the desktop front end. Wiring only: parse the command line, build the
/// window, load what was asked for, optionally run and take a screenshot.
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <cstdio>

#include "core/pipeline/mechanism.h"
#include "core/version.h"
#include "ui/main_window.h"
#include "ui/panels/data_panel.h"
#include "ui/panels/mechanism_panel.h"
#include "ui/plots/plots_view.h"

namespace {

using dpsynth::ui::MainWindow;

/// Saves the window as a PNG; returns the process exit code.
int saveScreenshot(MainWindow& window, const QString& path) {
  if (!window.grab().save(path)) {
    std::fprintf(stderr, "dpsynth-studio: cannot write screenshot %s\n", qPrintable(path));
    return 1;
  }
  return 0;
}

/// Prints errors to stderr (the dialog would never be seen in screenshot mode).
void printError(const dpsynth::ui::ErrorReport& report) {
  std::fprintf(stderr, "dpsynth-studio: %s\n", qPrintable(report.oneLine()));
}

}  // namespace

int main(int argc, char* argv[]) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("dpsynth"));
  QApplication::setApplicationName(QStringLiteral("dpsynth-studio"));
  QApplication::setApplicationVersion(QString::fromStdString(dpsynth::core::version()));

  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("Differentially private synthetic data studio"));
  parser.addHelpOption();
  parser.addVersionOption();
  const QCommandLineOption sample(QStringLiteral("sample"),
                                  QStringLiteral("Load a bundled sample (nbmix, beta, poisson, "
                                                 "salary)."),
                                  QStringLiteral("NAME"));
  const QCommandLineOption data(QStringLiteral("data"), QStringLiteral("Load a CSV file."),
                                QStringLiteral("FILE.csv"));
  const QCommandLineOption session(QStringLiteral("session"),
                                   QStringLiteral("Open a .dpsynth session."),
                                   QStringLiteral("FILE"));
  const QCommandLineOption run(QStringLiteral("run"),
                               QStringLiteral("Check these mechanisms (comma-separated) and run."),
                               QStringLiteral("MECHS"));
  const QCommandLineOption screenshot(
      QStringLiteral("screenshot"),
      QStringLiteral("Save the window as PNG once the run has finished (or at once without "
                     "--run), then exit."),
      QStringLiteral("FILE.png"));
  const QCommandLineOption tab(QStringLiteral("tab"),
                               QStringLiteral("Show this plot tab (0-5) before the screenshot."),
                               QStringLiteral("N"));
  parser.addOptions({sample, data, session, run, screenshot, tab});
  parser.addPositionalArgument(QStringLiteral("file"),
                               QStringLiteral("A CSV file or a .dpsynth session to open."),
                               QStringLiteral("[file]"));
  parser.process(app);

  std::vector<dpsynth::core::pipeline::Mechanism> mechanisms;
  if (parser.isSet(run)) {
    try {
      for (const QString& name : parser.value(run).split(',', Qt::SkipEmptyParts)) {
        mechanisms.push_back(dpsynth::core::pipeline::parseMechanism(name.trimmed().toStdString()));
      }
    } catch (const std::invalid_argument& e) {
      std::fprintf(stderr, "dpsynth-studio: %s\n", e.what());
      return 2;
    }
  }

  MainWindow window;
  const bool headless = parser.isSet(screenshot);
  if (headless) {
    window.setErrorPresenter(printError);
    window.resize(1600, 1000);
  }

  bool loaded = true;
  const QStringList positional = parser.positionalArguments();
  if (!positional.isEmpty()) {
    const QString file = positional.front();
    loaded = file.endsWith(QStringLiteral(".dpsynth"), Qt::CaseInsensitive)
                 ? window.openSession(file)
                 : window.dataPanel()->loadFile(file);
  } else if (parser.isSet(session)) {
    loaded = window.openSession(parser.value(session));
  } else if (parser.isSet(data)) {
    loaded = window.dataPanel()->loadFile(parser.value(data));
  } else if (parser.isSet(sample)) {
    loaded = window.dataPanel()->loadSample(parser.value(sample));
  } else {
    window.loadDefaults();
  }
  if (!mechanisms.empty()) {
    window.mechanismPanel()->setChecked(mechanisms);
    window.mechanismPanel()->setCurrent(mechanisms.front());
  }
  if (parser.isSet(tab)) window.plotsView()->setCurrentIndex(parser.value(tab).toInt());
  window.show();
  if (headless && !loaded) return 2;

  if (headless) {
    const QString path = parser.value(screenshot);
    if (parser.isSet(run)) {
      QObject::connect(&window, &MainWindow::runEnded, &window, [&window, path](bool ok) {
        // Let queued replots land before grabbing.
        QTimer::singleShot(200, &window, [&window, path, ok] {
          const int code = saveScreenshot(window, path);
          QApplication::exit(code != 0 ? code : (ok ? 0 : 1));
        });
      });
      if (!window.startRun(true)) return 2;  // the presenter prints why
    } else {
      QTimer::singleShot(200, &window,
                         [&window, path] { QApplication::exit(saveScreenshot(window, path)); });
    }
  } else if (parser.isSet(run)) {
    window.startRun(true);
  }
  return app.exec();
}
