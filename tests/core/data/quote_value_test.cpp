#include "core/data/quote_value.h"

#include <QtTest>
#include <string>

using dpsynth::core::data::quoteForMessage;

namespace {
QString q(const std::string& text) { return QString::fromStdString(quoteForMessage(text)); }
}  // namespace

class QuoteValueTest : public QObject {
  Q_OBJECT

 private slots:
  void shortPlainValuesAreQuotedAsTheyAre() {
    QCOMPARE(q("abc"), QString("'abc'"));
    QCOMPARE(q(""), QString("''"));
    QCOMPARE(q("Zürich €"), QString::fromUtf8("'Zürich €'"));
  }

  void controlCharactersAreEscaped() {
    QCOMPARE(q("a\x1b[31mred"), QString("'a\\x1b[31mred'"));
    QCOMPARE(q("x\ny\rz\tw"), QString("'x\\ny\\rz\\tw'"));
    QCOMPARE(q(std::string("nul\0", 4)), QString("'nul\\x00'"));
    QCOMPARE(q("del\x7f"), QString("'del\\x7f'"));
    // The 8-bit CSI (U+009B) is obeyed by some terminals like ESC [.
    QCOMPARE(q("\xc2\x9b"
               "2J"),
             QString("'\\xc2\\x9b2J'"));
    // Bytes that are not UTF-8 are shown as hex, never passed through.
    QCOMPARE(q("\xff\xfe"), QString("'\\xff\\xfe'"));
    QCOMPARE(q("\xe2\x82"), QString("'\\xe2\\x82'"));
  }

  void longValuesAreCutAndTheirSizeGiven() {
    const std::string huge(10 * 1024 * 1024, 'x');
    const std::string quoted = quoteForMessage(huge);
    QVERIFY(quoted.size() < 100);
    QCOMPARE(QString::fromStdString(quoted),
             QString("'" + QString(60, 'x') + "'... (10485760 bytes)"));
    // Exactly at the limit nothing is cut.
    QCOMPARE(q(std::string(60, 'y')), QString("'" + QString(60, 'y') + "'"));
    // The limit counts characters, and a multi-byte character is never split.
    std::string accents;
    for (int i = 0; i < 70; ++i) accents += "é";
    const QString cut = q(accents);
    QVERIFY(cut.startsWith("'" + QString(60, QChar(0xE9)) + "'... (140 bytes)"));
    QCOMPARE(QString::fromStdString(quoteForMessage("abcdef", 3)), QString("'abc'... (6 bytes)"));
  }
};

QTEST_APPLESS_MAIN(QuoteValueTest)
#include "quote_value_test.moc"
