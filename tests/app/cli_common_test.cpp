/// The bound checks every numeric flag uses (app/cli/cli_common.h), without starting a process.
#include "app/cli/cli_common.h"

#include <QtTest>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cli = dpsynth::cli;

namespace {

/// Parses `--v TEXT` against one option with the check; the error text, or "" when accepted.
template <typename T>
std::string parse(const CLI::Validator& check, const std::string& text, T& value) {
  CLI::App app;
  app.add_option("--v", value)->check(check);
  std::vector<std::string> args{text, "--v"};  // CLI11 parses the vector back to front
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    return e.what();
  }
  return {};
}

}  // namespace

class CliCommonTest : public QObject {
  Q_OBJECT

 private slots:
  void unsignedDecimalAcceptsPlainDigitsInRange() {
    std::uint64_t value = 0;
    QCOMPARE(QString::fromStdString(parse(cli::unsignedDecimal(1, 100), "100", value)), QString());
    QCOMPARE(value, std::uint64_t{100});
    QCOMPARE(QString::fromStdString(
                 parse(cli::unsignedDecimal(0, UINT64_MAX), "18446744073709551615", value)),
             QString());
    QCOMPARE(value, UINT64_MAX);
  }

  void unsignedDecimalRefusesEverythingElse() {
    std::optional<std::uint64_t> value;
    for (const char* text : {"-1", "+5", "1e3", "0x10", "1.0", " 7", "7 ", "", "abc", "١٢"}) {
      const std::string error = parse(cli::unsignedDecimal(0, UINT64_MAX), text, value);
      QVERIFY2(error.find("is not a whole number written in decimal digits") != std::string::npos,
               (std::string(text) + " -> " + error).c_str());
      QVERIFY(!value.has_value());
    }
    const std::string big =
        parse(cli::unsignedDecimal(0, UINT64_MAX), "18446744073709551616", value);
    QVERIFY2(big.find("is out of range; use an integer from 0 to 18446744073709551615") !=
                 std::string::npos,
             big.c_str());
    const std::string low = parse(cli::unsignedDecimal(1, 10), "0", value);
    QVERIFY2(low.find("'0' is out of range; use an integer from 1 to 10") != std::string::npos,
             low.c_str());
    // The user's text is quoted short and escaped.
    const std::string escaped =
        parse(cli::unsignedDecimal(1, 10), "\x1b[2J" + std::string(500, '9'), value);
    QVERIFY(escaped.find('\x1b') == std::string::npos);
    QVERIFY(escaped.size() < 200);
  }

  void finiteNumberChecksValueAndForm() {
    double value = 0.0;
    QCOMPARE(QString::fromStdString(parse(cli::finiteNumber(0.0, 10.0), "2.5e0", value)),
             QString());
    QCOMPARE(value, 2.5);
    for (const char* text : {"inf", "nan", "1e400", "0x1p3", "1,5", "abc"}) {
      const std::string error = parse(cli::finiteNumber(-1e300, 1e300), text, value);
      QVERIFY2(error.find("is not a finite decimal number") != std::string::npos, text);
    }
    const std::string out = parse(cli::finiteNumber(0.0, 10.0), "10.5", value);
    QVERIFY2(out.find("'10.5' is out of range; use a number from 0 to 10") != std::string::npos,
             out.c_str());
  }

  void requireRangeThrowsInvalidArgument() {
    cli::requireRange<int>("--draws", 5, 1, 10);
    cli::requireRange("--epsilon", 0.5, 0.0, 1.0);
    try {
      cli::requireRange<std::uint64_t>("--n", 20'000'000, 1, 1'000'000, "choose fewer records");
      QFAIL("out of range accepted");
    } catch (const std::invalid_argument& e) {
      QCOMPARE(QString(e.what()),
               QString("--n must be between 1 and 1000000 (got 20000000); choose fewer records"));
    }
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, cli::requireRange<int>("--chains", -1, 1, 64));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             cli::requireRange("--c", std::nan(""), 0.0, 1.0));
    try {
      cli::requireRange("--k", 1.5, 0.0, 1.0);
    } catch (const std::invalid_argument& e) {
      QCOMPARE(QString(e.what()), QString("--k must be between 0 and 1 (got 1.5)"));
    }
  }

  void guardedMapsBadInputToExitTwo() {
    QCOMPARE(cli::guarded([] {
               cli::requireRange<int>("--bins", 0, 1, 10);
               return 0;
             }),
             cli::kExitBadInput);
    QCOMPARE(cli::guarded([] { return cli::kExitOk; }), cli::kExitOk);
  }
};

QTEST_APPLESS_MAIN(CliCommonTest)
#include "cli_common_test.moc"
