/// Text a spreadsheet would run as a formula, found in the columns a release copies as they are
/// (a level "=HYPERLINK(…)" went into release/ without a word).
#include "core/data/spreadsheet_formulas.h"

#include <QtTest>

namespace data = dpsynth::core::data;

class SpreadsheetFormulasTest : public QObject {
  Q_OBJECT

 private slots:
  void formulasAreTextThatStartsWithAnOperator() {
    for (const char* cell : {"=1+2", "+cmd", "-x", "@SUM(A1)", "\tx", "=HYPERLINK(\"http://x\")"})
      QVERIFY2(data::looksLikeFormula(cell), cell);
    for (const char* cell : {"", "-3", "+4", "-0.5e3", "a=b", "Zürich", "1,5", "north"})
      QVERIFY2(!data::looksLikeFormula(cell), cell);
  }

  void eachColumnWithSuchValuesIsNamedOnce() {
    const data::CsvTable table =
        data::parseCsv("y,grp,n,safe\n1,=1+2,-3,a\n2,+cmd,4,b\n3,north,-1,=x\n", "levels.csv");
    const auto warnings = data::formulaLikeWarnings(table, {"grp", "n"});
    QCOMPARE(warnings.size(), std::size_t(1));  // safe is not released, n holds numbers
    QVERIFY2(warnings[0].find("'grp' has 2 values") != std::string::npos, warnings[0].c_str());
    QVERIFY2(warnings[0].find("'=1+2'") != std::string::npos, warnings[0].c_str());
    QVERIFY(data::formulaLikeWarnings(table, {"n"}).empty());
  }
};

QTEST_APPLESS_MAIN(SpreadsheetFormulasTest)
#include "spreadsheet_formulas_test.moc"
