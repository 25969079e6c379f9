#include "support/test_registry.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace dpsynth::test {
namespace {

std::map<std::string, TestEntry>& registry() {
  static std::map<std::string, TestEntry> tests;
  return tests;
}

std::string testName(const char* file) {
  std::string name(file);
  if (const auto slash = name.find_last_of("/\\"); slash != std::string::npos)
    name.erase(0, slash + 1);
  if (const auto dot = name.rfind('.'); dot != std::string::npos) name.erase(dot);
  return name;
}

void listTests(std::FILE* out) {
  for (const auto& [name, entry] : registry()) std::fprintf(out, "  %s\n", name.c_str());
}

}  // namespace

TestRegistration::TestRegistration(const char* file, TestEntry entry) {
  const std::string name = testName(file);
  if (!registry().emplace(name, entry).second) {
    std::fprintf(stderr, "two test files are named %s in one test executable\n", name.c_str());
    std::abort();
  }
}

}  // namespace dpsynth::test

int main(int argc, char* argv[]) {
  using namespace dpsynth::test;
  if (argc < 2 || std::strcmp(argv[1], "--list") == 0 || argv[1][0] == '-') {
    std::fprintf(argc < 2 || argv[1][0] == '-' ? stderr : stdout,
                 "usage: %s TEST [Qt Test options]\ntests:\n", argv[0]);
    listTests(argc >= 2 && std::strcmp(argv[1], "--list") == 0 ? stdout : stderr);
    return argc >= 2 && std::strcmp(argv[1], "--list") == 0 ? 0 : 2;
  }
  const auto found = registry().find(argv[1]);
  if (found == registry().end()) {
    std::fprintf(stderr, "no test named %s; tests:\n", argv[1]);
    listTests(stderr);
    return 2;
  }
  // The test sees its own arguments only: the program name, then what followed its name.
  std::vector<char*> args{argv[0]};
  args.insert(args.end(), argv + 2, argv + argc);
  args.push_back(nullptr);
  return found->second(static_cast<int>(args.size()) - 1, args.data());
}
