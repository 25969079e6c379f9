/// dpsynth-studio: the desktop front end. Wiring only: parse the command line, build the
/// window, load what was asked for, optionally run and take a screenshot.
#include <QApplication>
#include <QCommandLineParser>
#include <QDialog>
#include <QScrollArea>
#include <QTimer>
#include <cstdio>
#include <vector>

#include "core/exec/large_blocks.h"
#include "core/pipeline/mechanism.h"
#include "core/privacy/neighbours.h"
#include "core/version.h"
#include "ui/controllers/document_controller.h"
#include "ui/document/studio_document.h"
#include "ui/main_window.h"
#include "ui/plots/plots_view.h"
#include "ui/services/data_service.h"
#include "ui/widgets/collapsible_section.h"
#include "ui/workspaces/frontier/frontier_workspace.h"
#include "ui/workspaces/synthesis/synthesis_workspace.h"

namespace {

using dpsynth::ui::MainWindow;

/// Unfolds the sampler settings and scrolls the left pane to the widget with this object name.
void reveal(MainWindow& window, const QString& objectName) {
  for (auto* section : window.findChildren<dpsynth::ui::CollapsibleSection*>())
    section->setExpanded(true);
  auto* target = window.findChild<QWidget*>(objectName);
  if (!target) {
    std::fprintf(stderr, "dpsynth-studio: no widget named %s\n", qPrintable(objectName));
    return;
  }
  for (QWidget* w = target->parentWidget(); w; w = w->parentWidget()) {
    if (auto* scroll = qobject_cast<QScrollArea*>(w)) {
      scroll->widget()->adjustSize();
      scroll->ensureWidgetVisible(target, 20, 40);
      break;
    }
  }
}

/// Saves the window as a PNG; returns the process exit code.
int saveScreenshot(MainWindow& window, const QString& path) {
  if (const QVariant name = window.property("dpsynthReveal"); name.isValid()) {
    reveal(window, name.toString());
    QCoreApplication::processEvents();
    reveal(window, name.toString());  // again, once the unfolded section has its size
  }
  if (!window.grab().save(path)) {
    std::fprintf(stderr, "dpsynth-studio: cannot write screenshot %s\n", qPrintable(path));
    return 1;
  }
  return 0;
}

/// Saves the first visible dialog of the window (say, "Release refused") as a PNG.
int saveDialogScreenshot(MainWindow& window, const QString& path) {
  for (auto* dialog : window.findChildren<QDialog*>()) {
    if (dialog->isVisible()) {
      if (dialog->grab().save(path)) return 0;
      std::fprintf(stderr, "dpsynth-studio: cannot write screenshot %s\n", qPrintable(path));
      return 1;
    }
  }
  std::fprintf(stderr, "dpsynth-studio: no dialog open for %s\n", qPrintable(path));
  return 1;
}

/// argv without the options Qt's application object must not see: QGuiApplication takes
/// "-session ID" and "--session ID" as an X11 session-management id and removes them, so
/// `--session FILE` (ours) would never reach the parser.
std::vector<char*> argvForQt(int argc, char* argv[]) {
  std::vector<char*> out;
  for (int i = 0; i < argc; ++i) {
    const QByteArray arg(argv[i]);
    if (i > 0 && (arg == "--session" || arg == "-session")) {
      ++i;  // and its value
      continue;
    }
    if (i > 0 && arg.startsWith("--session=")) continue;
    out.push_back(argv[i]);
  }
  out.push_back(nullptr);  // argv[argc] is a null pointer, as for main()
  return out;
}

/// Prints errors to stderr (the dialog would never be seen in screenshot mode).
void printError(const dpsynth::ui::ErrorReport& report) {
  std::fprintf(stderr, "dpsynth-studio: %s\n", qPrintable(report.oneLine()));
}

}  // namespace

int main(int argc, char* argv[]) {
  dpsynth::core::exec::returnLargeBlocksOnFree();  // resident memory follows the memory in use
  // Static: these work before (and without) an application object.
  QCoreApplication::setOrganizationName(QStringLiteral("dpsynth"));
  QCoreApplication::setApplicationName(QStringLiteral("dpsynth-studio"));
  QCoreApplication::setApplicationVersion(QString::fromStdString(dpsynth::core::version()));

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
  const QCommandLineOption check(
      QStringLiteral("check"), QStringLiteral("Check these mechanisms (comma-separated), no run."),
      QStringLiteral("MECHS"));
  const QCommandLineOption seed(
      QStringLiteral("seed"),
      QStringLiteral("Turn on 'reproducible (not for release)' with this seed."),
      QStringLiteral("N"));
  const QCommandLineOption neighbours(QStringLiteral("neighbours"),
                                      QStringLiteral("replace-one or add-remove."),
                                      QStringLiteral("RELATION"));
  const QCommandLineOption sampler(QStringLiteral("sampler"),
                                   QStringLiteral("Chains, warm-up and draws, e.g. 2,60,40."),
                                   QStringLiteral("C,W,D"));
  const QCommandLineOption weightsFrom(
      QStringLiteral("weights-from"),
      QStringLiteral("Load a public reference CSV for censor-w / weighted-e weights."),
      QStringLiteral("FILE.csv"));
  const QCommandLineOption show(
      QStringLiteral("show"),
      QStringLiteral("Unfold the sampler settings and scroll to this widget (object name)."),
      QStringLiteral("NAME"));
  const QCommandLineOption dialogShot(
      QStringLiteral("dialog-screenshot"),
      QStringLiteral("With --screenshot: also save the open dialog (e.g. Release refused)."),
      QStringLiteral("FILE.png"));
  const QCommandLineOption frontier(
      QStringLiteral("frontier"),
      QStringLiteral("Show a study folder (dpsynth study --out DIR) in the Frontier workspace."),
      QStringLiteral("DIR"));
  parser.addOptions({sample, data, session, run, screenshot, tab, seed, neighbours, sampler,
                     weightsFrom, show, dialogShot, check, frontier});
  parser.addPositionalArgument(QStringLiteral("file"),
                               QStringLiteral("A CSV file or a .dpsynth session to open."),
                               QStringLiteral("[file]"));
  // First pass before QApplication exists: --help and --version need no display, and
  // --session must be read before Qt removes it (see argvForQt). Qt's own options (-platform,
  // -style…) are unknown here; they are checked in the second pass.
  QStringList arguments;
  for (int i = 0; i < argc; ++i) arguments << QString::fromLocal8Bit(argv[i]);
  parser.parse(arguments);
  if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all"))) {
    // Without an application object Qt does not know the program's name.
    QString help = parser.helpText();
    help.replace(QStringLiteral("<executable_name>"), QStringLiteral("dpsynth-studio"));
    std::fputs(qPrintable(help), stdout);
    return 0;
  }
  if (parser.isSet(QStringLiteral("version"))) {
    std::printf("dpsynth-studio %s\n", dpsynth::core::version().c_str());
    return 0;
  }
  const QString sessionFile = parser.value(session);

  std::vector<char*> qtArgv = argvForQt(argc, argv);
  int qtArgc = static_cast<int>(qtArgv.size()) - 1;
  QApplication app(qtArgc, qtArgv.data());
  parser.process(app);

  std::vector<dpsynth::core::pipeline::Mechanism> mechanisms;
  if (parser.isSet(run) || parser.isSet(check)) {
    try {
      for (const QString& name :
           parser.value(parser.isSet(run) ? run : check).split(',', Qt::SkipEmptyParts)) {
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
  // Scripted starts (a screenshot, a run, a reference typed with the data's choices) need the
  // data before they go on; an interactive one shows the window at once and reads the file
  // behind it, with progress and Cancel.
  const bool scripted = headless || parser.isSet(run) || parser.isSet(weightsFrom);
  dpsynth::ui::StudioDocument* document = window.document();
  dpsynth::ui::DataService* dataService = window.services().data;
  const auto openData = [dataService, scripted](const QString& file) {
    if (scripted) return dataService->loadFile(file);
    dataService->openFile(file);
    return true;
  };
  const QStringList positional = parser.positionalArguments();
  if (!positional.isEmpty()) {
    const QString file = positional.front();
    loaded = file.endsWith(QStringLiteral(".dpsynth"), Qt::CaseInsensitive)
                 ? window.openSession(file)
                 : openData(file);
  } else if (!sessionFile.isEmpty()) {
    loaded = window.openSession(sessionFile);
  } else if (parser.isSet(data)) {
    loaded = openData(parser.value(data));
  } else if (parser.isSet(sample)) {
    loaded = dataService->loadSample(parser.value(sample));
  } else {
    window.loadDefaults();
  }
  // What the command line asks for is the document's starting point, not an edit.
  dpsynth::ui::StudioSettings settings = document->settings();
  if (!mechanisms.empty()) settings.mechanisms = mechanisms;
  try {
    auto& nuts = settings.run.nuts;
    if (parser.isSet(sampler)) {
      const QStringList parts = parser.value(sampler).split(',');
      if (parts.size() != 3) throw std::invalid_argument("--sampler needs C,W,D");
      nuts.chains = parts[0].toInt();
      nuts.warmup = parts[1].toInt();
      nuts.draws = parts[2].toInt();
    }
    if (parser.isSet(seed)) {
      nuts.seed = parser.value(seed).toULongLong();
      settings.reproducible = true;
    }
    if (parser.isSet(neighbours))
      settings.run.neighbours =
          dpsynth::core::privacy::parseNeighbours(parser.value(neighbours).toStdString());
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "dpsynth-studio: %s\n", e.what());
    return 2;
  }
  // Only when asked: replacing a session's settings would mark its results outdated.
  if (!mechanisms.empty() || parser.isSet(sampler) || parser.isSet(seed) ||
      parser.isSet(neighbours)) {
    document->replaceSettings(settings);
  }
  if (!mechanisms.empty()) document->setCurrentMechanism(mechanisms.front());
  if (parser.isSet(weightsFrom) &&
      !dataService->loadReference(parser.value(weightsFrom), document->settings().dataset)) {
    loaded = false;
  }
  if (parser.isSet(tab))
    window.synthesis()->plotsView()->setCurrentIndex(parser.value(tab).toInt());
  window.documentController()->setClean();  // what the command line set up is the start
  if (parser.isSet(frontier)) {
    auto* workspace = window.findChild<dpsynth::ui::FrontierWorkspace*>();
    if (!workspace->openStudyFolder(parser.value(frontier))) {
      std::fprintf(stderr, "dpsynth-studio: %s\n", qPrintable(workspace->statusText()));
      loaded = false;
    }
    window.workspaces()->setCurrentWidget(workspace);
  }
  window.show();
  if (headless && !loaded) return 2;
  if (parser.isSet(show)) {
    const QString name = parser.value(show);
    window.setProperty("dpsynthReveal", name);
    QTimer::singleShot(50, &window, [&window, name] { reveal(window, name); });
  }

  if (headless) {
    const QString path = parser.value(screenshot);
    const QString dialogPath = parser.value(dialogShot);
    if (parser.isSet(run)) {
      QObject::connect(window.synthesis(), &dpsynth::ui::SynthesisWorkspace::runEnded, &window,
                       [&window, path, dialogPath](bool ok) {
                         // Let queued replots land before grabbing.
                         QTimer::singleShot(400, &window, [&window, path, ok, dialogPath] {
                           int code = saveScreenshot(window, path);
                           if (code == 0 && !dialogPath.isEmpty())
                             code = saveDialogScreenshot(window, dialogPath);
                           QApplication::exit(code != 0 ? code : (ok ? 0 : 1));
                         });
                       });
      if (!window.synthesis()->startRun(true)) return 2;  // the presenter prints why
    } else {
      QTimer::singleShot(400, &window,
                         [&window, path] { QApplication::exit(saveScreenshot(window, path)); });
    }
  } else if (parser.isSet(run)) {
    window.synthesis()->startRun(true);
  }
  return app.exec();
}
