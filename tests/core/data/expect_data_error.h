#pragma once
/// A check for the data layer's error paths: the statement must throw DataError with the given
/// line and column, and its one-line message must contain a fragment. (Not a *_test.cpp file,
/// so CMake does not turn it into a test.)
#include <QtTest>
#include <optional>
#include <string>

#include "core/data/data_error.h"

namespace dpsynth::test {

template <typename Function>
std::optional<core::data::DataError> catchDataError(Function&& function) {
  try {
    function();
  } catch (const core::data::DataError& error) {
    return error;
  }
  return std::nullopt;
}

inline QString qs(const std::string& text) { return QString::fromStdString(text); }

}  // namespace dpsynth::test

#define DPSYNTH_EXPECT_DATA_ERROR(statement, expectedLine, expectedColumn, fragment)            \
  do {                                                                                          \
    const auto caught_ = ::dpsynth::test::catchDataError([&] { (void)(statement); });           \
    QVERIFY2(caught_.has_value(), "expected a DataError from: " #statement);                    \
    const std::string message_ = caught_->what();                                               \
    QVERIFY2(message_.find(fragment) != std::string::npos,                                      \
             qPrintable("'" + ::dpsynth::test::qs(message_) + "' lacks '" + (fragment) + "'")); \
    QVERIFY2(message_.find('\n') == std::string::npos, "the message must be one line");         \
    QCOMPARE(caught_->row(), static_cast<std::size_t>(expectedLine));                           \
    QCOMPARE(::dpsynth::test::qs(caught_->column()), QString(expectedColumn));                  \
  } while (false)
