// What the numbers of a date or time count in SPSS, Stata and SAS files, checked against
// counts worked out by hand (not taken from the code), and the kind a Stata %tc format shows.
#include "core/data/date_units.h"

#include <QtTest>

using dpsynth::core::data::convertTime;
using dpsynth::core::data::kindOfDisplayFormat;
using dpsynth::core::data::kSpssSecondsAt1960;
using dpsynth::core::data::secondsSince1960;
using dpsynth::core::data::StatFormat;
using dpsynth::core::data::TimeUnit;
using dpsynth::core::data::timeUnitOf;
using dpsynth::core::data::ValueKind;
using dpsynth::core::data::writtenTimeUnit;

namespace {

// Worked out by hand:
// - 1582-10-14 to 1583-01-01: 18 days left in October (14th to 31st, and the 31st itself),
//   30 in November, 31 in December: 79. 1583-01-01 to 1960-01-01: 377 years, of which the
//   leap years are 1584, 1588, ..., 1956 ((1956 - 1584) / 4 + 1 = 94) less 1700, 1800 and
//   1900: 91. 377 * 365 + 91 = 137696. In all 137775 days, 11,903,760,000 seconds.
// - 1960-01-01 to 1970-01-01: 3653 days (leap years 1960, 1964, 1968), so SPSS's count for
//   1970-01-01 is 141428 days, 12,219,379,200 s: the offset R's haven and others subtract to
//   turn SPSS datetimes into Unix time.
// - 1960-01-01 to 2024-05-01: 64 years with 16 leap years (1960, ..., 2020): 23376 days, then
//   31 + 29 + 31 + 30 = 121: day 23497. In SPSS: (137775 + 23497) * 86400 = 13,933,900,800 s.
// - 13:45:00 is 49,500 s after midnight.
constexpr double kSpss1960 = 11903760000.0;
constexpr double kSpss1970 = 12219379200.0;
constexpr double kDays2024May1 = 23497.0;
constexpr double kSpss2024May1 = 13933900800.0;
constexpr double kClock1345 = 49500.0;

}  // namespace

class DateUnitsTest : public QObject {
  Q_OBJECT
 private slots:
  void epochsWorkedOutByHand() {
    QCOMPARE(kSpssSecondsAt1960, kSpss1960);
    QCOMPARE(convertTime(kSpss1970, TimeUnit::spssSeconds, TimeUnit::seconds), 3653.0 * 86400);
    QCOMPARE(convertTime(kSpss2024May1, TimeUnit::spssSeconds, TimeUnit::days), kDays2024May1);
    QCOMPARE(convertTime(kDays2024May1, TimeUnit::days, TimeUnit::spssSeconds), kSpss2024May1);
    QCOMPARE(convertTime(0, TimeUnit::days, TimeUnit::spssSeconds), kSpss1960);
    // 2024-05-01 13:45:00 in each program's count.
    const double spss = kSpss2024May1 + kClock1345;
    const double stataMs = (kDays2024May1 * 86400 + kClock1345) * 1000;  // 2,030,190,300,000
    const double sas = kDays2024May1 * 86400 + kClock1345;               // 2,030,190,300
    QCOMPARE(convertTime(spss, TimeUnit::spssSeconds, TimeUnit::milliseconds), stataMs);
    QCOMPARE(convertTime(spss, TimeUnit::spssSeconds, TimeUnit::seconds), sas);
    QCOMPARE(convertTime(stataMs, TimeUnit::milliseconds, TimeUnit::spssSeconds), spss);
    QCOMPARE(convertTime(sas, TimeUnit::seconds, TimeUnit::milliseconds), stataMs);
    // A time: seconds in SPSS and SAS, milliseconds in Stata.
    QCOMPARE(convertTime(kClock1345, TimeUnit::seconds, TimeUnit::milliseconds), 49500000.0);
    // Before 1960, and a fraction of a second.
    QCOMPARE(convertTime(-1, TimeUnit::days, TimeUnit::spssSeconds), kSpss1960 - 86400);
    QCOMPARE(convertTime(spss + 0.5, TimeUnit::spssSeconds, TimeUnit::milliseconds), stataMs + 500);
  }

  /// Stata's weeks, months, quarters, half years and years are their first day.
  void stataPeriodsAreTheirFirstDay() {
    const auto days = [](double value, TimeUnit unit) {
      return secondsSince1960(value, unit) / 86400;
    };
    // 2024m5 is month 64 * 12 + 4 = 772; 2024q2 quarter 64 * 4 + 1 = 257 (2024-04-01, 30 days
    // before May 1st); 2024h1 half year 128 and 2024 itself are 2024-01-01, day 23376.
    QCOMPARE(days(772, TimeUnit::stataMonths), kDays2024May1);
    QCOMPARE(days(257, TimeUnit::stataQuarters), kDays2024May1 - 30);
    QCOMPARE(days(128, TimeUnit::stataHalfYears), 23376.0);
    QCOMPARE(days(2024, TimeUnit::stataYears), 23376.0);
    // 2024w18 is week 64 * 52 + 17 = 3345: 17 weeks after January 1st, 2024-04-29.
    QCOMPARE(days(3345, TimeUnit::stataWeeks), 23376.0 + 119);
    // 1959m12 (-1) is 1959-12-01, 31 days before 1960; 1959w52 (-1) begins on 1959-12-24.
    QCOMPARE(days(-1, TimeUnit::stataMonths), -31.0);
    QCOMPARE(days(-1, TimeUnit::stataWeeks), -8.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, secondsSince1960(1, TimeUnit::none));
  }

  void unitsOfEachProgram() {
    QCOMPARE(timeUnitOf(StatFormat::sav, ValueKind::date, "ADATE10"), TimeUnit::spssSeconds);
    QCOMPARE(timeUnitOf(StatFormat::por, ValueKind::datetime, "DATETIME20"), TimeUnit::spssSeconds);
    QCOMPARE(timeUnitOf(StatFormat::zsav, ValueKind::time, "TIME8"), TimeUnit::seconds);
    QCOMPARE(timeUnitOf(StatFormat::sas7bdat, ValueKind::date, "MMDDYY10"), TimeUnit::days);
    QCOMPARE(timeUnitOf(StatFormat::xpt, ValueKind::datetime, "DATETIME20"), TimeUnit::seconds);
    QCOMPARE(timeUnitOf(StatFormat::xpt, ValueKind::time, "TIME8"), TimeUnit::seconds);
    QCOMPARE(timeUnitOf(StatFormat::dta, ValueKind::date, "%td"), TimeUnit::days);
    QCOMPARE(timeUnitOf(StatFormat::dta, ValueKind::date, "%-tdDD/NN/CCYY"), TimeUnit::days);
    QCOMPARE(timeUnitOf(StatFormat::dta, ValueKind::datetime, "%tc"), TimeUnit::milliseconds);
    QCOMPARE(timeUnitOf(StatFormat::dta, ValueKind::date, "%tm"), TimeUnit::stataMonths);
    QCOMPARE(timeUnitOf(StatFormat::dta, ValueKind::datetime, "%tC"), TimeUnit::none);
    QCOMPARE(timeUnitOf(StatFormat::dta, ValueKind::date, "%tbmycal"), TimeUnit::none);
    QCOMPARE(timeUnitOf(StatFormat::sav, ValueKind::number, "F8.2"), TimeUnit::none);
    QCOMPARE(writtenTimeUnit(StatFormat::sav, ValueKind::date), TimeUnit::spssSeconds);
    QCOMPARE(writtenTimeUnit(StatFormat::sav, ValueKind::time), TimeUnit::seconds);
    QCOMPARE(writtenTimeUnit(StatFormat::dta, ValueKind::date), TimeUnit::days);
    QCOMPARE(writtenTimeUnit(StatFormat::dta, ValueKind::time), TimeUnit::milliseconds);
    QCOMPARE(writtenTimeUnit(StatFormat::xpt, ValueKind::datetime), TimeUnit::seconds);
    QCOMPARE(writtenTimeUnit(StatFormat::xpt, ValueKind::number), TimeUnit::none);
  }

  /// Stata has no time format: a %tc that shows the clock only is a time, any date part
  /// ("Mon", "DD", "CCYY", ...) makes it a date with a time.
  void stataClockOnlyIsATime() {
    QCOMPARE(kindOfDisplayFormat("%tcHH:MM:SS"), ValueKind::time);
    QCOMPARE(kindOfDisplayFormat("%-tcHH:MM:SS.sss"), ValueKind::time);
    QCOMPARE(kindOfDisplayFormat("%tchh:MM_am"), ValueKind::time);
    QCOMPARE(kindOfDisplayFormat("%tc"), ValueKind::datetime);
    QCOMPARE(kindOfDisplayFormat("%tcDDmonCCYY_HH:MM:SS.sss"), ValueKind::datetime);
    QCOMPARE(kindOfDisplayFormat("%tcMon_HH:MM"), ValueKind::datetime);
    QCOMPARE(kindOfDisplayFormat("%tC"), ValueKind::datetime);
  }
};

QTEST_APPLESS_MAIN(DateUnitsTest)
#include "date_units_test.moc"
