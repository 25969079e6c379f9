#include "core/exec/parallel_for.h"

#include <QtTest>
#include <atomic>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace exec = dpsynth::core::exec;

class ParallelForTest : public QObject {
  Q_OBJECT

 private slots:
  void threadsAreBoundedByJobsAndAtLeastOne() {
    QCOMPARE(exec::threadsFor(8, 3), 3);
    QCOMPARE(exec::threadsFor(2, 100), 2);
    QCOMPARE(exec::threadsFor(5, 0), 1);
    QVERIFY(exec::threadsFor(0, 1000) >= 1);
  }

  void everyIndexRunsOnceAndFinishedIsSerialised() {
    for (int threads : {1, 2, 8}) {
      std::vector<std::atomic<int>> runs(200);
      std::vector<std::size_t> finished;
      std::atomic<int> inside{0};
      int overlaps = 0;
      const std::size_t done = exec::parallelFor(
          runs.size(), threads,
          [&](std::size_t i, std::stop_token) {
            ++runs[i];
            return true;
          },
          [&](std::size_t i) {
            if (inside.fetch_add(1) != 0) ++overlaps;
            finished.push_back(i);
            std::this_thread::yield();
            inside.fetch_sub(1);
          });
      QCOMPARE(done, runs.size());
      QCOMPARE(overlaps, 0);
      for (const auto& r : runs) QCOMPARE(r.load(), 1);
      QCOMPARE(std::set<std::size_t>(finished.begin(), finished.end()).size(), runs.size());
    }
  }

  void aFailureStopsTheRestAndIsRethrown() {
    // Jobs after the failing one wait for the stop the failure must request, so the test
    // would hang (and time out) if it were not requested, and fail if jobs kept starting.
    std::atomic<int> started{0};
    QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                             exec::parallelFor(1000, 2, [&](std::size_t i, std::stop_token token) {
                               ++started;
                               if (i == 3) throw std::runtime_error("job 3");
                               if (i < 3) return true;
                               while (!token.stop_requested()) std::this_thread::yield();
                               return false;
                             }));
    QVERIFY(started.load() <= 5);
  }

  void aStopRequestLetsNoNewJobStart() {
    std::stop_source stop;
    std::atomic<int> started{0};
    const std::size_t done = exec::parallelFor(
        1000, 2,
        [&](std::size_t, std::stop_token token) {
          if (++started == 5) stop.request_stop();
          return !token.stop_requested();
        },
        {}, stop.get_token());
    QVERIFY(done < 1000);
    QVERIFY(started.load() < 1000);
  }
};

QTEST_APPLESS_MAIN(ParallelForTest)
#include "parallel_for_test.moc"
