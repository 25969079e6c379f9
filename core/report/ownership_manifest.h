#pragma once
/// Which files of an export's folders dpsynth wrote. exportRun replaces release/ and internal/
/// as a whole, so whatever else lies in them would be deleted by the next export without a
/// word. Each folder therefore carries a manifest, ".dpsynth-manifest.json", with the name and
/// SHA-256 of every file dpsynth put there; a later export can tell those (still as written)
/// from anything the user added or edited, and refuse instead of deleting it. The manifest holds
/// only names and digests of the folder's own files, so release/'s stays publishable.
#include <string>
#include <vector>

namespace dpsynth::core::report {

inline constexpr const char* kManifestName = ".dpsynth-manifest.json";
inline constexpr const char* kManifestKind = "dpsynth-manifest";
inline constexpr int kManifestVersion = 1;

/// Writes folder/.dpsynth-manifest.json naming every regular file directly in `folder` (other
/// than the manifest) with its SHA-256. Throws std::runtime_error when `folder` holds anything
/// but regular files, or a file cannot be read or the manifest written.
void writeOwnershipManifest(const std::string& folder);

/// The entries of `folder` that dpsynth cannot show it wrote, by name ("notes.txt", "old/" for a
/// folder), sorted: entries its manifest does not list, listed files whose SHA-256 differs from
/// the recorded one, anything that is not a regular file, and every entry when the manifest is
/// missing or is not one dpsynth wrote (the manifest included). Empty when `folder` is missing.
std::vector<std::string> foreignEntries(const std::string& folder);

}  // namespace dpsynth::core::report
