/// libFuzzer harness: session JSON → fromJson. A session file is user input: every problem must
/// be a SessionError (exit 2 in the command line), never another exception (exit 1) or a crash;
/// a session that loads is written by toJson and loads again to the same text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/session/session.h"

namespace session = dpsynth::core::session;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(bytes), size);
  session::Session loaded;
  try {
    loaded = session::fromJson(text, "fuzz.dpsynth");
  } catch (const session::SessionError&) {
    return 0;
  }
  const std::string written = session::toJson(loaded);
  try {
    if (session::toJson(session::fromJson(written, "written.dpsynth")) != written) std::abort();
  } catch (const session::SessionError&) {
    std::abort();  // what toJson writes, fromJson must read
  }
  return 0;
}
