#include "ui/plots/plot_export.h"

#include <qcustomplot.h>
#include <unistd.h>

#include <QtTest>

using namespace dpsynth::ui;

namespace {

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// A plot with one 5-point graph and one 3-point graph (one NaN point that is not exported).
void fill(QCustomPlot& plot) {
  QCPGraph* a = plot.addGraph();
  a->setName("first");
  a->setData({1, 2, 3, 4, 5}, {1, 4, 9, 16, 25});
  QCPGraph* b = plot.addGraph();
  b->setName("second, with comma");
  b->setData({1, 2, 3, 4}, {2, 1, std::nan(""), 3});
  plot.xAxis->setLabel("x");
  plot.rescaleAxes();
}

}  // namespace

class PlotExportTest : public QObject {
  Q_OBJECT

 private slots:
  void formatsFromSuffix() {
    QCOMPARE(exportFormatForPath("a/b.PNG"), std::optional(ExportFormat::Png));
    QCOMPARE(exportFormatForPath("b.pdf"), std::optional(ExportFormat::Pdf));
    QCOMPARE(exportFormatForPath("b.svg"), std::optional(ExportFormat::Svg));
    QVERIFY(!exportFormatForPath("b.jpg"));
    QCOMPARE(csvPathFor("/tmp/out/plot.v2.png"), QString("/tmp/out/plot.v2.csv"));
    QCOMPARE(csvPathFor("plot.svg"), QString("plot.csv"));
  }

  void csvQuotesWhenNeeded() {
    PlotTable t{{"series", "x"}, {{"a,b", "1"}, {"say \"hi\"", "2"}}};
    QCOMPARE(toCsv(t), QByteArray("series,x\n\"a,b\",1\n\"say \"\"hi\"\"\",2\n"));
  }

  void genericTableListsEveryFinitePoint() {
    QCustomPlot plot;
    fill(plot);
    const PlotTable t = tableFromPlottables(&plot);
    QCOMPARE(t.columns, QStringList({"series", "x", "y"}));
    QCOMPARE(t.rows.size(), size_t{8});
    QCOMPARE(t.rows[4], QStringList({"first", "5", "25"}));
  }

  void writesPictureAndCsv_data() {
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<QByteArray>("magic");
    QTest::newRow("png") << "png" << QByteArray("\x89PNG");
    QTest::newRow("pdf") << "pdf" << QByteArray("%PDF");
    QTest::newRow("svg") << "svg" << QByteArray("<?xml");
  }

  void writesPictureAndCsv() {
    QFETCH(QString, suffix);
    QFETCH(QByteArray, magic);
    QTemporaryDir dir;
    QCustomPlot plot;
    fill(plot);
    const QString path = dir.filePath("figure." + suffix);
    QString error;
    QVERIFY2(exportPlot(&plot, path, &error), qPrintable(error));
    const QByteArray picture = readAll(path);
    QVERIFY(picture.startsWith(magic));
    if (suffix == "svg") QVERIFY(picture.contains("<svg"));
    const QList<QByteArray> lines = readAll(dir.filePath("figure.csv")).trimmed().split('\n');
    QCOMPARE(lines.size(), 1 + 8);
    QCOMPARE(lines[0], QByteArray("series,x,y"));
    QCOMPARE(lines[8], QByteArray("\"second, with comma\",4,3"));
    // Nothing else: the temporary files were renamed, not left behind.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 2);
  }

  void pngIsRenderedAtTwiceTheSize() {
    QTemporaryDir dir;
    QCustomPlot plot;
    fill(plot);
    const QString path = dir.filePath("big.png");
    QVERIFY(exportPlot(&plot, path, PlotTable{{"series", "x", "y"}, {}}, nullptr, 700, 450));
    const QImage image(path);
    QCOMPARE(image.size(), QSize(1400, 900));
  }

  void replacesAnExistingExport() {
    QTemporaryDir dir;
    const QString path = dir.filePath("again.svg");
    {
      QFile old(path);
      QVERIFY(old.open(QIODevice::WriteOnly));
      old.write("old");
    }
    QCustomPlot plot;
    fill(plot);
    QVERIFY(exportPlot(&plot, path));
    QVERIFY(readAll(path).contains("<svg"));
  }

  void unknownFormatWritesNothing() {
    QTemporaryDir dir;
    QCustomPlot plot;
    fill(plot);
    QString error;
    QVERIFY(!exportPlot(&plot, dir.filePath("figure.jpg"), &error));
    QVERIFY(error.contains("jpg"));
    QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
  }

  void unwritableFolderFailsCleanly() {
    QTemporaryDir dir;
    QCustomPlot plot;
    fill(plot);
    // A "folder" that is a regular file cannot be written into, even by root.
    const QString notAFolder = dir.filePath("file");
    {
      QFile f(notAFolder);
      QVERIFY(f.open(QIODevice::WriteOnly));
    }
    QString error;
    QVERIFY(!exportPlot(&plot, notAFolder + "/figure.png", &error));
    QVERIFY(!error.isEmpty());
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList({"file"}));
  }

  void readOnlyFolderFailsCleanly() {
    if (geteuid() == 0)
      QSKIP("root ignores folder permissions; covered by unwritableFolderFailsCleanly");
    QTemporaryDir dir;
    const QString folder = dir.filePath("locked");
    QVERIFY(QDir().mkdir(folder));
    QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner));
    QCustomPlot plot;
    fill(plot);
    QString error;
    const bool ok = exportPlot(&plot, folder + "/figure.pdf", &error);
    QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QVERIFY(!ok);
    QVERIFY(QDir(folder).entryList(QDir::Files | QDir::Hidden).isEmpty());
  }
};

QTEST_MAIN(PlotExportTest)
#include "plot_export_test.moc"
