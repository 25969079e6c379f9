#pragma once
/// A release file of any kind (README "Release files"), read by its "kind": the common type of
/// `dpsynth infer` and the studio. Add a kind by adding its struct to the variant, a
/// releaseKind overload and a branch to readAnyRelease.
#include <string>
#include <variant>

#include "core/infer/linreg_release.h"
#include "core/infer/ph_release.h"
#include "core/infer/release_file.h"

namespace dpsynth::core::infer {

using AnyRelease = std::variant<NaiveBayesRelease, LinregRelease, PhReleaseFile>;

inline std::string releaseKind(const NaiveBayesRelease&) { return "naive-bayes"; }
inline std::string releaseKind(const LinregRelease&) { return "linreg"; }
inline std::string releaseKind(const PhReleaseFile&) { return "ph"; }

/// The release file's "kind" ("naive-bayes", "linreg", "ph"); throws std::invalid_argument
/// naming `file` when the text is not a JSON object with a string "kind".
std::string releaseKind(const std::string& text, const std::string& file);
/// Parses a release file of any known kind (version 1 checked first); throws
/// std::invalid_argument with one line naming `file` and the problem (an unknown kind included).
AnyRelease readAnyRelease(const std::string& text, const std::string& file);

}  // namespace dpsynth::core::infer
