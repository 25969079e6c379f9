/// The loader of the studio's input files: a load runs on the worker thread and only the
/// current one reaches the GUI; Cancel stops it through its stop token (nothing is delivered);
/// errors arrive as reports with the loader's title; shutting down with a load in progress
/// stops and joins the thread. Jobs here are fakes that wait for the stop token, so nothing
/// depends on how fast the machine is.
#include "ui/services/data_loader.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QThread>
#include <QtTest>
#include <atomic>
#include <memory>

#include "core/data/data_error.h"
#include "ui/workers/load_jobs.h"

using namespace dpsynth::ui;
namespace data = dpsynth::core::data;

namespace {

/// Reports 42 %, then waits until stopped (or a minute, should a test forget to stop it).
LoadJob untilStopped(std::shared_ptr<std::atomic<bool>> running = {}) {
  return [running](const LoadContext& context) -> std::optional<LoadedData> {
    if (running) *running = true;
    context.progress(0.42);
    QElapsedTimer clock;
    clock.start();
    while (!context.stop.stop_requested() && clock.elapsed() < 60000) QThread::msleep(2);
    if (running) *running = false;
    return std::nullopt;
  };
}

/// A two-record table typed at once.
LoadJob quick(const QString& name) {
  return [name](const LoadContext& context) {
    auto table =
        std::make_shared<data::CsvTable>(data::parseCsv("y,g\n1,a\n2,b\n", name.toStdString()));
    DataSource source;
    source.file = name;
    return typeAutomatically(std::move(table), source, context);
  };
}

LoadJob failing() {
  return [](const LoadContext&) -> std::optional<LoadedData> {
    throw data::DataError("bad.csv", 7, "count", "value 'x' is not a number");
  };
}

}  // namespace

class DataLoaderTest : public QObject {
  Q_OBJECT

 private slots:
  void deliversTheLoadedData() {
    DataLoader loader(QStringLiteral("test loader"));
    QSignalSpy finished(&loader, &DataLoader::finished);
    QSignalSpy ended(&loader, &DataLoader::ended);
    loader.start(QStringLiteral("Cannot load data"), QStringLiteral("/d/quick.csv"),
                 quick(QStringLiteral("/d/quick.csv")));
    QVERIFY(loader.isLoading());
    QCOMPARE(loader.file(), QStringLiteral("/d/quick.csv"));
    QVERIFY(finished.wait(30000));
    const auto result = finished.first().first().value<LoadedData>();
    QVERIFY(result.table && result.dataset);
    QCOMPARE(result.dataset->size(), std::size_t{2});
    QCOMPARE(QString::fromStdString(result.spec.outcome), QStringLiteral("y"));
    QCOMPARE(result.source.file, QStringLiteral("/d/quick.csv"));
    QCOMPARE(ended.count(), 1);
    QVERIFY(!loader.isLoading());
    QVERIFY(loader.file().isEmpty());
  }

  void cancelStopsTheJobAndDeliversNothing() {
    DataLoader loader(QStringLiteral("test loader"));
    QSignalSpy finished(&loader, &DataLoader::finished);
    QSignalSpy cancelled(&loader, &DataLoader::cancelled);
    QSignalSpy progress(&loader, &DataLoader::progressChanged);
    auto running = std::make_shared<std::atomic<bool>>(false);
    loader.start(QStringLiteral("t"), QStringLiteral("/d/slow.csv"), untilStopped(running));
    QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0, 30000);
    QCOMPARE(progress.first().first().toInt(), 42);
    QVERIFY(*running);
    loader.cancel();
    QVERIFY(cancelled.wait(30000));
    QCOMPARE(cancelled.first().first().toString(), QStringLiteral("/d/slow.csv"));
    QVERIFY(!*running);  // the job itself stopped
    QCOMPARE(finished.count(), 0);
    QVERIFY(!loader.isLoading());
  }

  void aLoadFinishedBeforeTheCancelStillEndsCancelled() {
    DataLoader loader(QStringLiteral("test loader"));
    QSignalSpy finished(&loader, &DataLoader::finished);
    QSignalSpy cancelled(&loader, &DataLoader::cancelled);
    auto done = std::make_shared<std::atomic<bool>>(false);
    const LoadJob job = [done, inner = quick(QStringLiteral("/d/q.csv"))](const LoadContext& c) {
      auto result = inner(c);
      *done = true;
      return result;
    };
    loader.start(QStringLiteral("t"), QStringLiteral("/d/q.csv"), job);
    // The worker finishes (and usually queues finished()) before the GUI thread cancels.
    QElapsedTimer clock;
    clock.start();
    while (!*done && clock.elapsed() < 60000) QThread::msleep(1);
    QThread::msleep(20);
    loader.cancel();
    QVERIFY(cancelled.wait(30000));
    QCOMPARE(finished.count(), 0);
  }

  void onlyTheLatestLoadReachesTheGui() {
    DataLoader loader(QStringLiteral("test loader"));
    QSignalSpy finished(&loader, &DataLoader::finished);
    QSignalSpy cancelled(&loader, &DataLoader::cancelled);
    QSignalSpy ended(&loader, &DataLoader::ended);
    loader.start(QStringLiteral("t"), QStringLiteral("/d/slow.csv"), untilStopped());
    loader.start(QStringLiteral("t"), QStringLiteral("/d/new.csv"),
                 quick(QStringLiteral("/d/new.csv")));  // stops the first
    QVERIFY(finished.wait(30000));
    QTest::qWait(50);  // anything late from the first load would arrive now
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.first().first().value<LoadedData>().source.file,
             QStringLiteral("/d/new.csv"));
    QCOMPARE(cancelled.count(), 0);
    QCOMPARE(ended.count(), 1);
  }

  void errorsBecomeReportsWithTheTitle() {
    DataLoader loader(QStringLiteral("test loader"));
    QSignalSpy failed(&loader, &DataLoader::failed);
    loader.start(QStringLiteral("Cannot load data"), QStringLiteral("/d/bad.csv"), failing());
    QVERIFY(failed.wait(30000));
    const auto report = failed.first().first().value<ErrorReport>();
    QCOMPARE(report.title, QStringLiteral("Cannot load data"));
    QCOMPARE(report.file, QStringLiteral("bad.csv"));
    QCOMPARE(report.line, qint64{7});
    QCOMPARE(report.column, QStringLiteral("count"));
    QVERIFY(!loader.isLoading());
  }

  void shuttingDownStopsALoadInProgress() {
    auto running = std::make_shared<std::atomic<bool>>(false);
    {
      DataLoader loader(QStringLiteral("test loader"));
      QSignalSpy progress(&loader, &DataLoader::progressChanged);
      loader.start(QStringLiteral("t"), QStringLiteral("/d/slow.csv"), untilStopped(running));
      QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0, 30000);
    }  // cancel → quit → wait
    QVERIFY(!*running);
  }
};

QTEST_MAIN(DataLoaderTest)
#include "data_loader_test.moc"
