#include "core/study/study_config.h"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

namespace study = dpsynth::core::study;
namespace pipeline = dpsynth::core::pipeline;
using dpsynth::core::models::Family;

namespace {

/// SPEC §8's minimal config, verbatim.
const char* kStudyConfigMinimal =
    R"J({ "version": 1, "source": {"generator": "poisson(100)", "n": 300},
  "mechanisms": ["unweighted", "lw", "censor-uw"], "epsilon": [6, 8], "replicates": 6,
  "neighbours": "replace-one", "sampler": {"chains": 2, "warmup": 200, "draws": 200}, "seed": 17 })J";

/// The message of the ConfigError that reading `text` throws (empty when none is thrown).
std::string studyConfigError(const std::string& text) {
  try {
    study::studyConfigFromJson(text, "s.json");
  } catch (const study::ConfigError& e) {
    return e.what();
  }
  return {};
}

std::string minimalWith(const std::string& from, const std::string& to) {
  std::string text = kStudyConfigMinimal;
  const auto at = text.find(from);
  if (at == std::string::npos) throw std::logic_error("fixture text not found: " + from);
  return text.replace(at, from.size(), to);
}

}  // namespace

class StudyConfigTest : public QObject {
  Q_OBJECT

 private slots:
  void minimalConfigOfTheSpecIsRead() {
    const auto c = study::studyConfigFromJson(kStudyConfigMinimal, "s.json");
    QCOMPARE(c.version, 1);
    QVERIFY(c.source.generator);
    QCOMPARE(c.source.generator->spelling(), std::string("poisson(100)"));
    QCOMPARE(c.source.n, std::size_t(300));
    QCOMPARE(c.family(), Family::poisson);
    QCOMPARE(c.mechanisms.size(), std::size_t(3));
    QCOMPARE(c.mechanisms[2], pipeline::Mechanism::censorUw);
    QCOMPARE(c.epsilon, (std::vector<double>{6, 8}));
    QCOMPARE(c.replicates, 6);
    QCOMPARE(c.sampler.chains, 2);
    QCOMPARE(c.sampler.warmup, 200);
    QCOMPARE(c.sampler.draws, 200);
    QCOMPARE(c.seed, std::uint64_t(17));
    QVERIFY(c.validate().empty());
    // Defaults of the keys the minimal config leaves out.
    QCOMPARE(c.tuning.c, std::vector<double>{1.0});
    QCOMPARE(c.tuning.g, std::vector<double>{0.0});
    QCOMPARE(c.tuning.downscale.size(), std::size_t(1));
    QCOMPARE(*c.tuning.downscale[0], 1.0);
  }

  void generatorsParseAndSpellBack() {
    const auto b = study::Generator::parse(" beta( 0.5 , 3 ) ");
    QCOMPARE(b.kind, study::Generator::Kind::beta);
    QCOMPARE(b.parameters, (std::vector<double>{0.5, 3}));
    QCOMPARE(b.spelling(), std::string("beta(0.5,3)"));
    QCOMPARE(b.family(), Family::beta);
    const auto m = study::Generator::parse("nbmix(0.2,100,5,100,20)");
    QCOMPARE(m.family(), Family::negbin);
    QCOMPARE(study::Generator::parse(m.spelling()).parameters, m.parameters);
    QCOMPARE(study::Generator::parse("negbin(10,2)").kind, study::Generator::Kind::negbin);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, study::Generator::parse("gamma(1,2)"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, study::Generator::parse("beta(1)"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, study::Generator::parse("beta(1,x)"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, study::Generator::parse("poisson(-1)"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, study::Generator::parse("nbmix(1.5,1,1,1,1)"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, study::Generator::parse("poisson 3"));
    // normal(mu,sigma): the mean may be any number (negative too), sigma must be positive.
    const auto n = study::Generator::parse("normal(-2.5, 3)");
    QCOMPARE(n.kind, study::Generator::Kind::normal);
    QCOMPARE(n.family(), Family::normal);
    QCOMPARE(n.spelling(), std::string("normal(-2.5,3)"));
    QCOMPARE(study::Generator::parse(n.spelling()).parameters, n.parameters);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, study::Generator::parse("normal(0,0)"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, study::Generator::parse("normal(0,-1)"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, study::Generator::parse("normal(1)"));
  }

  void messagesNameTheKeyAndTheProblem() {
    struct Case {
      std::string from, to, expected;
    };
    const std::vector<Case> cases = {
        {R"J("poisson(100)")J", R"J("poison(100)")J",
         "source.generator unknown generator 'poison'"},
        {R"J("n": 300)J", R"J("n": 1)J", "source.n must be between 2 and"},
        {R"J("n": 300)J", R"J("n": 300, "family": "beta")J",
         "source.family belongs to a bootstrap"},
        {R"J("lw")J", R"J("lq")J", "mechanisms "},
        {R"J("replicates": 6)J", R"J("replicates": 0)J", "replicates must be between 1 and"},
        {R"J("replicates": 6)J", R"J("replicates": 2.5)J", "replicates must be a whole number"},
        {R"J("replace-one")J", R"J("replace")J", "neighbours "},
        {R"J("chains": 2)J", R"J("chain": 2)J", "sampler.chain is not a known key"},
        {R"J("seed": 17)J", R"J("seed": -1)J", "seed must be a whole number >= 0"},
        {R"J("seed": 17)J", R"J("sed": 17)J", "sed is not a known key"},
        {R"J("epsilon": [6, 8])J", R"J("epsilon": [6, 0])J", "epsilon: every value must be > 0"},
        {R"J("epsilon": [6, 8],)J", "", "epsilon: must list at least one value"},
        {R"J("version": 1)J", R"J("version": 2)J", "version must be between 1 and 1"},
        {R"J("chains": 2, "warmup": 200, "draws": 200)J",
         R"J("chains": 64, "warmup": 200, "draws": 1000000)J", "sampler: chains × draws must be"},
        {R"J("seed": 17)J", R"J("seed": 17, "seed": 18)J", "key \"seed\" appears twice"},
        {R"J("censor-uw"])J", R"J("censor-uw"], "tuning": {"downscale": [1, 2]})J",
         "tuning.downscale: every value must be in (0, 1]"},
        {R"J("censor-uw"])J", R"J("censor-uw", "ph"])J", "ph.lower, ph.upper: the perturbed"},
        {R"J("censor-uw"])J", R"J("censor-uw", "lw"])J", "'lw' is listed twice"},
    };
    for (const auto& c : cases) {
      const std::string message = studyConfigError(minimalWith(c.from, c.to));
      QVERIFY2(message.rfind("study config 's.json': ", 0) == 0, message.c_str());
      QVERIFY2(message.find(c.expected) != std::string::npos,
               (c.expected + " not in: " + message).c_str());
    }
    QVERIFY(studyConfigError("{ not json").find("not valid JSON") != std::string::npos);
    QVERIFY(studyConfigError("[1]").find("must be a JSON object") != std::string::npos);
  }

  void validateListsEveryProblemOfAValue() {
    study::StudyConfig c;  // no source, no mechanisms
    c.replicates = 0;
    c.sampler.draws = 0;
    const auto problems = c.validate();
    QCOMPARE(problems.size(), std::size_t(4));
    QVERIFY(problems[0].rfind("source:", 0) == 0);
    QVERIFY(problems[1].rfind("mechanisms:", 0) == 0);
    QVERIFY(problems[2].rfind("replicates:", 0) == 0);
    QVERIFY(problems[3].rfind("sampler.draws:", 0) == 0);
  }

  void bootstrapSourceAndRoundTrip() {
    const std::string text = R"J({"version": 1,
      "source": {"bootstrap": "data.csv", "outcome": "y", "covariates": ["a", "b"],
                 "family": "negbin"},
      "mechanisms": ["lw", "weighted-e", "ph"], "epsilon": 4,
      "tuning": {"c": [1, 0.5], "g": 0, "downscale": [1, "auto"]},
      "neighbours": "add-remove", "replicates": 3, "ph": {"lower": 0, "upper": 500, "bins": 20},
      "seed": 5, "note": "why"})J";
    const auto c = study::studyConfigFromJson(text, "s.json");
    QVERIFY(c.source.bootstrap);
    QCOMPARE(c.source.bootstrap->covariates, (std::vector<std::string>{"a", "b"}));
    QCOMPARE(c.source.n, std::size_t(0));
    QCOMPARE(c.epsilon, std::vector<double>{4});
    QVERIFY(!c.tuning.downscale[1].has_value());
    QCOMPARE(c.neighbours, dpsynth::core::privacy::Neighbours::addRemove);
    QCOMPARE(*c.histogram.upper, 500.0);
    QCOMPARE(c.note, std::string("why"));
    // Canonical JSON reads back to the same canonical JSON (and so the same hash).
    const std::string canonical = study::studyConfigToJson(c);
    const auto again = study::studyConfigFromJson(canonical, "canonical.json");
    QCOMPARE(study::studyConfigToJson(again), canonical);
    QCOMPARE(study::studyConfigHash(again), study::studyConfigHash(c));
    QCOMPARE(study::studyConfigHash(c).size(), std::size_t(64));
    auto other = c;
    other.seed = 6;
    QVERIFY(study::studyConfigHash(other) != study::studyConfigHash(c));
    // Reference levels are written only when set, so older studies keep their hash.
    QVERIFY(canonical.find("\"reference\"") == std::string::npos);
    other = c;
    other.source.bootstrap->referenceLevels = {{"a", "low"}};
    const std::string withReference = study::studyConfigToJson(other);
    QVERIFY(study::studyConfigHash(other) != study::studyConfigHash(c));
    QVERIFY(study::studyConfigFromJson(withReference, "r.json").source.bootstrap->referenceLevels ==
            other.source.bootstrap->referenceLevels);
    QVERIFY_THROWS_EXCEPTION(
        study::ConfigError,
        study::studyConfigFromJson(R"J({"version": 1, "source": {"bootstrap": "d.csv",
          "outcome": "y", "family": "negbin", "reference": {"a": 1}}, "mechanisms": ["lw"],
          "replicates": 1, "seed": 1})J",
                                   "bad.json"));
    // The minimal config round-trips too, defaults written out.
    const auto minimal = study::studyConfigFromJson(kStudyConfigMinimal, "s.json");
    QCOMPARE(study::studyConfigToJson(
                 study::studyConfigFromJson(study::studyConfigToJson(minimal), "m.json")),
             study::studyConfigToJson(minimal));
  }

  // Found by fuzz/study_config_fuzzer: a number beyond double was an internal error (exit 1),
  // and a config without an ε grid was written as "epsilon": [], which does not read back.
  void fuzzFindingsStayFixed() {
    QVERIFY_THROWS_EXCEPTION(
        study::ConfigError,
        study::studyConfigFromJson(R"({"version": 1, "seed": 1e999})", "big.json"));
    const auto noGrid = study::studyConfigFromJson(
        R"j({"version": 1, "source": {"generator": "poisson(100)", "n": 50},
            "mechanisms": ["unweighted", "lw"], "replicates": 2, "seed": 5})j",
        "no-grid.json");
    QVERIFY(noGrid.epsilon.empty());
    const std::string written = study::studyConfigToJson(noGrid);
    QCOMPARE(study::studyConfigToJson(study::studyConfigFromJson(written, "w.json")), written);
  }

  void relativeBootstrapPathIsTheConfigFolders() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("study.json").toStdString();
    std::ofstream(path) << R"J({"version": 1, "source": {"bootstrap": "sub/data.csv",
      "outcome": "y", "family": "poisson"}, "mechanisms": ["lw"], "replicates": 1, "seed": 1})J";
    const auto c = study::loadStudyConfig(path);
    QCOMPARE(c.source.bootstrap->file, dir.filePath("sub/data.csv").toStdString());
    QVERIFY_THROWS_EXCEPTION(study::ConfigError,
                             study::loadStudyConfig(dir.filePath("missing.json").toStdString()));
    // A device is refused unread (reading /dev/zero would never end).
    QVERIFY_THROWS_EXCEPTION(study::ConfigError, study::loadStudyConfig("/dev/zero"));
  }
};

QTEST_APPLESS_MAIN(StudyConfigTest)
#include "study_config_test.moc"
