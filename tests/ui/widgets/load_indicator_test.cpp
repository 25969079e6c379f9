/// The progress indication of a load: hidden at first (quick loads do not flicker), shown once
/// the load has taken a moment, following the percent; its Cancel stops the load, and it hides
/// when the load ends. The job waits for its stop token, so no step depends on timing.
#include "ui/widgets/load_indicator.h"

#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QToolButton>
#include <QtTest>

#include "ui/services/data_loader.h"

using namespace dpsynth::ui;

namespace {

LoadJob untilStopped() {
  return [](const LoadContext& context) -> std::optional<LoadedData> {
    context.progress(0.42);
    QElapsedTimer clock;
    clock.start();
    while (!context.stop.stop_requested() && clock.elapsed() < 60000) QThread::msleep(2);
    return std::nullopt;
  };
}

}  // namespace

class LoadIndicatorTest : public QObject {
  Q_OBJECT

 private slots:
  void appearsAfterAMomentAndCancels() {
    QWidget window;
    auto* indicator = new LoadIndicator(&window);
    DataLoader loader(QStringLiteral("test loader"));
    loader.showOn(indicator);
    window.show();
    QSignalSpy cancelled(&loader, &DataLoader::cancelled);

    loader.start(QStringLiteral("t"), QStringLiteral("/data/agency 2024.csv"), untilStopped());
    QVERIFY(indicator->isHidden());  // not before kShowAfterMs
    QTRY_VERIFY_WITH_TIMEOUT(!indicator->isHidden(), 30000);
    QTRY_COMPARE_WITH_TIMEOUT(indicator->bar()->value(), 42, 30000);
    QCOMPARE(indicator->label()->text(), QStringLiteral("Reading agency 2024.csv…"));
    QCOMPARE(indicator->toolTip(), QStringLiteral("/data/agency 2024.csv"));

    QTest::mouseClick(indicator->cancelButton(), Qt::LeftButton);
    QVERIFY(!indicator->cancelButton()->isEnabled());
    QVERIFY(cancelled.wait(30000));
    QVERIFY(indicator->isHidden());
    QVERIFY(!loader.isLoading());
  }

  void namesTheFileAndItsSize() {
    QTemporaryDir dir;
    const QString path = dir.filePath("big.csv");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray(1'500'000, 'x'));
    file.close();
    LoadIndicator indicator;
    DataLoader loader(QStringLiteral("test loader"));
    loader.showOn(&indicator);
    loader.start(QStringLiteral("t"), path, untilStopped());
    QCOMPARE(indicator.label()->text(), QStringLiteral("Reading big.csv (1.5 MB)…"));
    loader.cancel();
  }

  void aQuickLoadEndsHidden() {
    QWidget window;
    auto* indicator = new LoadIndicator(&window);
    DataLoader loader(QStringLiteral("test loader"));
    loader.showOn(indicator);
    window.show();
    QSignalSpy ended(&loader, &DataLoader::ended);
    // The job ends at once; whenever its end arrives, the pending show is dropped with it.
    loader.start(QStringLiteral("t"), QStringLiteral("/d/x.csv"),
                 [](const LoadContext&) -> std::optional<LoadedData> { return std::nullopt; });
    QVERIFY(ended.wait(30000));
    QVERIFY(indicator->isHidden());
    QTest::qWait(LoadIndicator::kShowAfterMs + 100);
    QVERIFY(indicator->isHidden());
  }
};

QTEST_MAIN(LoadIndicatorTest)
#include "load_indicator_test.moc"
