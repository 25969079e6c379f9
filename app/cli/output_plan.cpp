#include "app/cli/output_plan.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "core/data/output_path.h"
#include "core/data/quote_value.h"
#include "core/report/ownership_manifest.h"

namespace dpsynth::cli {
namespace {

namespace fs = std::filesystem;

struct FileId {
  dev_t dev;
  ino_t ino;
  bool operator==(const FileId&) const = default;
};

/// The file a path names, after every symbolic link (nullopt when there is none).
std::optional<FileId> idOf(const fs::path& path) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileId{st.st_dev, st.st_ino};
}

bool sameFile(const fs::path& a, const fs::path& b) {
  const auto x = idOf(a), y = idOf(b);
  return x && y && *x == *y;
}

/// Why nothing can be written into `folder` (empty when something can). The permission bits
/// answer for most users, but root passes them: so a file is created there and removed again,
/// which also finds a read-only file system, /proc and /sys.
std::string writeProblem(const fs::path& folder) {
  if (::access(folder.c_str(), W_OK | X_OK) != 0) return std::strerror(errno);
  std::string probe = (folder / ".dpsynth-probe-XXXXXX").string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) return std::strerror(errno);
  ::close(fd);
  ::unlink(probe.c_str());
  return {};
}

/// "is a loop of symbolic links" when resolving `path` meets one (a path through it cannot be
/// created or read), empty otherwise.
std::string loopProblem(const fs::path& path) {
  std::error_code ec;
  (void)fs::status(path, ec);
  return ec == std::errc::too_many_symbolic_link_levels ? " is a loop of symbolic links" : "";
}

/// True when `file` lies somewhere below `folder` (compared by device and inode, so links and
/// spellings do not hide it).
bool liesIn(const std::string& file, const fs::path& folder) {
  const auto target = idOf(folder);
  if (!target) return false;
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(file, ec), ec);
  if (ec) return false;
  for (p = p.parent_path(); !p.empty(); p = p.parent_path()) {
    if (idOf(p) == target) return true;
    if (p == p.root_path()) break;
  }
  return false;
}

/// The path as the system will resolve it when the output is written (the writers resolve it
/// the same way): every check below looks at that file, never at another spelling of it.
fs::path resolvedOrRefused(const std::string& who, const std::string& path) {
  try {
    return core::data::resolvedOutputPath(path);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(who + ": " + e.what());
  }
}

/// " is read-only" when `path` is an existing file that the user may not write, or that nobody
/// may (root passes the permission check, not the statement of a mode without write bits);
/// empty otherwise. Replacing it by a rename would succeed: the folder decides that, not the
/// file.
std::string readOnlyProblem(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
  if ((st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 || ::access(path.c_str(), W_OK) != 0)
    return " is read-only";
  return {};
}

/// "a, b, c and 4 more": a short list for a one-line message.
std::string someOf(const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 4;
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < kShown; ++i)
    out += (i ? ", " : "") + core::data::quoteForMessage(names[i], 40);
  if (names.size() > kShown) out += " and " + std::to_string(names.size() - kShown) + " more";
  return out;
}

}  // namespace

void OutputPlan::input(const std::string& path) {
  if (!path.empty()) inputs_.push_back(path);
}

void OutputPlan::file(const std::string& option, const std::string& path) {
  if (!path.empty()) files_.push_back({option, path, option + " " + path});
}

void OutputPlan::folder(const std::string& option, const std::string& path,
                        const std::vector<std::string>& names) {
  folders_.push_back({option, path});
  for (const auto& name : names)
    files_.push_back(
        {option, (fs::path(path) / name).string(), option + " " + path + ": " + name, true});
}

void OutputPlan::replacedSubfolders(const std::string& option, const std::string& folder,
                                    const std::vector<std::string>& subfolders,
                                    bool replaceForeign) {
  replaced_.push_back({option, folder, subfolders, replaceForeign});
}

void OutputPlan::ownedFiles(const std::string& option, const std::string& folder,
                            const std::vector<std::string>& names, bool replaceForeign) {
  owned_.push_back({option, folder, names, replaceForeign});
}

void OutputPlan::checkFolder(const Folder& f) const {
  const std::string who = f.option + " " + f.path;
  if (f.path.empty()) throw std::invalid_argument(f.option + ": give a folder");
  std::error_code ec;
  if (const std::string loop = loopProblem(f.path); !loop.empty())
    throw std::invalid_argument(who + loop + "; give a folder");
  const fs::path resolved = resolvedOrRefused(who, f.path);
  const auto status = fs::status(resolved, ec);
  if (fs::exists(status)) {
    if (!fs::is_directory(status))
      throw std::invalid_argument(who + " exists and is not a folder; give a folder");
    if (const std::string problem = writeProblem(resolved); !problem.empty())
      throw std::invalid_argument(who + ": the folder is not writable (" + problem +
                                  "); choose another place");
    return;
  }
  if (fs::is_symlink(fs::symlink_status(f.path, ec)))
    throw std::invalid_argument(who + " is a symbolic link to nothing; remove it or give a folder");
  // Created with its parents: the nearest existing ancestor decides whether that can work.
  fs::path ancestor = resolved;
  while (ancestor.has_parent_path() && ancestor != ancestor.root_path() &&
         !fs::exists(fs::symlink_status(ancestor, ec)))
    ancestor = ancestor.parent_path();
  if (!fs::is_directory(ancestor, ec))
    throw std::invalid_argument(who + ": cannot create it, " + ancestor.string() +
                                " is not a folder");
  if (const std::string problem = writeProblem(ancestor); !problem.empty())
    throw std::invalid_argument(who + ": cannot create it, the folder " + ancestor.string() +
                                " is not writable (" + problem + "); choose another place");
}

void OutputPlan::checkFile(const Output& out) const {
  const std::string& who = out.shown;
  std::error_code ec;
  if (out.path.back() == '/')
    throw std::invalid_argument(who + ": names a folder; give a file name");
  if (const std::string loop = loopProblem(out.path); !loop.empty())
    throw std::invalid_argument(who + loop + "; remove it or give another file");
  const fs::path resolved = resolvedOrRefused(who, out.path);
  if (fs::is_directory(resolved, ec))
    throw std::invalid_argument(who + " is a folder; give a file name inside it");
  if (const std::string problem = core::data::unreplaceableProblem(resolved); !problem.empty())
    throw std::invalid_argument(who + " " + problem + "; give the path of a regular file");
  if (const std::string problem = readOnlyProblem(resolved); !problem.empty())
    throw std::invalid_argument(who + problem +
                                ", and a read-only file is never replaced: make it writable if "
                                "it may change, or choose another path");
  const fs::path parent = resolved.parent_path();
  if (const std::string loop = loopProblem(parent); !loop.empty())
    throw std::invalid_argument(who + ": the folder " + parent.string() + loop);
  if (!fs::is_directory(parent, ec))
    throw std::invalid_argument(who + ": the folder " + parent.string() +
                                " does not exist; create it first");
  if (const std::string problem = writeProblem(parent); !problem.empty())
    throw std::invalid_argument(who + ": the folder " + parent.string() + " is not writable (" +
                                problem + "); choose another place");
}

void OutputPlan::checkReplaced(const Replaced& r) const {
  const std::string who = r.option + " " + r.folder;
  std::vector<std::string> foreign;
  for (const auto& sub : r.subfolders) {
    const fs::path folder = fs::path(r.folder) / sub;
    std::error_code ec;
    const auto status = fs::symlink_status(folder, ec);
    if (!fs::exists(status)) continue;
    if (fs::is_symlink(status))
      throw std::invalid_argument(who + ": " + sub +
                                  " is a symbolic link; the export replaces the folder as a "
                                  "whole and never a link: remove the link or choose another "
                                  "output folder");
    if (!fs::is_directory(status))
      throw std::invalid_argument(who + ": " + sub + " exists and is not a folder; move it away");
    // Moving a folder to another parent rewrites its "..": the folder itself must be writable.
    // A read-only internal/ passed this check and failed at the move, after all the sampling.
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
      throw std::invalid_argument(who + ": " + sub + "/ cannot be replaced (" +
                                  std::strerror(errno) + "); make it writable (chmod u+w " +
                                  folder.string() + ") or choose another output folder");
    for (const auto& in : inputs_)
      if (liesIn(in, folder))
        throw std::invalid_argument(who + ": " + sub +
                                    "/ is replaced as a whole and holds the "
                                    "input file " +
                                    in + "; choose another output folder");
    for (const auto& name : core::report::foreignEntries(folder.string()))
      foreign.push_back(sub + "/" + name);
  }
  if (!foreign.empty() && !r.replaceForeign)
    throw std::invalid_argument(who + ": " + std::to_string(foreign.size()) +
                                " file(s) that dpsynth did not write (" + someOf(foreign) +
                                ") would be deleted, because the export replaces its folders as a "
                                "whole; move them away, or pass --replace to delete them");
}

void OutputPlan::checkOwned(const Replaced& owned) const {
  if (owned.replaceForeign) return;
  const std::vector<std::string> foreign =
      core::report::foreignFiles(resolvedOrRefused(owned.option, owned.folder), owned.subfolders);
  if (foreign.empty()) return;
  throw std::invalid_argument(owned.option + " " + owned.folder + ": " + someOf(foreign) +
                              (foreign.size() == 1 ? " is a file" : " are files") +
                              " that dpsynth did not write there (not recorded as written in " +
                              core::report::kManifestName + ") and would be replaced; move " +
                              (foreign.size() == 1 ? "it" : "them") +
                              " away, choose another folder, or pass --replace to replace " +
                              (foreign.size() == 1 ? "it" : "them"));
}

void OutputPlan::check() const {
  for (const auto& f : folders_) checkFolder(f);
  for (const auto& out : files_) {
    if (out.inFolder) {
      const fs::path resolved = resolvedOrRefused(out.shown, out.path);
      std::error_code ec;
      if (fs::is_directory(resolved, ec))
        throw std::invalid_argument(out.shown + " is a folder there; move it away");
      if (const std::string problem = core::data::unreplaceableProblem(resolved); !problem.empty())
        throw std::invalid_argument(out.shown + " " + problem + "; move it away");
      if (const std::string problem = readOnlyProblem(resolved); !problem.empty())
        throw std::invalid_argument(out.shown + problem +
                                    ", and a read-only file is never replaced: make it writable "
                                    "if it may change, or choose another folder");
    } else {
      checkFile(out);
    }
  }
  // No two outputs may be one file, and no output may be an input.
  // Each output resolved once: a bundle of m datasets compares m² pairs.
  std::vector<fs::path> resolved;
  for (const Output& out : files_) resolved.push_back(resolvedOrRefused(out.shown, out.path));
  for (std::size_t i = 0; i < files_.size(); ++i) {
    const Output& out = files_[i];
    for (std::size_t j = 0; j < i; ++j) {
      if (resolved[j] == resolved[i] || sameFile(resolved[i], resolved[j]))
        throw std::invalid_argument(out.shown + " is also written as " + files_[j].shown +
                                    ": give each output its own file");
    }
    for (const auto& in : inputs_)
      if (sameFile(resolved[i], in))
        throw std::invalid_argument(out.shown + " is the input file " + in +
                                    ": refusing to overwrite an input; choose another path");
  }
  for (const auto& r : replaced_) checkReplaced(r);
  for (const auto& o : owned_) checkOwned(o);
}

}  // namespace dpsynth::cli
