/// readAnyRelease: a release file is read by its kind; unknown kinds and non-objects get one
/// line naming the file.
#include "core/infer/any_release.h"

#include <QtTest>
#include <variant>

namespace infer = dpsynth::core::infer;

class AnyReleaseTest : public QObject {
  Q_OBJECT

 private slots:
  void readsEachKind() {
    infer::PhReleaseFile ph;
    ph.lower = 0;
    ph.upper = 4;
    ph.bins = 2;
    ph.epsilon = 1;
    ph.rateNum = 1;
    ph.rateDen = 2;
    ph.noisyCounts = {3, 4};
    ph.n = 7;
    const infer::AnyRelease a = infer::readAnyRelease(infer::phReleaseToJson(ph), "p.json");
    QVERIFY(std::holds_alternative<infer::PhReleaseFile>(a));
    QCOMPARE(std::get<infer::PhReleaseFile>(a).n, 7);

    infer::NaiveBayesRelease nb;
    nb.layout.classes = {"a", "b"};
    nb.layout.features = {"f"};
    nb.layout.levels = {{"x", "y"}};
    nb.n = 3;
    nb.epsilon = 1;
    nb.rateNum = 1;
    nb.rateDen = 2;
    nb.noisyCounts = Eigen::VectorXd::Zero(4);
    const infer::AnyRelease b = infer::readAnyRelease(infer::releaseToJson(nb), "n.json");
    QVERIFY(std::holds_alternative<infer::NaiveBayesRelease>(b));
    QCOMPARE(infer::releaseKind(infer::releaseToJson(nb), "n.json"), std::string("naive-bayes"));
  }

  void refusesUnknownKinds() {
    for (const char* text : {R"({"version": 1, "kind": "zz"})", R"({"version": 1})", "[1]", "{"}) {
      try {
        infer::readAnyRelease(text, "x.json");
        QFAIL(text);
      } catch (const std::invalid_argument& e) {
        QVERIFY2(QString(e.what()).startsWith("x.json: "), e.what());
      }
    }
  }
};

QTEST_APPLESS_MAIN(AnyReleaseTest)
#include "any_release_test.moc"
