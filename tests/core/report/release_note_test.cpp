/// The release note and the report JSON say where the choice of mechanism and ε came from
/// (SPEC §0 "Choices made on the confidential data"): settings tuned on the confidential data
/// (the studio's frontier on a bootstrap of them) are stated as not covered by ε; settings
/// declared or tuned on public data say nothing of the kind.
#include "core/report/release_note.h"

#include <QtTest>
#include <cmath>
#include <string>

#include "core/pipeline/report.h"
#include "core/pipeline/synthesis.h"
#include "core/report/results_table.h"

namespace report = dpsynth::core::report;
namespace pipeline = dpsynth::core::pipeline;
namespace data = dpsynth::core::data;
namespace session = dpsynth::core::session;

namespace {

/// A PH release (no sampler: fast) of 200 values in [0, 10].
struct SmallRelease {
  session::Session session;
  data::Dataset dataset;
  pipeline::RunSettings settings;
  pipeline::RunResult run;
  std::vector<std::vector<Eigen::VectorXd>> synthetic;
  std::vector<std::vector<std::string>> files;

  explicit SmallRelease(bool tunedOnConfidential) {
    Eigen::VectorXd y(200);
    for (Eigen::Index i = 0; i < y.size(); ++i) y[i] = 5 + 4 * std::sin(0.37 * double(i));
    dataset = data::numericDataset("y", dpsynth::core::models::Family::normal, y,
                                   Eigen::MatrixXd::Ones(200, 1), {"(Intercept)"});
    session.dataset.outcome = "y";
    session.dataset.family = dataset.family;
    pipeline::MechanismConfig ph;
    ph.mechanism = pipeline::Mechanism::ph;
    ph.epsilon = 1;
    ph.lower = 0;
    ph.upper = 10;
    ph.bins = 5;
    session.mechanisms = {ph};
    settings.model.family = dataset.family;
    pipeline::makeRelease(settings);
    settings.tunedOnConfidential = tunedOnConfidential;
    session.run = settings;
    run = pipeline::runMechanisms(dataset, session.mechanisms, settings);
    synthetic.push_back(
        pipeline::synthesize(dataset, run.mechanisms[0], settings.model, 1, settings.nuts.seed));
    files.push_back({"synthetic_ph.csv"});
  }

  std::string note() const {
    report::ReportInputs in{session,
                            dataset,
                            run,
                            settings,
                            settings.nuts.seed,
                            1,
                            report::mechanismLabels(run),
                            {},
                            {synthetic[0][0]},
                            {{utility::describe(synthetic[0][0])}},
                            files,
                            {},
                            {}};  // every mechanism in the release
    return report::releaseNoteHtml(in);
  }

  nlohmann::json reportJson() const {
    return pipeline::buildReport(dataset, run.mechanisms[0], settings, synthetic[0][0]);
  }
};

/// The sentence as the HTML shows it (escapeHtml leaves it as it is: no markup characters).
const std::string kSentence = report::kTunedOnConfidentialSentence;

}  // namespace

class ReleaseNoteTest : public QObject {
  Q_OBJECT

 private slots:
  void tunedOnConfidentialDataIsStatedAsNotCoveredByEpsilon() {
    const SmallRelease release(true);
    QCOMPARE(release.run.mechanisms.size(), std::size_t(1));
    const std::string note = release.note();
    QVERIFY2(note.find(kSentence) != std::string::npos, note.c_str());
    QVERIFY(kSentence.find("tuned on the confidential data") != std::string::npos);
    QVERIFY(kSentence.find("not covered by ε") != std::string::npos);
    // Stated once, before the mechanism's guarantee, as a warning.
    QCOMPARE(note.find(kSentence), note.rfind(kSentence));
    QVERIFY(note.find(kSentence) < note.find("Strict ε-differential privacy"));
    const auto json = release.reportJson();
    QCOMPARE(json.at("tuning_source").get<std::string>(),
             std::string("confidential data (not covered by epsilon)"));
  }

  void publicTuningSaysNothingOfTheKind() {
    const SmallRelease release(false);
    const std::string note = release.note();
    QVERIFY(note.find("tuned on the confidential data") == std::string::npos);
    QVERIFY(note.find("not covered by ε") == std::string::npos);
    QVERIFY(note.find("Strict ε-differential privacy") != std::string::npos);
    QCOMPARE(release.reportJson().at("tuning_source").get<std::string>(), std::string("public"));
  }
};

QTEST_APPLESS_MAIN(ReleaseNoteTest)
#include "release_note_test.moc"
