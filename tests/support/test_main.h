#pragma once
/// Included after <QtTest> in every test (the last header of the tests' precompiled header):
/// the QTEST_*_MAIN macros no longer define main() but register the test class with
/// test_registry.h. Qt's own wrapper is copied except for the function it defines.
#include <QtTest>

#include "support/test_registry.h"

#define DPSYNTH_TEST_CONCAT_(a, b) a##b
#define DPSYNTH_TEST_CONCAT(a, b) DPSYNTH_TEST_CONCAT_(a, b)

#undef QTEST_MAIN_WRAPPER
#define QTEST_MAIN_WRAPPER(TestObject, ...)                                            \
  namespace {                                                                          \
  const ::dpsynth::test::TestRegistration DPSYNTH_TEST_CONCAT(dpsynthTestRegistration, \
                                                              __COUNTER__){            \
      __FILE__, [](int argc, char* argv[]) -> int {                                    \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();             \
        __VA_ARGS__                                                                    \
        TestObject tc;                                                                 \
        QTEST_SET_MAIN_SOURCE_PATH                                                     \
        return QTest::qExec(&tc, argc, argv);                                          \
      }};                                                                              \
  }
