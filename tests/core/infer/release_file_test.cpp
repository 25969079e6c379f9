#include "core/infer/release_file.h"

#include <QtTest>
#include <cmath>

using dpsynth::core::infer::makeNaiveBayesRelease;
using dpsynth::core::infer::naiveBayesCounts;
using dpsynth::core::infer::NaiveBayesLayout;
using dpsynth::core::infer::NaiveBayesRelease;
using dpsynth::core::infer::releaseFromJson;
using dpsynth::core::infer::releaseToJson;

namespace {

NaiveBayesLayout releaseFileLayout() {
  NaiveBayesLayout l;
  l.classes = {"a", "b"};
  l.features = {"u", "v"};
  l.levels = {{"0", "1"}, {"x", "y", "z"}};
  return l;
}

std::vector<std::vector<int>> releaseFileRecords() {
  return {{0, 0, 0}, {0, 1, 2}, {1, 1, 1}, {1, 0, 2}, {0, 0, 1}};
}

}  // namespace

class ReleaseFileTest : public QObject {
  Q_OBJECT

 private slots:
  void noiseIsIntegerAtRateEpsilonOverTwoK() {
    auto bits = dpsynth::core::privacy::makeSeededSource(3);
    const NaiveBayesRelease r =
        makeNaiveBayesRelease(releaseFileLayout(), releaseFileRecords(), 2.0, *bits, true);
    QCOMPARE(r.n, 5);
    // K = 2: sensitivity 4, rate 2/4 = 0.5 exactly representable in millionths.
    QCOMPARE(static_cast<double>(r.rateNum) / static_cast<double>(r.rateDen), 0.5);
    QCOMPARE(r.laplaceScale(), 2.0);
    const Eigen::VectorXd noise = r.noisyCounts - naiveBayesCounts(r.layout, releaseFileRecords());
    QCOMPARE(noise.size(), Eigen::Index{10});
    for (Eigen::Index c = 0; c < noise.size(); ++c) QCOMPARE(noise[c], std::round(noise[c]));
    QVERIFY(noise.cwiseAbs().sum() > 0);  // ten draws at rate 0.5 are not all zero here
    // The rate never exceeds ε/(2K): ε = 1, K = 2 with an ε that does not divide evenly.
    auto more = dpsynth::core::privacy::makeSeededSource(4);
    const NaiveBayesRelease odd =
        makeNaiveBayesRelease(releaseFileLayout(), releaseFileRecords(), 1.0 / 3.0, *more, true);
    QVERIFY(static_cast<double>(odd.rateNum) / static_cast<double>(odd.rateDen) <= 1.0 / 12.0);
  }

  void recordsOutsideTheLayoutAreRefused() {
    auto bits = dpsynth::core::privacy::makeSeededSource(3);
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        makeNaiveBayesRelease(releaseFileLayout(), std::vector<std::vector<int>>{{0, 2, 0}}, 1.0,
                              *bits, true));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        makeNaiveBayesRelease(releaseFileLayout(), std::vector<std::vector<int>>{}, 1.0, *bits,
                              true));
    // Records of unequal length are refused where they are made flat, naming the record.
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        makeNaiveBayesRelease(releaseFileLayout(), std::vector<std::vector<int>>{{0, 1}, {0}}, 1.0,
                              *bits, true));
  }

  void jsonRoundTrip() {
    auto bits = dpsynth::core::privacy::makeSeededSource(5);
    const NaiveBayesRelease r =
        makeNaiveBayesRelease(releaseFileLayout(), releaseFileRecords(), 1.5, *bits, true, 3.0);
    const std::string text = releaseToJson(r);
    QVERIFY(text.find("\"version\": 1") != std::string::npos);
    const NaiveBayesRelease back = releaseFromJson(text, "r.json");
    QCOMPARE(back.n, r.n);
    QCOMPARE(back.epsilon, r.epsilon);
    QCOMPARE(back.rateNum, r.rateNum);
    QCOMPARE(back.rateDen, r.rateDen);
    QVERIFY(back.noisyCounts == r.noisyCounts);
    QVERIFY(back.layout.levels == r.layout.levels);
    QVERIFY(back.layout.classes == r.layout.classes);
    QCOMPARE(back.priorAlpha, 3.0);
    QVERIFY(back.notForRelease);
  }

  void badFilesNameTheFileAndTheProblem() {
    auto bits = dpsynth::core::privacy::makeSeededSource(5);
    const std::string good = releaseToJson(
        makeNaiveBayesRelease(releaseFileLayout(), releaseFileRecords(), 1.0, *bits, false));
    QVERIFY(good.find("not_for_release") == std::string::npos);
    auto replaced = [&](const std::string& from, const std::string& to) {
      std::string s = good;
      s.replace(s.find(from), from.size(), to);
      return s;
    };
    const std::pair<std::string, std::string> cases[] = {
        {"not json", "not valid JSON"},
        {replaced("\"version\": 1", "\"version\": 2"), "version"},
        {replaced("\"naive-bayes\"", "\"linreg\""), "kind"},
        {replaced("\"replace-one\"", "\"add-remove\""), "replace-one"},
        {replaced("\"n\": 5", "\"n\": \"five\""), "n must be a whole number"},
        {replaced("\"noisy_counts\": [", "\"noisy_counts\": [1.0,"), "noisy counts"},
    };
    for (const auto& [text, expect] : cases) {
      try {
        releaseFromJson(text, "bad.json");
        QFAIL(("accepted: " + expect).c_str());
      } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        QVERIFY2(what.rfind("bad.json: ", 0) == 0, e.what());
        QVERIFY2(what.find(expect) != std::string::npos, e.what());
      }
    }
  }
};

QTEST_APPLESS_MAIN(ReleaseFileTest)
#include "release_file_test.moc"
