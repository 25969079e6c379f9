/// The command line's heartbeat during a long stage: the share of all chains' iterations done
/// and each chain's phase, so that a fit of 10^6 records is never silent for long.
#include "app/cli/stage_heartbeat.h"

#include <QtTest>

using dpsynth::cli::StageHeartbeat;

class StageHeartbeatTest : public QObject {
  Q_OBJECT

 private slots:
  void saysHowFarTheStageIs() {
    StageHeartbeat beat(1e9);  // never prints in this test
    beat.started("lw", "unweighted");
    QCOMPARE(QString::fromStdString(beat.line()), QString());  // no progress yet
    beat.progress("unweighted", {0, 500, 2000, true, 0});
    beat.progress("unweighted", {1, 1500, 2000, false, 0});
    const QString line = QString::fromStdString(beat.line());
    QVERIFY2(line.startsWith("  lw stage unweighted: 50% (warm-up and sampling), "),
             qPrintable(line));
    beat.progress("unweighted", {0, 2000, 2000, false, 0});
    QVERIFY(QString::fromStdString(beat.line()).contains("88% (sampling)"));
    // Progress of another stage (a late report) is not mixed in; a new stage starts afresh.
    beat.progress("lw", {0, 10, 2000, true, 0});
    QVERIFY(QString::fromStdString(beat.line()).contains("88%"));
    beat.started("lw", "lw");
    beat.progress("lw", {0, 10, 2000, true, 0});
    QVERIFY(QString::fromStdString(beat.line()).contains("stage lw: 1% (warm-up)"));
  }
};

QTEST_MAIN(StageHeartbeatTest)
#include "stage_heartbeat_test.moc"
