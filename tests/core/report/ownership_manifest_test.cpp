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

  void aSharedFolderRecordsOnlyTheNamedFiles() {
    // infer --out and study --out write a few files of fixed names into a folder that also
    // holds the user's own: only those names are judged, and a record keeps what it recorded
    // of another command's files.
    QTemporaryDir tmp;
    const QString f = tmp.path();
    const std::vector<std::string> infer{"draws.csv", "summary.json", "trace.csv"};
    const std::string folder = f.toStdString();
    QCOMPARE(report::foreignFiles(folder, infer), std::vector<std::string>{});  // none there
    manifestWrite(f + "/notes.txt", "mine");
    manifestWrite(f + "/summary.json", "{\"mine\": true}");
    QCOMPARE(report::foreignFiles(folder, infer), std::vector<std::string>{"summary.json"});
    manifestWrite(f + "/draws.csv", "a\n1\n");
    manifestWrite(f + "/summary.json", "{}");
    manifestWrite(f + "/trace.csv", "b\n2\n");
    report::recordOwnedFiles(folder, infer);
    QCOMPARE(report::foreignFiles(folder, infer), std::vector<std::string>{});
    // Another command's outputs in the same folder: recorded beside the first's.
    manifestWrite(f + "/summary.md", "# study");
    report::recordOwnedFiles(folder, {"summary.md"});
    QCOMPARE(report::foreignFiles(folder, {"draws.csv", "summary.md"}), std::vector<std::string>{});
    // Edited by the user, or replaced by a link: no longer dpsynth's.
    manifestWrite(f + "/trace.csv", "b\n3\n");
    QVERIFY(QFile::remove(f + "/draws.csv"));
    QVERIFY(QFile::link(f + "/notes.txt", f + "/draws.csv"));
    QCOMPARE(report::foreignFiles(folder, infer),
             (std::vector<std::string>{"draws.csv", "trace.csv"}));
    // The user's files beside them are no business of the record; a manifest that is not
    // dpsynth's would itself be replaced, so it is named too.
    QVERIFY(QFile::remove(f + "/draws.csv"));
    manifestWrite(f + "/.dpsynth-manifest.json", "{\"files\": [\"summary.json\"]}");
    QCOMPARE(report::foreignFiles(folder, {"summary.json", "notes.txt"}),
             (std::vector<std::string>{"summary.json", "notes.txt", ".dpsynth-manifest.json"}));
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
