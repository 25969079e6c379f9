#include "core/data/data_error.h"

#include <QtTest>

using dpsynth::core::data::DataError;

class DataErrorTest : public QObject {
  Q_OBJECT

 private slots:
  void allPartsMakeOneLine() {
    const DataError error("survey.csv", 12, "income", "value 'abc' is not a number",
                          "Fix the value.");
    QCOMPARE(
        QString(error.what()),
        QString("survey.csv:12: column 'income': value 'abc' is not a number. Fix the value."));
    QCOMPARE(QString::fromStdString(error.file()), QString("survey.csv"));
    QCOMPARE(error.row(), std::size_t{12});
    QCOMPARE(QString::fromStdString(error.column()), QString("income"));
    QCOMPARE(QString::fromStdString(error.problem()), QString("value 'abc' is not a number"));
    QCOMPARE(QString::fromStdString(error.hint()), QString("Fix the value."));
  }

  void emptyPartsAreOmitted() {
    QCOMPARE(QString(DataError("a.csv", 0, "", "the file is empty").what()),
             QString("a.csv: the file is empty."));
    QCOMPARE(QString(DataError("a.csv", 3, "", "too many fields", "Quote them.").what()),
             QString("a.csv:3: too many fields. Quote them."));
    QCOMPARE(QString(DataError("a.csv", 0, "x", "no such column").what()),
             QString("a.csv: column 'x': no such column."));
    QCOMPARE(QString(DataError("", 4, "x", "bad").what()), QString("line 4: column 'x': bad."));
    QCOMPARE(QString(DataError("", 0, "", "bad", "Hint.").what()), QString("bad. Hint."));
  }

  void problemEndingInPunctuationIsNotDoubled() {
    QCOMPARE(QString(DataError("a.csv", 0, "", "what now?").what()), QString("a.csv: what now?"));
    QCOMPARE(QString(DataError("a.csv", 0, "", "done.").what()), QString("a.csv: done."));
  }

  void lineBreaksFromTheDataAreFlattened() {
    const DataError error("a.csv", 2, "note", "value 'x\ny' is not a number");
    QCOMPARE(QString(error.what()),
             QString("a.csv:2: column 'note': value 'x y' is not a number."));
  }

  void controlCharactersNeverReachTheTerminal() {
    // A column name or value that did not go through quoteForMessage is still made safe.
    const DataError error("a.csv", 2, "n\x1b[2Jame", "value '\x1b]0;owned\x07' is bad \xc2\x9b");
    const std::string message = error.what();
    QVERIFY(message.find('\x1b') == std::string::npos);
    QVERIFY(message.find('\x07') == std::string::npos);
    QVERIFY(message.find("\xc2\x9b") == std::string::npos);
    QCOMPARE(QString::fromStdString(message),
             QString("a.csv:2: column 'n\\x1b[2Jame': value '\\x1b]0;owned\\x07' is bad "
                     "\\xc2\\x9b."));
    // The column name is quoted short.
    const DataError longName("a.csv", 0, std::string(500, 'c'), "no such column");
    QVERIFY(std::string(longName.what()).size() < 120);
  }

  void isARuntimeError() {
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, throw DataError("a.csv", 1, "", "bad"));
  }
};

QTEST_APPLESS_MAIN(DataErrorTest)
#include "data_error_test.moc"
