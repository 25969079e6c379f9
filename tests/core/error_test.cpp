/// core::classify: the one place that tells the user's errors from the tool's.
#include "core/error.h"

#include <QtTest>
#include <new>

#include "core/data/data_error.h"
#include "core/session/session.h"

using dpsynth::core::classify;
using Kind = dpsynth::core::Error::Kind;

class ErrorTest : public QObject {
  Q_OBJECT
 private slots:
  void classifiesEveryFamily() {
    QCOMPARE(classify(dpsynth::core::data::DataError("f.csv", 3, "y", "bad")), Kind::badInput);
    QCOMPARE(classify(dpsynth::core::session::SessionError("bad session")), Kind::badInput);
    QCOMPARE(classify(std::invalid_argument("bad setting")), Kind::badInput);
    QCOMPARE(classify(dpsynth::core::Error(Kind::internal, "bug")), Kind::internal);
    QCOMPARE(classify(std::runtime_error("disk full")), Kind::internal);
    QCOMPARE(classify(std::logic_error("bug")), Kind::internal);
  }
};

QTEST_APPLESS_MAIN(ErrorTest)
#include "error_test.moc"
