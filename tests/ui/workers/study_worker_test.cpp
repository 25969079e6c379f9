/// StudyJob runs a study off the GUI thread: the rows of each replicate arrive by queued
/// signal on the GUI thread, progress counts every replicate, the folder is written, and a
/// second run into the same folder only reopens it (resume: nothing left to run).
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include "core/study/study_store.h"
#include "ui/services/study_job.h"

using namespace dpsynth::ui;
namespace study = dpsynth::core::study;

namespace {

constexpr int kJobWaitMs = 10 * 60 * 1000;  // a ceiling for a slow machine, not a timing

study::StudyConfig twoReplicates() {
  study::StudyConfig config;
  config.source.generator = study::Generator::parse("poisson(5)");
  config.source.n = 40;
  config.mechanisms = {dpsynth::core::pipeline::Mechanism::censorUw};
  config.epsilon = {3};
  config.replicates = 2;
  config.sampler = {1, 50, 50};
  config.seed = 5;
  return config;
}

}  // namespace

class StudyWorkerTest : public QObject {
  Q_OBJECT

 private slots:
  void rowsArriveOnTheGuiThreadAndTheFolderResumes() {
    QTemporaryDir dir;
    StudyJob job;
    QSignalSpy opened(&job, &StudyJob::opened);
    QSignalSpy replicates(&job, &StudyJob::replicateFinished);
    QSignalSpy progress(&job, &StudyJob::progress);
    QSignalSpy finished(&job, &StudyJob::finished);
    QThread* gui = QThread::currentThread();
    bool onGui = true;
    connect(&job, &StudyJob::replicateFinished, this,
            [&] { onGui = onGui && QThread::currentThread() == gui; });
    job.start(twoReplicates(), dir.path(), 1);
    QVERIFY(job.isRunning());
    QVERIFY(finished.wait(kJobWaitMs));
    QVERIFY(!job.isRunning());
    QCOMPARE(finished.first().first().toBool(), false);
    QCOMPARE(opened.count(), 1);
    QCOMPARE(replicates.count(), 2);
    QVERIFY(onGui);
    for (const auto& signal : replicates)
      QCOMPARE(signal.first().value<StudyRows>().size(), std::size_t{2});  // confidential + cell
    QCOMPARE(progress.last().at(0).toInt(), 2);
    QCOMPARE(progress.last().at(1).toInt(), 2);
    QVERIFY(QFileInfo::exists(dir.path() + QStringLiteral("/summary.md")));

    // Again into the same folder: the stored rows come back, no replicate runs.
    job.start(twoReplicates(), dir.path(), 1);
    QVERIFY(finished.wait(kJobWaitMs));
    QCOMPARE(opened.count(), 2);
    QCOMPARE(opened.last().at(0).value<StudyRows>().size(), std::size_t{4});
    QCOMPARE(opened.last().at(1).toInt(), 2);
    QCOMPARE(replicates.count(), 2);
  }
};

QTEST_MAIN(StudyWorkerTest)
#include "study_worker_test.moc"
