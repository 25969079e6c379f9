#pragma once
/// Several Qt Test classes in one executable: each test file still ends with QTEST_MAIN,
/// QTEST_GUILESS_MAIN or QTEST_APPLESS_MAIN, and test_main.h turns that line into a registration
/// under the file's name ("prior_test"). The executable's main() runs the one named by its first
/// argument, so CTest still starts one process per test file: `core_models_tests prior_test`.
/// One executable per test folder instead of one per file links and compiles far less.

namespace dpsynth::test {

using TestEntry = int (*)(int argc, char* argv[]);

struct TestRegistration {
  /// `file` is the test's __FILE__; it is registered under its name without folder and ".cpp".
  TestRegistration(const char* file, TestEntry entry);
};

}  // namespace dpsynth::test
