#pragma once
/// Which files of an export's folders dpsynth wrote. exportRun replaces release/ and internal/
/// as a whole, so whatever else lies in them would be deleted by the next export without a
/// word. Each folder therefore carries a manifest, ".dpsynth-manifest.json", with the name and
/// SHA-256 of every file dpsynth put there; a later export can tell those (still as written)
/// from anything the user added or edited, and refuse instead of deleting it. The manifest holds
/// only names and digests of the folder's own files, so release/'s stays publishable.
#include <map>
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

/// Folders a command shares with the user's own files (infer --out, study --out) are never
/// replaced whole: the command writes a few files of fixed names there, and the same manifest
/// records just those, so that a later command replaces its own earlier outputs and refuses to
/// replace a file of those names that the user put there.
///
/// Of the files `names` (plain names) that a command writes into `folder`: those there that
/// dpsynth cannot show it wrote (not recorded by the manifest with their SHA-256, or not a
/// regular file), in the order given; then the manifest itself when it is there but is not one
/// dpsynth wrote (it would be replaced). Empty when `folder` is missing.
std::vector<std::string> foreignFiles(const std::string& folder,
                                      const std::vector<std::string>& names);

/// The text of folder's manifest once the files `digests` (name → SHA-256) are written there:
/// those are recorded, and what the manifest recorded of other files still present is kept (two
/// commands' outputs may share a folder). Reads the folder, writes nothing.
std::string manifestRecording(const std::string& folder,
                              const std::map<std::string, std::string>& digests);

/// Records the files `names` of `folder`, as they are now, in its manifest (manifestRecording),
/// written atomically. Throws data::WriteError when it cannot be written, std::runtime_error
/// when a file cannot be read.
void recordOwnedFiles(const std::string& folder, const std::vector<std::string>& names);

}  // namespace dpsynth::core::report
