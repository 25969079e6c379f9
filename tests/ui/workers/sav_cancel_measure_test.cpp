/// A measurement, run by hand (issue 25: "a 10^6-row .sav loads in the background with progress
/// and Cancel in <= 2 s"); skipped unless DPSYNTH_MEASURE=1, and it asserts no time (a loaded CI
/// machine would make that flaky): it prints the latency from Cancel to the end of the load.
/// Run with DPSYNTH_MEASURE=1 and QT_QPA_PLATFORM=offscreen in the environment:
///   build/tests/ui_workers_tests sav_cancel_measure_test
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <cstdio>

#include "core/data/column_info.h"
#include "core/data/csv_rows.h"
#include "core/data/readstat_writer.h"
#include "ui/document/studio_document.h"
#include "ui/services/data_loader.h"
#include "ui/services/data_service.h"

using namespace dpsynth::ui;
namespace data = dpsynth::core::data;

class SavCancelMeasureTest : public QObject {
  Q_OBJECT

 private slots:
  void cancelOfAMillionRowSav() {
    if (qEnvironmentVariable("DPSYNTH_MEASURE") != QLatin1String("1"))
      QSKIP("a measurement: set DPSYNTH_MEASURE=1 to run it");
    constexpr std::size_t kRows = 1'000'000;
    QTemporaryDir dir;
    const QString path = dir.filePath("million.sav");
    {
      const std::vector<std::string> header{"id", "age", "sex", "region", "income"};
      std::vector<data::ColumnInfo> infos(header.size());
      infos[2].valueLabels = {{"1", "female"}, {"2", "male"}};
      infos[4].description = "Annual income";
      data::CsvRows rows(header.size());
      rows.reserve(kRows, kRows * 24);
      for (std::size_t i = 0; i < kRows; ++i) {
        rows.push_back({std::to_string(i), std::to_string(18 + i % 70), std::to_string(1 + i % 2),
                        std::to_string(i % 9), std::to_string(10000 + (i * 7919) % 90000)});
      }
      const auto bytes =
          data::formatStatFile(data::StatFormat::sav, path.toStdString(), header, infos, rows);
      QVERIFY(bytes);
      QFile file(path);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(bytes->data(), qint64(bytes->size()));
    }
    std::printf("million.sav: %.1f MB\n", double(QFileInfo(path).size()) / 1e6);
    for (int delayMs : {100, 400, 1000, 2000}) {
      StudioDocument document;
      DataService service(&document);
      QSignalSpy ended(&service, &DataService::loadEnded);
      QSignalSpy progress(service.dataLoader(), &DataLoader::progressChanged);
      service.openFile(path);
      QTest::qWait(delayMs);
      if (!ended.isEmpty()) {
        std::printf("cancel after %4d ms: the load had already ended\n", delayMs);
        continue;
      }
      QElapsedTimer clock;
      clock.start();
      service.cancelLoad();
      QVERIFY(ended.wait(60000));
      const qint64 latency = clock.elapsed();
      QCOMPARE(ended.first().at(1).toBool(), false);  // cancelled: nothing installed
      QVERIFY(!document.hasData());
      std::printf("cancel after %4d ms (progress %3d%%): load ended %lld ms after Cancel\n",
                  delayMs, progress.isEmpty() ? 0 : progress.last().at(0).toInt(),
                  static_cast<long long>(latency));
    }
    // And the whole load, for scale.
    StudioDocument document;
    DataService service(&document);
    QElapsedTimer clock;
    clock.start();
    QVERIFY(service.loadFile(path));
    std::printf("the whole load: %lld ms\n", static_cast<long long>(clock.elapsed()));
  }
};

QTEST_MAIN(SavCancelMeasureTest)
#include "sav_cancel_measure_test.moc"
