#pragma once
/// A release file of any kind (README "Release files"): the readers dispatch on "kind".
#include <string>
#include <variant>

#include "core/infer/linreg_release.h"
#include "core/infer/release_file.h"

namespace dpsynth::core::infer {

using AnyRelease = std::variant<NaiveBayesRelease, LinregRelease>;

/// Reads a release file's text of any kind ("naive-bayes", "linreg"); `file` names it in
/// messages. Throws std::invalid_argument with one line, as the per-kind readers do.
inline std::string releaseKind(const NaiveBayesRelease&) { return "naive-bayes"; }
inline std::string releaseKind(const LinregRelease&) { return "linreg"; }

AnyRelease anyReleaseFromJson(const std::string& text, const std::string& file);

}  // namespace dpsynth::core::infer
