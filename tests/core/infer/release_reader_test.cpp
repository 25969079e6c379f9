/// Release files go through the project's checked key reader: the fuzzer's finding (a noise
/// rate numerator beyond 2^64, read as an integer by a cast that is undefined behaviour) and its
/// kin in every release kind are refused with one line naming the file and the key.
#include <QtTest>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/infer/any_release.h"

namespace infer = dpsynth::core::infer;

namespace {

std::string releaseReaderTestFile(const std::string& name) {
  std::ifstream in(std::string(DPSYNTH_SOURCE_DIR) + "/fuzz/corpus/release/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

QString releaseReaderTestError(const std::string& text) {
  try {
    infer::readAnyRelease(text, "r.json");
  } catch (const std::invalid_argument& e) {
    return QString::fromStdString(e.what());
  }
  return "(read without complaint)";
}

/// `text` with the first occurrence of `from` replaced by `to`.
std::string releaseReaderTestEdit(std::string text, const std::string& from,
                                  const std::string& to) {
  const auto at = text.find(from);
  if (at == std::string::npos) throw std::logic_error("no '" + from + "' in the release");
  return text.replace(at, from.size(), to);
}

}  // namespace

class ReleaseReaderTest : public QObject {
  Q_OBJECT

 private slots:
  void refusesTheFuzzersReproducers() {
    QCOMPARE(releaseReaderTestError(releaseReaderTestFile("ph-numerator-beyond-uint64-min.json")),
             QString("r.json: noise_rate.numerator must be a whole number >= 1"));
    QCOMPARE(releaseReaderTestError(releaseReaderTestFile("ph-numerator-beyond-uint64.json")),
             QString("r.json: key \"epsilon\" appears twice in one object; keep one of them"));
  }

  void refusesBadIntegersInEveryKind() {
    struct Case {
      const char* file;
      const char* from;
      const char* to;
      const char* expect;
    };
    const Case cases[] = {
        {"ph.json", "\"n\": 12", "\"n\": 5e121", "r.json: n must be a whole number between 1 and"},
        {"ph.json", "\"n\": 12", "\"n\": 2000000000", "r.json: n must be between 1 and 100000000"},
        {"ph.json", "\"bins\": 4", "\"bins\": 4.0", "r.json: bins must be a whole number"},
        {"ph.json", "\"numerator\": 500000", "\"numerator\": -1",
         "r.json: noise_rate.numerator must be a whole number >= 1"},
        {"ph.json", "[2, 5, 4, -1]", "[2, 5, 4, -1e300]",
         "r.json: noisy_counts must be a whole number"},
        {"ph.json", "\"sensitivity\": 2", "\"sensitivity\": 2.5",
         "r.json: sensitivity must be a whole number"},
        {"ph.json", "\"version\": 1", "\"version\": 1.0", "r.json: unsupported release version"},
        {"naive-bayes.json", "\"n\": ", "\"n\": 1e30, \"x\": ", "r.json: n must be a whole number"},
        {"naive-bayes.json", "\"numerator\": ", "\"numerator\": -", "r.json: noise_rate.numerator"},
        {"linreg.json", "\"n\": ", "\"n\": -5, \"x\": ", "r.json: n must be between 1 and"},
        {"linreg.json", "\"grid_sensitivity\": ", "\"grid_sensitivity\": 1e40, \"x\": ",
         "r.json: grid_sensitivity must be a whole number"},
    };
    for (const Case& c : cases) {
      const std::string text = releaseReaderTestEdit(releaseReaderTestFile(c.file), c.from, c.to);
      const QString error = releaseReaderTestError(text);
      QVERIFY2(error.startsWith(c.expect), qPrintable(QString(c.file) + ": " + error));
      QVERIFY(!error.contains('\n'));
    }
  }

  /// Releases state ε and a noise rate: a file whose rate is above what ε allows claims a
  /// guarantee its noise does not give (naive Bayes: rate ≤ ε / (2 × features)).
  void refusesANaiveBayesRateAboveEpsilon() {
    const std::string text = releaseReaderTestFile("naive-bayes.json");
    QVERIFY(releaseReaderTestError(text) == "(read without complaint)");
    const auto at = text.find("\"epsilon\": ");
    QVERIFY(at != std::string::npos);
    const auto end = text.find_first_of(",}", at);
    const std::string inflated = text.substr(0, at) + "\"epsilon\": 0.001" + text.substr(end);
    QVERIFY2(releaseReaderTestError(inflated).startsWith("r.json: noise_rate is above epsilon"),
             qPrintable(releaseReaderTestError(inflated)));
  }
};

QTEST_APPLESS_MAIN(ReleaseReaderTest)
#include "release_reader_test.moc"
