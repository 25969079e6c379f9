#pragma once
/// SHA-256 (FIPS 180-4): notices that a session's data file changed since it was saved, and that
/// a file dpsynth wrote (a synthetic dataset, an export) is still the one it wrote.
/// A small self-contained implementation: core links no crypto library, and this digest guards
/// against accidental change, not against an attacker.
#include <array>
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

namespace dpsynth::core::data {

/// Incremental hasher: update() any number of times, then hexDigest() once.
class Sha256 {
 public:
  Sha256();
  void update(std::string_view bytes);
  /// Lower-case hexadecimal digest (64 characters). Finalises: call once.
  std::string hexDigest();

 private:
  void compress(const std::uint8_t* block);

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t totalBytes_ = 0;
};

/// Digest of a byte string.
std::string sha256Hex(std::string_view bytes);
/// The same in 1 MiB steps that honour `stop` (a 2 GiB file takes seconds): nullopt when a stop
/// was requested.
std::optional<std::string> sha256Hex(std::string_view bytes, const std::stop_token& stop);
/// Digest of a file's bytes, read in chunks. Throws std::runtime_error naming the file when it
/// cannot be read.
std::string sha256File(const std::string& path);

}  // namespace dpsynth::core::data
