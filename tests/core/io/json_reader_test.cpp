/// The JSON key reader (core/io/json_reader.h): every integer goes through one checked
/// conversion (floats, negatives for unsigned fields and values beyond the type are refused
/// with the file and key in the message, never converted), duplicate keys are refused at any
/// depth, and a Raise turns the message into the file kind's own error.
#include "core/io/json_reader.h"

#include <QtTest>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace io = dpsynth::core::io;
using nlohmann::json;

namespace {

/// The message of the JsonError `f` throws; fails the test when it throws nothing.
template <class F>
QString jsonReaderTestMessage(F f) {
  try {
    f();
  } catch (const io::JsonError& e) {
    return QString::fromStdString(e.what());
  }
  return "(nothing thrown)";
}

[[noreturn]] void jsonReaderTestRaise(const std::string& message) {
  throw std::invalid_argument("custom: " + message);
}

}  // namespace

class JsonReaderTest : public QObject {
  Q_OBJECT

 private slots:
  void readsIntegersInRange() {
    const json doc = io::parseJson(
        R"({"a": 7, "b": 18446744073709551615, "c": -3, "d": 0, "list": [1, 2, 3]})", "f.json");
    const io::JsonReader r(doc, "f.json");
    QCOMPARE(r.integer<int>("a", 1, 10), 7);
    QCOMPARE(r.integer<std::uint64_t>("b"), std::numeric_limits<std::uint64_t>::max());
    QCOMPARE(r.integer<long long>("c", -5, 5), -3LL);
    QCOMPARE(r.integer<std::size_t>("d"), std::size_t{0});
    QCOMPARE(r.integers<int>("list", 0, 3), (std::vector<int>{1, 2, 3}));
    QVERIFY(!r.optionalInteger<int>("missing").has_value());
  }

  /// The class of bug the fuzzer found: a JSON float (here beyond 2^64) read as an integer.
  void refusesWhatAnIntegerCannotHold() {
    const json doc = io::parseJson(
        R"({"big": 5.00011e+121, "half": 2.5, "neg": -1, "over": 18446744073709551616,
            "int_over": 4294967296, "text": "7", "whole_float": 3.0, "low": 0,
            "nested": {"n": 1e300}})",
        "r.json");
    const io::JsonReader r(doc, "r.json");
    QCOMPARE(jsonReaderTestMessage([&] { r.integer<std::uint64_t>("big"); }),
             QString("r.json: big must be a whole number >= 0"));
    QCOMPARE(jsonReaderTestMessage([&] { r.integer<int>("half", 1, 10); }),
             QString("r.json: half must be a whole number between 1 and 10"));
    QCOMPARE(jsonReaderTestMessage([&] { r.integer<std::uint64_t>("neg"); }),
             QString("r.json: neg must be a whole number >= 0"));
    // nlohmann parses an integer beyond uint64 as a float: refused, not wrapped.
    QCOMPARE(jsonReaderTestMessage([&] { r.integer<std::uint64_t>("over"); }),
             QString("r.json: over must be a whole number >= 0"));
    QCOMPARE(jsonReaderTestMessage([&] { r.integer<int>("int_over"); }),
             QString("r.json: int_over must be a whole number >= -2147483648"));
    QCOMPARE(jsonReaderTestMessage([&] { r.integer<int>("text", 0, 9); }),
             QString("r.json: text must be a whole number between 0 and 9"));
    QCOMPARE(jsonReaderTestMessage([&] { r.integer<int>("whole_float", 0, 9); }),
             QString("r.json: whole_float must be a whole number between 0 and 9"));
    QCOMPARE(jsonReaderTestMessage([&] { r.integer<int>("low", 1, 9); }),
             QString("r.json: low must be between 1 and 9"));
    QCOMPARE(jsonReaderTestMessage([&] { r.object("nested").integer<int>("n", 1, 9); }),
             QString("r.json: nested.n must be a whole number between 1 and 9"));
    QCOMPARE(jsonReaderTestMessage([&] { r.integer<int>("absent"); }),
             QString("r.json: absent is missing"));
  }

  void checksEveryListElement() {
    const json doc = io::parseJson(R"({"counts": [1, -2, 3.5], "ok": [1, -2]})", "c.json");
    const io::JsonReader r(doc, "c.json");
    QCOMPARE(r.integers<std::int64_t>("ok", -100, 100), (std::vector<std::int64_t>{1, -2}));
    QCOMPARE(jsonReaderTestMessage([&] { r.integers<std::int64_t>("counts", -100, 100); }),
             QString("c.json: counts must be a whole number between -100 and 100"));
  }

  void refusesDuplicateKeysAtAnyDepth() {
    QCOMPARE(jsonReaderTestMessage([] { io::parseJson(R"({"n": 1, "e": 2, "n": 1})", "d.json"); }),
             QString("d.json: key \"n\" appears twice in one object; keep one of them"));
    QCOMPARE(jsonReaderTestMessage(
                 [] { io::parseJson(R"({"a": [{"x": 1}, {"y": 2, "y": 3}]})", "d.json"); }),
             QString("d.json: key \"y\" appears twice in one object; keep one of them"));
    // The same key in two different objects is fine.
    const json ok =
        io::parseJson(R"({"a": {"x": 1}, "b": {"x": 2}, "x": [{"x": 3}, {"x": 4}]})", "d.json");
    QCOMPARE(ok["b"]["x"].get<int>(), 2);
  }

  void refusesTextThatIsNotJson() {
    QVERIFY(jsonReaderTestMessage([] {
              io::parseJson("{", "t.json");
            }).startsWith("t.json: not valid JSON ("));
    QVERIFY(jsonReaderTestMessage([] {
              io::parseJson(R"({"x": 1e999})", "t.json");
            }).startsWith("t.json: not valid JSON ("));
    const json array = io::parseJson("[1]", "t.json");
    QCOMPARE(jsonReaderTestMessage([&] { io::JsonReader r(array, "t.json"); }),
             QString("t.json: must be a JSON object"));
  }

  /// A file kind raises its own error type with the same message.
  void raisesTheKindsOwnError() {
    const json doc = io::parseJson(R"({"n": 2.5})", "k.json");
    const io::JsonReader r(doc, "k.json", "top", jsonReaderTestRaise);
    try {
      r.integer<int>("n", 1, 9);
      QFAIL("no error");
    } catch (const std::invalid_argument& e) {
      QCOMPARE(QString(e.what()),
               QString("custom: k.json: top.n must be a whole number between 1 and 9"));
    }
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             io::parseJson(R"({"a":1,"a":1})", "k.json", jsonReaderTestRaise));
  }
};

QTEST_APPLESS_MAIN(JsonReaderTest)
#include "json_reader_test.moc"
