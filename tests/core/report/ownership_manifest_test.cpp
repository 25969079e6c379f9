/// The ownership manifest: a folder dpsynth wrote is recognised as its own only while it holds
/// exactly the files it wrote, byte for byte; anything else is named as foreign.
#include "core/report/ownership_manifest.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

namespace report = dpsynth::core::report;

namespace {

void manifestWrite(const QString& path, const std::string& text) {
  std::ofstream(path.toStdString(), std::ios::binary) << text;
}

std::vector<std::string> foreignIn(const QString& folder) {
  return report::foreignEntries(folder.toStdString());
}

}  // namespace

class OwnershipManifestTest : public QObject {
  Q_OBJECT
 private slots:
  void aFolderAsWrittenIsDpsynths() {
    QTemporaryDir tmp;
    const QString f = tmp.filePath("release");
    QVERIFY(QDir().mkpath(f));
    manifestWrite(f + "/synthetic_lw.csv", "y\n1\n2\n");
    manifestWrite(f + "/release_note.html", "<html></html>");
    report::writeOwnershipManifest(f.toStdString());
    QVERIFY(QFile::exists(f + "/.dpsynth-manifest.json"));
    QCOMPARE(foreignIn(f), std::vector<std::string>{});
    // A missing folder holds nothing foreign; a missing listed file is no problem either.
    QCOMPARE(foreignIn(tmp.filePath("absent")), std::vector<std::string>{});
    QVERIFY(QFile::remove(f + "/release_note.html"));
    QCOMPARE(foreignIn(f), std::vector<std::string>{});
  }

  void addedEditedAndOtherEntriesAreForeign() {
    QTemporaryDir tmp;
    const QString f = tmp.filePath("internal");
    QVERIFY(QDir().mkpath(f));
    manifestWrite(f + "/results.csv", "a,b\n1,2\n");
    manifestWrite(f + "/report_lw.json", "{}");
    report::writeOwnershipManifest(f.toStdString());
    manifestWrite(f + "/my notes.txt", "mine");                // added by the user
    manifestWrite(f + "/results.csv", "a,b\n1,3\n");           // edited: same name, new bytes
    QVERIFY(QDir(f).mkdir("old"));                             // a folder of the user's
    QVERIFY(QFile::link(f + "/report_lw.json", f + "/link"));  // a link is never dpsynth's
    QCOMPARE(foreignIn(f),
             (std::vector<std::string>{"link", "my notes.txt", "old/", "results.csv"}));
  }

  void withoutAValidManifestEverythingIsForeign() {
    QTemporaryDir tmp;
    const QString f = tmp.filePath("release");
    QVERIFY(QDir().mkpath(f));
    manifestWrite(f + "/synthetic_lw.csv", "y\n1\n");
    QCOMPARE(foreignIn(f), std::vector<std::string>{"synthetic_lw.csv"});  // no manifest
    // A file that merely has the manifest's name and lists files vouches for nothing.
    manifestWrite(f + "/.dpsynth-manifest.json",
                  R"({"files": ["synthetic_lw.csv"], "files_sha256": ["00"]})");
    QCOMPARE(foreignIn(f),
             (std::vector<std::string>{".dpsynth-manifest.json", "synthetic_lw.csv"}));
    // Nor does a manifest naming a file outside the folder.
    manifestWrite(f + "/.dpsynth-manifest.json",
                  R"({"kind": "dpsynth-manifest", "version": 1, "files": ["../x"],
                      "files_sha256": ["00"]})");
    QCOMPARE(foreignIn(f),
             (std::vector<std::string>{".dpsynth-manifest.json", "synthetic_lw.csv"}));
  }

  void writingRefusesAFolderWithAnythingButFiles() {
    QTemporaryDir tmp;
    const QString f = tmp.filePath("release");
    QVERIFY(QDir().mkpath(f + "/sub"));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, report::writeOwnershipManifest(f.toStdString()));
  }
};

QTEST_APPLESS_MAIN(OwnershipManifestTest)
#include "ownership_manifest_test.moc"
