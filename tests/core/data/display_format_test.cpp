// Display formats fitted to the values written: SPSS shows a number wider than its F format
// as asterisks, so the format must make room for the widest value and its decimals.
#include "core/data/display_format.h"

#include <QtTest>
#include <initializer_list>
#include <string>

using dpsynth::core::data::dateTimeFormat;
using dpsynth::core::data::formatWidth;
using dpsynth::core::data::spssNumberFormat;
using dpsynth::core::data::StatFormat;
using dpsynth::core::data::ValueKind;
using dpsynth::core::data::ValueSpan;

namespace {

ValueSpan displaySpanOf(std::initializer_list<double> values) {
  ValueSpan span;
  for (const double v : values) span.add(v);
  return span;
}

std::string fittedSpss(std::initializer_list<double> values) {
  return spssNumberFormat(displaySpanOf(values));
}

}  // namespace

class DisplayFormatTest : public QObject {
  Q_OBJECT
 private slots:
  void spssNumbersFitTheirValues() {
    QCOMPARE(fittedSpss({}), std::string());  // the writer's default
    QCOMPARE(fittedSpss({0, 1, 1, 0}), std::string("F1.0"));
    QCOMPARE(fittedSpss({100000, 7}), std::string("F6.0"));  // F8.2 showed 100000 as asterisks
    QCOMPARE(fittedSpss({-100000}), std::string("F7.0"));
    QCOMPARE(fittedSpss({0.5}), std::string("F3.1"));
    QCOMPARE(fittedSpss({-1234.125, 7}), std::string("F9.3"));
    QCOMPARE(fittedSpss({1234567.25, -20.5}), std::string("F10.2"));
    QCOMPARE(fittedSpss({123456789012.5, 1e-10}), std::string("F23.10"));
    // 0.1 + 0.2 needs 17 decimals: 16 shown, and room for a carry into the integer part.
    QCOMPARE(fittedSpss({0.1 + 0.2}), std::string("F19.16"));
    // At most 40 wide: decimals give way first, then the E format takes over.
    // (A double past 2^53 is shown as its exact value: 1e39 is 39 digits, 999...112.)
    QCOMPARE(fittedSpss({1e39}), std::string("F39.0"));
    QCOMPARE(fittedSpss({-1e39}), std::string("F40.0"));
    QCOMPARE(fittedSpss({1e37, 0.125}), std::string("F40.1"));
    QCOMPARE(fittedSpss({1e40}), std::string("E8.0"));
    QCOMPARE(fittedSpss({-1.5e50, 1e40}), std::string("E9.1"));
  }

  void span() {
    const ValueSpan s = displaySpanOf({-20.5, 1234567.25, 3});
    QCOMPARE(s.min(), -20.5);
    QCOMPARE(s.max(), 1234567.25);
    QCOMPARE(s.integerWidth(), 7);
    QCOMPARE(s.decimals(), 2);
    QCOMPARE(s.significantDigits(), 9);
    QCOMPARE(displaySpanOf({1e20}).significantDigits(), 1);
    QVERIFY(ValueSpan().empty());
  }

  void datesInEachProgramsFormat() {
    const ValueSpan none;
    const ValueSpan clock = displaySpanOf({0, 49500, 86399});
    QCOMPARE(dateTimeFormat(StatFormat::sav, ValueKind::date, none), std::string("DATE11"));
    QCOMPARE(dateTimeFormat(StatFormat::sav, ValueKind::datetime, none), std::string("DATETIME20"));
    QCOMPARE(dateTimeFormat(StatFormat::sav, ValueKind::time, clock), std::string("TIME8"));
    QCOMPARE(dateTimeFormat(StatFormat::dta, ValueKind::date, none), std::string("%td"));
    QCOMPARE(dateTimeFormat(StatFormat::dta, ValueKind::datetime, none), std::string("%tc"));
    QCOMPARE(dateTimeFormat(StatFormat::dta, ValueKind::time, clock), std::string("%tcHH:MM:SS"));
    QCOMPARE(dateTimeFormat(StatFormat::xpt, ValueKind::date, none), std::string("DATE9"));
    QCOMPARE(dateTimeFormat(StatFormat::xpt, ValueKind::datetime, none), std::string("DATETIME20"));
    QCOMPARE(dateTimeFormat(StatFormat::xpt, ValueKind::time, clock), std::string("TIME8"));
  }

  /// Fractions of a second get decimals (at most 3); durations of 100 hours or more, and
  /// negative ones, a wider field; Stata shows a time beyond a day with its date.
  void fractionsAndDurations() {
    const ValueSpan half = displaySpanOf({49500.5, 0});
    QCOMPARE(dateTimeFormat(StatFormat::sav, ValueKind::datetime, half),
             std::string("DATETIME22.1"));
    QCOMPARE(dateTimeFormat(StatFormat::sav, ValueKind::time, displaySpanOf({49500.25})),
             std::string("TIME11.2"));
    QCOMPARE(dateTimeFormat(StatFormat::dta, ValueKind::datetime, half),
             std::string("%tcDDmonCCYY_HH:MM:SS.sss"));
    QCOMPARE(dateTimeFormat(StatFormat::dta, ValueKind::time, half),
             std::string("%tcHH:MM:SS.sss"));
    QCOMPARE(dateTimeFormat(StatFormat::xpt, ValueKind::datetime, half),
             std::string("DATETIME20.1"));
    QCOMPARE(dateTimeFormat(StatFormat::xpt, ValueKind::datetime, displaySpanOf({0.125})),
             std::string("DATETIME22.3"));
    const ValueSpan long_ = displaySpanOf({360000});  // 100 hours
    QCOMPARE(dateTimeFormat(StatFormat::sav, ValueKind::time, long_), std::string("TIME9"));
    QCOMPARE(dateTimeFormat(StatFormat::xpt, ValueKind::time, long_), std::string("TIME9"));
    QCOMPARE(dateTimeFormat(StatFormat::dta, ValueKind::time, long_), std::string("%tc"));
    QCOMPARE(dateTimeFormat(StatFormat::sav, ValueKind::time, displaySpanOf({-60})),
             std::string("TIME9"));
  }

  void widths() {
    QCOMPARE(formatWidth("F12.2"), 12);
    QCOMPARE(formatWidth("DATETIME23.3"), 23);
    QCOMPARE(formatWidth("TIME8"), 8);
    QCOMPARE(formatWidth("%td"), 0);
    QCOMPARE(formatWidth(""), 0);
  }
};

QTEST_APPLESS_MAIN(DisplayFormatTest)
#include "display_format_test.moc"
