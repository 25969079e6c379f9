#include "core/infer/any_release.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/infer/release_reader.h"

namespace dpsynth::core::infer {

std::string releaseKind(const std::string& text, const std::string& file) {
  return releaseReader(parseReleaseJson(text, file), file).string("kind");
}

AnyRelease readAnyRelease(const std::string& text, const std::string& file) {
  const nlohmann::json j = parseReleaseJson(text, file);
  const io::JsonReader r = releaseReader(j, file);
  checkReleaseVersion(r);
  const std::string kind = r.string("kind");
  if (kind == "ph") return phReleaseFromJson(text, file);
  if (kind == "linreg") return linregReleaseFromJson(text, file);
  if (kind == "naive-bayes") return releaseFromJson(text, file);
  r.fail("kind", "'" + kind + "' is not a release kind dpsynth reads (naive-bayes, linreg, ph)");
}

}  // namespace dpsynth::core::infer
