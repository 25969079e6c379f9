#pragma once
/// The one place in core that says whether a failure is the user's to fix or a fault of the
/// tool. Every front end maps Kind::badInput to "tell the user what to change" (the CLI's exit 2,
/// the studio's error dialog) and Kind::internal to "this is a bug" (exit 1). Errors about files
/// and settings (DataError, SessionError, and the config and release errors to come) derive
/// from it; std::invalid_argument from a validate() is bad input too (see classify()).
#include <exception>
#include <filesystem>
#include <new>
#include <stdexcept>
#include <string>

namespace dpsynth::core {

class Error : public std::runtime_error {
 public:
  enum class Kind { badInput, internal };
  Error(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

/// The kind of any exception: core::Error says its own; std::invalid_argument (a refused
/// setting or size) is bad input, and so are std::bad_alloc and std::length_error (sizes are
/// bounded before work, so what still does not fit is the user's size against this machine's
/// memory) and std::filesystem::filesystem_error (the user's folders: a loop of symbolic links,
/// no permission, a full disk); anything else is internal.
inline Error::Kind classify(const std::exception& e) {
  if (const auto* error = dynamic_cast<const Error*>(&e)) return error->kind();
  if (dynamic_cast<const std::invalid_argument*>(&e)) return Error::Kind::badInput;
  if (dynamic_cast<const std::bad_alloc*>(&e)) return Error::Kind::badInput;
  if (dynamic_cast<const std::length_error*>(&e)) return Error::Kind::badInput;
  if (dynamic_cast<const std::filesystem::filesystem_error*>(&e)) return Error::Kind::badInput;
  return Error::Kind::internal;
}

}  // namespace dpsynth::core
