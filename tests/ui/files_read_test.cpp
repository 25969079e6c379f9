#include "ui/controllers/files_read.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using dpsynth::ui::inputAmong;

class FilesReadTest : public QObject {
  Q_OBJECT

 private slots:
  /// The same file under any spelling or link is an input; another file, a missing one or an
  /// empty name is not.
  void theSameFileThroughAnyPathIsAnInput() {
    QTemporaryDir dir;
    const QString data = dir.filePath("data.csv");
    QFile f(data);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("y\n1\n");
    f.close();
    QVERIFY(QDir().mkpath(dir.filePath("sub")));
    QVERIFY(QFile::link(data, dir.filePath("link.csv")));
    QString input;
    QCOMPARE(inputAmong({dir.filePath("other.csv"), dir.filePath("sub/../data.csv")},
                        {QString(), data}, &input),
             dir.filePath("sub/../data.csv"));
    QCOMPARE(input, data);
    QCOMPARE(inputAmong({dir.filePath("link.csv")}, {data}), dir.filePath("link.csv"));
    QVERIFY(inputAmong({dir.filePath("other.csv")}, {data}).isEmpty());
    QVERIFY(inputAmong({data}, {dir.filePath("missing.csv"), QString()}).isEmpty());
  }
};

QTEST_APPLESS_MAIN(FilesReadTest)
#include "files_read_test.moc"
