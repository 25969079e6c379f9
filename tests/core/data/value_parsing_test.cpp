#include "core/data/value_parsing.h"

#include <QtTest>

using dpsynth::core::data::isMissingValue;
using dpsynth::core::data::parseNumber;
using dpsynth::core::data::trimBlanks;

class ValueParsingTest : public QObject {
  Q_OBJECT

 private slots:
  void recognisesMissingSpellings() {
    for (const char* text :
         {"", "  ", "NA", "na", "NaN", "nan", "NAN", ".", " . ", "null", "NULL", "Null", "\tNA "}) {
      QVERIFY2(isMissingValue(text), text);
    }
    for (const char* text : {"0", "N/A?", "none", "..", "-", "NA1", "nulls"}) {
      QVERIFY2(!isMissingValue(text), text);
    }
  }

  void parsesNumbersInTheCLocale() {
    QCOMPARE(parseNumber("12").value(), 12.0);
    QCOMPARE(parseNumber(" -0.5 ").value(), -0.5);
    QCOMPARE(parseNumber("+4").value(), 4.0);
    QCOMPARE(parseNumber("1e-3").value(), 1e-3);
    QCOMPARE(parseNumber("2.50E+2").value(), 250.0);
    QCOMPARE(parseNumber(".5").value(), 0.5);
    QCOMPARE(parseNumber("0.1").value(), 0.1);
    QCOMPARE(parseNumber("9.726756656396666e-09").value(), 9.726756656396666e-09);
  }

  void rejectsEverythingElse() {
    for (const char* text :
         {"", " ", "abc", "12abc", "1,5", "1 000", "1.2.3", "0x10", "inf", "-Infinity", "nan", "NA",
          "++1", "+-1", "+", "-", "1e999", "$5", "5%"}) {
      QVERIFY2(!parseNumber(text).has_value(), text);
    }
  }

  void recognisesNumbersOutOfRange() {
    using dpsynth::core::data::isOutOfRangeNumber;
    for (const char* text : {"1e400", "-1e999", " +1E309 ", "1e-400", "-2.5e-99999"}) {
      QVERIFY2(isOutOfRangeNumber(text), text);
      QVERIFY2(!parseNumber(text).has_value(), text);
    }
    for (const char* text : {"", "1e308", "-1.7e308", "abc", "1e400x", "inf", "1,5e400", "NA"}) {
      QVERIFY2(!isOutOfRangeNumber(text), text);
    }
  }

  void trimsSpacesAndTabsOnly() {
    QCOMPARE(QString::fromStdString(std::string(trimBlanks(" \t a b\t "))), QString("a b"));
    QCOMPARE(QString::fromStdString(std::string(trimBlanks("\na\n"))), QString("\na\n"));
  }
};

QTEST_APPLESS_MAIN(ValueParsingTest)
#include "value_parsing_test.moc"
