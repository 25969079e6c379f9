#include "core/session/session.h"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/data/sha256.h"

namespace session = dpsynth::core::session;
namespace pipeline = dpsynth::core::pipeline;
using dpsynth::core::models::Family;

namespace {

session::Session exampleSession() {
  session::Session s;
  s.dataFile = "/data/survey.csv";
  s.sample = "";
  s.dataSha256 = std::string(64, 'a');
  s.dataset.outcome = "salary";
  s.dataset.covariates = {"gender", "age_group"};
  s.dataset.family = Family::normal;
  s.dataset.dropMissing = true;
  s.dataset.referenceLevels = {{"gender", "F"}, {"age_group", "65+"}};
  pipeline::MechanismConfig lw;
  lw.mechanism = pipeline::Mechanism::lwFinal;
  lw.c = 0.8;
  lw.g = 0.05;
  lw.k = 0.93;
  lw.downscale = std::nullopt;  // auto
  pipeline::MechanismConfig ph;
  ph.mechanism = pipeline::Mechanism::ph;
  ph.epsilon = 1.5;
  ph.lower = -3.25;
  ph.upper = 1e6;
  ph.bins = 40;
  ph.reproducibleNoise = true;
  ph.radius = 0.125;
  ph.radiusRelative = false;
  s.mechanisms = {lw, ph};
  s.run.nuts.seed = 18446744073709551557ull;  // above 2^63: stored exactly as an unsigned
  s.reproducible = true;
  s.run.neighbours = dpsynth::core::privacy::Neighbours::addRemove;
  s.weightsFrom = "/data/last_year.csv";
  s.run.nuts.chains = 3;
  s.run.nuts.warmup = 321;
  s.run.nuts.draws = 654;
  s.run.nuts.threads = 2;
  s.run.nuts.metric = dpsynth::core::mcmc::MetricChoice::dense;
  s.run.model.sdScale = 2500.5;
  s.run.model.family = Family::normal;
  s.run.size.declaredRows = 4321;
  s.run.size.epsilon = 0.35;
  s.syntheticDatasets = 5;
  return s;
}

void compareConfigs(const pipeline::MechanismConfig& a, const pipeline::MechanismConfig& b) {
  QCOMPARE(a.mechanism, b.mechanism);
  QCOMPARE(a.c, b.c);
  QCOMPARE(a.g, b.g);
  QCOMPARE(a.radius, b.radius);
  QCOMPARE(a.radiusRelative, b.radiusRelative);
  QCOMPARE(a.k, b.k);
  QCOMPARE(a.epsilon, b.epsilon);
  QCOMPARE(a.downscale, b.downscale);
  QCOMPARE(a.lower, b.lower);
  QCOMPARE(a.upper, b.upper);
  QCOMPARE(a.bins, b.bins);
  QCOMPARE(a.reproducibleNoise, b.reproducibleNoise);
}

void compareSessions(const session::Session& a, const session::Session& b) {
  QCOMPARE(a.version, b.version);
  QCOMPARE(a.dataFile, b.dataFile);
  QCOMPARE(a.sample, b.sample);
  QCOMPARE(a.dataSha256, b.dataSha256);
  QCOMPARE(a.dataset.outcome, b.dataset.outcome);
  QCOMPARE(a.dataset.covariates, b.dataset.covariates);
  QCOMPARE(a.dataset.family, b.dataset.family);
  QCOMPARE(a.dataset.dropMissing, b.dataset.dropMissing);
  QCOMPARE(a.familyDeclared, b.familyDeclared);
  QVERIFY(a.dataset.referenceLevels == b.dataset.referenceLevels);
  QCOMPARE(a.mechanisms.size(), b.mechanisms.size());
  for (std::size_t i = 0; i < a.mechanisms.size(); ++i) {
    compareConfigs(a.mechanisms[i], b.mechanisms[i]);
  }
  QCOMPARE(a.run.nuts.seed, b.run.nuts.seed);
  QCOMPARE(a.reproducible, b.reproducible);
  QCOMPARE(a.run.neighbours, b.run.neighbours);
  QCOMPARE(a.weightsFrom, b.weightsFrom);
  QCOMPARE(a.run.nuts.chains, b.run.nuts.chains);
  QCOMPARE(a.run.nuts.warmup, b.run.nuts.warmup);
  QCOMPARE(a.run.nuts.draws, b.run.nuts.draws);
  QCOMPARE(a.run.nuts.threads, b.run.nuts.threads);
  QCOMPARE(a.run.nuts.metric, b.run.nuts.metric);
  QCOMPARE(a.run.model.sdScale, b.run.model.sdScale);
  QCOMPARE(a.run.model.family, b.run.model.family);
  QCOMPARE(a.run.size.declaredRows, b.run.size.declaredRows);
  QCOMPARE(a.run.size.epsilon, b.run.size.epsilon);
  QCOMPARE(a.syntheticDatasets, b.syntheticDatasets);
  QCOMPARE(a.run.tunedOnConfidential, b.run.tunedOnConfidential);
}

std::string writeFile(const QTemporaryDir& dir, const QString& name, const std::string& text) {
  const std::string path = dir.filePath(name).toStdString();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace

class SessionTest : public QObject {
  Q_OBJECT

 private slots:
  void roundTripThroughText() {
    const auto s = exampleSession();
    compareSessions(session::fromJson(session::toJson(s), "x.dpsynth"), s);
  }

  void roundTripThroughFile() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("a.dpsynth").toStdString();
    const auto s = exampleSession();
    session::saveSession(path, s);
    compareSessions(session::loadSession(path), s);
  }

  void seedDecidesReleaseOrReproducible() {
    // A session written before releases existed always holds a seed and no neighbour relation:
    // it replays reproducibly (not for release) under replace-one.
    session::Session s = exampleSession();
    std::string text = session::toJson(s);
    auto doc = nlohmann::json::parse(text);
    doc["run"].erase("neighbours");
    doc["data"].erase("weights_from");
    session::Session old = session::fromJson(doc.dump(), "old.dpsynth");
    QVERIFY(old.reproducible);
    QCOMPARE(old.run.nuts.seed, s.run.nuts.seed);
    QCOMPARE(old.run.neighbours, dpsynth::core::privacy::Neighbours::replaceOne);
    QVERIFY(old.weightsFrom.empty());
    // A null or missing seed is a release.
    doc["run"]["seed"] = nullptr;
    QVERIFY(!session::fromJson(doc.dump(), "release.dpsynth").reproducible);
    doc["run"].erase("seed");
    QVERIFY(!session::fromJson(doc.dump(), "release.dpsynth").reproducible);
    // And a release session is written with "seed": null.
    s.reproducible = false;
    QVERIFY(nlohmann::json::parse(session::toJson(s))["run"]["seed"].is_null());
    doc["run"]["seed"] = -1;
    QVERIFY_THROWS_EXCEPTION(session::SessionError, session::fromJson(doc.dump(), "bad.dpsynth"));
    doc["run"]["seed"] = 1;
    doc["run"]["neighbours"] = "replace-two";
    QVERIFY_THROWS_EXCEPTION(session::SessionError, session::fromJson(doc.dump(), "bad.dpsynth"));
    QVERIFY_THROWS_EXCEPTION(session::SessionError,
                             session::fromJson(R"({"version": 1e999})", "overflow.dpsynth"));
  }

  /// The published size's settings (SPEC §0): stored as "rows" and "size_epsilon"; files
  /// written before they existed load with no declared size and the default ε_n; bad values
  /// are refused naming the key.
  void sizeSettings() {
    auto doc = nlohmann::json::parse(session::toJson(exampleSession()));
    QCOMPARE(doc["run"]["rows"].get<int>(), 4321);
    QCOMPARE(doc["run"]["size_epsilon"].get<double>(), 0.35);
    doc["run"]["rows"] = nullptr;
    QVERIFY(!session::fromJson(doc.dump(), "x.dpsynth").run.size.declaredRows);
    doc["run"].erase("rows");
    doc["run"].erase("size_epsilon");
    const auto old = session::fromJson(doc.dump(), "old.dpsynth");
    QVERIFY(!old.run.size.declaredRows);
    QCOMPARE(old.run.size.epsilon, dpsynth::core::privacy::kDefaultSizeEpsilon);
    for (const auto& [key, value] :
         {std::pair{"rows", nlohmann::json(0)}, std::pair{"rows", nlohmann::json(1.5)},
          std::pair{"size_epsilon", nlohmann::json(0)},
          std::pair{"size_epsilon", nlohmann::json("x")}}) {
      auto bad = doc;
      bad["run"][key] = value;
      try {
        session::fromJson(bad.dump(), "bad.dpsynth");
        QFAIL(key);
      } catch (const session::SessionError& e) {
        QVERIFY2(std::string(e.what()).find(key) != std::string::npos, e.what());
      }
    }
  }

  void autoAndUnsetValuesAreDistinct() {
    const auto text = session::toJson(exampleSession());
    const auto doc = nlohmann::json::parse(text);
    QCOMPARE(doc["version"].get<int>(), 1);
    QCOMPARE(doc["mechanisms"][0]["downscale"].get<std::string>(), std::string("auto"));
    QVERIFY(doc["mechanisms"][0]["epsilon"].is_null());
    QCOMPARE(doc["mechanisms"][0]["k"].get<double>(), 0.93);
    QCOMPARE(doc["mechanisms"][1]["k"].get<std::string>(), std::string("auto"));
  }

  void neverStoresDataOrWeights() {
    const auto doc = nlohmann::json::parse(session::toJson(exampleSession()));
    for (const char* key : {"alpha", "weights", "draws", "rows", "y", "lipschitz"}) {
      QVERIFY2(!doc.contains(key), key);
      QVERIFY2(!doc["data"].contains(key), key);
    }
  }

  void relativeDataPathResolvesAgainstSessionFolder() {
    QTemporaryDir dir;
    auto s = exampleSession();
    s.dataFile = "sub/d.csv";
    const std::string path = dir.filePath("r.dpsynth").toStdString();
    session::saveSession(path, s);
    QCOMPARE(QString::fromStdString(session::loadSession(path).dataFile),
             QDir(dir.path()).absoluteFilePath("sub/d.csv"));
  }

  void rejectsOtherVersions() {
    auto doc = nlohmann::json::parse(session::toJson(exampleSession()));
    doc["version"] = 2;
    try {
      session::fromJson(doc.dump(), "new.dpsynth");
      QFAIL("version 2 accepted");
    } catch (const session::SessionError& e) {
      QVERIFY2(std::string(e.what()).find("newer") != std::string::npos, e.what());
      QVERIFY(std::string(e.what()).find("new.dpsynth") != std::string::npos);
    }
    doc.erase("version");
    QVERIFY_THROWS_EXCEPTION(session::SessionError, session::fromJson(doc.dump(), "f"));
  }

  /// The sampler metric is stored under run.metric; sessions saved before it existed (no key)
  /// sample with the automatic choice, and an unknown value names the key.
  void metricSetting() {
    auto doc = nlohmann::json::parse(session::toJson(exampleSession()));
    QCOMPARE(doc["run"]["metric"].get<std::string>(), std::string("dense"));
    doc["run"].erase("metric");
    QCOMPARE(session::fromJson(doc.dump(), "f").run.nuts.metric,
             dpsynth::core::mcmc::MetricChoice::automatic);
    doc["run"]["metric"] = "diag";
    QCOMPARE(session::fromJson(doc.dump(), "f").run.nuts.metric,
             dpsynth::core::mcmc::MetricChoice::diag);
    doc["run"]["metric"] = "unit";
    try {
      session::fromJson(doc.dump(), "f");
      QFAIL("unknown metric accepted");
    } catch (const session::SessionError& e) {
      QVERIFY2(std::string(e.what()).find("run.metric") != std::string::npos, e.what());
    }
  }

  /// Settings tuned on the confidential data (a frontier point loaded from a bootstrap of
  /// them) keep that mark through a session; sessions saved before it existed were not.
  void tunedOnConfidentialSetting() {
    session::Session s = exampleSession();
    s.run.tunedOnConfidential = true;
    auto doc = nlohmann::json::parse(session::toJson(s));
    QCOMPARE(doc["run"]["tuned_on_confidential"].get<bool>(), true);
    QVERIFY(session::fromJson(doc.dump(), "f").run.tunedOnConfidential);
    compareSessions(session::fromJson(doc.dump(), "f"), s);
    doc["run"]["tuned_on_confidential"] = false;
    QVERIFY(!session::fromJson(doc.dump(), "f").run.tunedOnConfidential);
    doc["run"].erase("tuned_on_confidential");
    QVERIFY(!session::fromJson(doc.dump(), "f").run.tunedOnConfidential);
    doc["run"]["tuned_on_confidential"] = "yes";
    try {
      session::fromJson(doc.dump(), "f");
      QFAIL("a string accepted for a boolean");
    } catch (const session::SessionError& e) {
      QVERIFY2(std::string(e.what()).find("run.tuned_on_confidential") != std::string::npos,
               e.what());
    }
  }

  /// A family only suggested from the data is saved as such; files without the key count as
  /// declared (as they were read before it existed).
  void familyDeclaredSetting() {
    session::Session s = exampleSession();
    s.familyDeclared = false;
    auto doc = nlohmann::json::parse(session::toJson(s));
    QCOMPARE(doc["data"]["family_declared"].get<bool>(), false);
    QVERIFY(!session::fromJson(doc.dump(), "f").familyDeclared);
    doc["data"]["family_declared"] = true;
    QVERIFY(session::fromJson(doc.dump(), "f").familyDeclared);
    doc["data"].erase("family_declared");
    QVERIFY(session::fromJson(doc.dump(), "f").familyDeclared);
  }

  void rejectsMalformedContent() {
    QVERIFY_THROWS_EXCEPTION(session::SessionError, session::fromJson("{not json", "f"));
    QVERIFY_THROWS_EXCEPTION(session::SessionError, session::fromJson("[1,2]", "f"));
    auto doc = nlohmann::json::parse(session::toJson(exampleSession()));
    doc["mechanisms"][1]["mechanism"] = "laplace";
    try {
      session::fromJson(doc.dump(), "f");
      QFAIL("unknown mechanism accepted");
    } catch (const session::SessionError& e) {
      QVERIFY2(std::string(e.what()).find("mechanisms[1].mechanism") != std::string::npos,
               e.what());
    }
    doc = nlohmann::json::parse(session::toJson(exampleSession()));
    doc["run"]["chains"] = 0;
    QVERIFY_THROWS_EXCEPTION(session::SessionError, session::fromJson(doc.dump(), "f"));
    // Each bound holds alone, but not their product: 1024 chains × 10^8 draws.
    doc = nlohmann::json::parse(session::toJson(exampleSession()));
    doc["run"]["chains"] = 1024;
    doc["run"]["draws"] = 100000000;
    try {
      session::fromJson(doc.dump(), "f");
      QFAIL("1024 chains x 10^8 draws accepted");
    } catch (const session::SessionError& e) {
      QVERIFY2(std::string(e.what()).find("chains × draws must be at most 10000000") !=
                   std::string::npos,
               e.what());
    }
    // A float, or a number beyond the type, is refused as such (never converted).
    doc = nlohmann::json::parse(session::toJson(exampleSession()));
    doc["run"]["seed"] = 5e121;
    QVERIFY_THROWS_EXCEPTION(session::SessionError, session::fromJson(doc.dump(), "f"));
    QVERIFY_THROWS_EXCEPTION(session::SessionError,
                             session::fromJson(R"({"version": 1, "version": 1})", "f"));
    doc = nlohmann::json::parse(session::toJson(exampleSession()));
    doc["data"]["family"] = "gamma";
    QVERIFY_THROWS_EXCEPTION(session::SessionError, session::fromJson(doc.dump(), "f"));
    doc = nlohmann::json::parse(session::toJson(exampleSession()));
    doc["mechanisms"][0]["k"] = "automatic";
    QVERIFY_THROWS_EXCEPTION(session::SessionError, session::fromJson(doc.dump(), "f"));
    QVERIFY_THROWS_EXCEPTION(session::SessionError, session::loadSession("/nonexistent.dpsynth"));
  }

  void detectsChangedDataFile() {
    QTemporaryDir dir;
    auto s = exampleSession();
    s.dataFile = writeFile(dir, "d.csv", "y\n1\n2\n3\n");
    s.dataSha256 = dpsynth::core::data::sha256File(s.dataFile);
    QCOMPARE(session::checkDataFile(s).status, session::DataFileStatus::unchanged);

    writeFile(dir, "d.csv", "y\n1\n2\n4\n");  // one value edited
    const auto changed = session::checkDataFile(s);
    QCOMPARE(changed.status, session::DataFileStatus::changed);
    QVERIFY(changed.message.find("changed") != std::string::npos);
    QVERIFY(changed.actualSha256 != s.dataSha256);

    s.dataSha256.clear();
    QCOMPARE(session::checkDataFile(s).status, session::DataFileStatus::unverified);
    s.dataFile = dir.filePath("gone.csv").toStdString();
    QCOMPARE(session::checkDataFile(s).status, session::DataFileStatus::missing);
  }
};

QTEST_APPLESS_MAIN(SessionTest)
#include "session_test.moc"
