/// A new synthetic-data release supersedes only what an earlier one can be shown to have written:
/// a sidecar of dpsynth's kind and version, files named by the bundle's scheme, bytes unchanged.
#include "core/pipeline/bundle_ownership.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/data/csv_table.h"
#include "core/data/dataset.h"
#include "core/pipeline/export.h"

namespace pipeline = dpsynth::core::pipeline;
namespace data = dpsynth::core::data;

namespace {

void bundleWrite(const QString& path, const std::string& text) {
  std::ofstream(path.toStdString(), std::ios::binary) << text;
}

/// A real bundle of m datasets at csvPath, as fit writes it (a tiny unweighted result).
void writeBundle(const std::string& csvPath, int m) {
  data::DatasetSpec spec;
  spec.outcome = "y";
  spec.family = dpsynth::core::models::Family::normal;
  const data::Dataset dataset = data::buildDataset(data::parseCsv("y\n1\n2\n3\n", "d.csv"), spec);
  pipeline::MechanismResult result;
  result.config.mechanism = pipeline::Mechanism::unweighted;
  std::vector<Eigen::VectorXd> synthetic(static_cast<std::size_t>(m),
                                         Eigen::Vector3d(1.5, 2.5, 3.5));
  pipeline::writeSyntheticBundle(csvPath, dataset, result, synthetic, 7);
}

std::vector<std::string> names(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const auto& p : paths)
    out.push_back(QFileInfo(QString::fromStdString(p)).fileName().toStdString());
  return out;
}

}  // namespace

class BundleOwnershipTest : public QObject {
  Q_OBJECT
 private slots:
  void theSidecarRecordsTheDigestOfEveryFile() {
    QTemporaryDir tmp;
    const std::string csv = tmp.filePath("r.csv").toStdString();
    writeBundle(csv, 2);
    std::ifstream in(csv + ".json");
    const auto side = nlohmann::json::parse(in);
    QCOMPARE(side["kind"].get<std::string>(), std::string(pipeline::kSidecarKind));
    QCOMPARE(side["version"].get<int>(), pipeline::kSidecarVersion);
    QCOMPARE(side["files"].size(), std::size_t(2));
    QCOMPARE(side["files_sha256"].size(), std::size_t(2));
  }

  void anEarlierReleaseAsWrittenIsSuperseded() {
    QTemporaryDir tmp;
    const std::string csv = tmp.filePath("r.csv").toStdString();
    writeBundle(csv, 3);
    const auto earlier = pipeline::earlierBundle(csv, 2, {});
    QVERIFY2(earlier.problem.empty(), earlier.problem.c_str());
    QCOMPARE(names(earlier.superseded),
             (std::vector<std::string>{"r_1.csv", "r_2.csv", "r_3.csv"}));
    // Nothing there at all: nothing to supersede, nothing to refuse.
    const auto none = pipeline::earlierBundle(tmp.filePath("new.csv").toStdString(), 3, {});
    QVERIFY(none.problem.empty() && none.superseded.empty());
    // An input is never superseded, even when the earlier release lists it.
    const auto keep = pipeline::earlierBundle(csv, 1, {tmp.filePath("r_2.csv").toStdString()});
    QCOMPARE(names(keep.superseded), (std::vector<std::string>{"r_1.csv", "r_3.csv"}));
  }

  void anEditedDatasetIsTheUsersAndRefused() {
    QTemporaryDir tmp;
    const std::string csv = tmp.filePath("r.csv").toStdString();
    writeBundle(csv, 2);
    bundleWrite(tmp.filePath("r_2.csv"), "y\n9\n9\n9\n");
    const auto earlier = pipeline::earlierBundle(csv, 1, {});
    QVERIFY(earlier.superseded.empty());
    QVERIFY2(earlier.problem.find("r_2.csv has changed") != std::string::npos,
             earlier.problem.c_str());
  }

  void aJsonThatListsFilesIsNoSidecar() {
    QTemporaryDir tmp;
    const QString sidecar = tmp.filePath("notes.csv.json");
    bundleWrite(tmp.filePath("thesis.tex"), "keep");
    bundleWrite(sidecar, R"({"files": ["thesis.tex"]})");
    const std::string csv = tmp.filePath("notes.csv").toStdString();
    auto earlier = pipeline::earlierBundle(csv, 1, {});
    QVERIFY(earlier.superseded.empty());
    QVERIFY2(earlier.problem.find("not a synthetic-data sidecar") != std::string::npos,
             earlier.problem.c_str());
    // The right kind and version, and digests that match, but a name outside the scheme.
    const std::string digest(64, '0');
    bundleWrite(sidecar, R"({"kind": "synthetic-data-sidecar", "version": 1, "tool": "dpsynth",
                           "files": ["thesis.tex"], "files_sha256": [")" +
                             digest + R"("]})");
    earlier = pipeline::earlierBundle(csv, 1, {});
    QVERIFY(earlier.superseded.empty());
    QVERIFY2(earlier.problem.find("naming scheme") != std::string::npos, earlier.problem.c_str());
    // A sidecar without digests (written before they were recorded) vouches for nothing.
    bundleWrite(sidecar, R"({"kind": "synthetic-data-sidecar", "version": 1, "tool": "dpsynth",
                           "files": ["notes.csv"]})");
    earlier = pipeline::earlierBundle(csv, 1, {});
    QVERIFY2(earlier.problem.find("SHA-256") != std::string::npos, earlier.problem.c_str());
    QVERIFY(QFile::exists(tmp.filePath("thesis.tex")));
  }

  void aDerivedNameHeldByTheUserIsRefused() {
    QTemporaryDir tmp;
    bundleWrite(tmp.filePath("d_2.csv"), "mine");
    const auto earlier = pipeline::earlierBundle(tmp.filePath("d.csv").toStdString(), 3, {});
    QVERIFY2(earlier.problem.find("d_2.csv exists") != std::string::npos, earlier.problem.c_str());
    // With one dataset the CSV is the very file the user named: it may be replaced.
    bundleWrite(tmp.filePath("e.csv"), "mine");
    QVERIFY(pipeline::earlierBundle(tmp.filePath("e.csv").toStdString(), 1, {}).problem.empty());
  }
};

QTEST_APPLESS_MAIN(BundleOwnershipTest)
#include "bundle_ownership_test.moc"
