/// HTML building blocks: escaping of text that comes from data, locale-free number display.
#include "core/report/html_writer.h"

#include <QtTest>
#include <clocale>
#include <cmath>

namespace report = dpsynth::core::report;

class HtmlWriterTest : public QObject {
  Q_OBJECT
 private slots:
  void escapesMarkupCharacters() {
    QCOMPARE(report::escapeHtml("a<b>&\"c\"'d"), std::string("a&lt;b&gt;&amp;&quot;c&quot;&#39;d"));
    QCOMPARE(report::escapeHtml("ünïcode ε"), std::string("ünïcode ε"));
  }

  void tablesAndFactsEscapeCells() {
    const std::string t = report::htmlTable({"<h>"}, {{"<script>x</script>"}});
    QVERIFY(t.find("<script>") == std::string::npos);
    QVERIFY(t.find("&lt;script&gt;x&lt;/script&gt;") != std::string::npos);
    QVERIFY(t.find("&lt;h&gt;") != std::string::npos);
    const std::string f = report::htmlFacts({{"col", "a&b"}});
    QVERIFY(f.find("a&amp;b") != std::string::npos);
    const std::string l = report::htmlList({"<i>"}, "none");
    QVERIFY(l.find("&lt;i&gt;") != std::string::npos);
  }

  void numbersHaveSixSignificantDigits() {
    QCOMPARE(report::displayNumber(100.3123456), std::string("100.312"));
    QCOMPARE(report::displayNumber(0.5), std::string("0.5"));
    QCOMPARE(report::displayNumber(2), std::string("2"));
    QCOMPARE(report::displayNumber(-0.0), std::string("0"));
    QCOMPARE(report::displayNumber(1.5e-7), std::string("1.5e-07"));
    QCOMPARE(report::displayNumber(NAN), std::string("n/a"));
    QCOMPARE(report::displayNumber(INFINITY), std::string("∞"));
  }

  void numbersIgnoreTheProcessLocale() {
    // The studio runs with the user's locale (Qt calls setlocale): a German one must not turn
    // the decimal point into a comma.
    const char* set = nullptr;
    for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"})
      if (!set) set = std::setlocale(LC_ALL, name);
    if (!set) QSKIP("no locale with a decimal comma is installed");
    const std::string text = report::displayNumber(1.25);
    std::setlocale(LC_ALL, "C");
    QCOMPARE(text, std::string("1.25"));
  }

  void pageIsCompleteAndPrintable() {
    const std::string page = report::htmlPage("T & <x>", "<p>body</p>\n");
    QVERIFY(page.rfind("<!DOCTYPE html>", 0) == 0);
    QVERIFY(page.find("<meta charset=\"utf-8\">") != std::string::npos);
    QVERIFY(page.find("<title>T &amp; &lt;x&gt;</title>") != std::string::npos);
    QVERIFY(page.find("@page { size: A4") != std::string::npos);
    QVERIFY(page.find("@media print") != std::string::npos);
    QVERIFY(page.find("<script") == std::string::npos);
    QVERIFY(page.find("http") == std::string::npos);  // no external resources
    QVERIFY(page.find("</html>") != std::string::npos);
  }
};

QTEST_APPLESS_MAIN(HtmlWriterTest)
#include "html_writer_test.moc"
