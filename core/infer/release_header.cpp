#include "core/infer/release_header.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dpsynth::core::infer {

void writeReleaseHeader(nlohmann::ordered_json& j, const ReleaseHeader& header) {
  j["version"] = 1;
  j["kind"] = header.kind;
  j["mechanism"] = header.mechanism;
  j["epsilon"] = header.epsilon;
  j["neighbours"] = privacy::neighboursName(header.neighbours);
  j["n"] = header.n;
}

void writeReleaseMark(nlohmann::ordered_json& j, const ReleaseHeader& header) {
  if (header.notForRelease) j["not_for_release"] = true;
}

ReleaseHeader readReleaseHeader(const io::JsonReader& r, const ReleaseHeaderRules& rules) {
  checkReleaseHeader(r, rules.kind);
  ReleaseHeader h;
  h.kind = rules.kind;
  // A kind without a fixed mechanism name (ph) reads it when the file has one.
  if (!rules.mechanisms.empty() || r.has("mechanism")) h.mechanism = r.string("mechanism");
  if (!rules.mechanisms.empty() && std::find(rules.mechanisms.begin(), rules.mechanisms.end(),
                                             h.mechanism) == rules.mechanisms.end())
    r.fail("mechanism", "is unknown for a " + rules.kind + " release (expected \"" +
                            rules.mechanisms.front() + "\")");
  try {
    h.neighbours = privacy::parseNeighbours(r.string("neighbours"));
  } catch (const std::invalid_argument& e) {
    r.fail("neighbours", e.what());
  }
  if (!rules.addRemove && h.neighbours != privacy::Neighbours::replaceOne)
    r.fail("neighbours",
           "must be \"replace-one\": " + rules.kind + " releases are defined for it only");
  h.epsilon = r.number("epsilon");
  if (!(h.epsilon > 0.0) || !std::isfinite(h.epsilon)) r.fail("epsilon", "must be positive");
  h.n = r.integer<int>("n", 1, kMaxReleaseRecords);
  h.notForRelease = r.boolean("not_for_release", false);
  return h;
}

}  // namespace dpsynth::core::infer
