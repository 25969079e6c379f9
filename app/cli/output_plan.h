#pragma once
/// Every path a command will write, checked before any work: reading a large input, sampling or
/// a benchmark never runs only to end in a refused write, and no command writes over what it
/// reads or deletes what it did not write. Each command lists its inputs and outputs here and
/// calls check() first:
///
///   OutputPlan plan;
///   plan.input(o.release);
///   plan.folder("--out", o.out, {"draws.csv", "summary.json", "trace.csv"});
///   plan.check();  // std::invalid_argument (exit 2), one line, before anything is written
///
/// Files are compared by device and inode, not by spelling: "./x", a symbolic link to x and a
/// hard link of x are all x.
#include <string>
#include <vector>

namespace dpsynth::cli {

class OutputPlan {
 public:
  /// A file the command reads (an empty path is ignored). No output may be it, and no folder the
  /// command replaces as a whole may hold it.
  void input(const std::string& path);
  /// A file the command writes, replacing the file there (an empty path is ignored). `option`
  /// names it in messages ("--report"). Its folder must exist and be writable, and a file there
  /// must not be read-only (the user's statement that it must not change; so for folder()'s
  /// names too).
  void file(const std::string& option, const std::string& path);
  /// A folder the command writes the files `names` into, replacing them; created with its
  /// parents when missing, so the nearest existing one must be a writable folder.
  void folder(const std::string& option, const std::string& path,
              const std::vector<std::string>& names);
  /// Subfolders of `folder` that the command replaces as a whole (run's release/ and
  /// internal/). No input may lie in them, and unless `replaceForeign` (run --replace) they may
  /// hold only files dpsynth wrote there (core/report/ownership_manifest.h).
  void replacedSubfolders(const std::string& option, const std::string& folder,
                          const std::vector<std::string>& subfolders, bool replaceForeign);

  /// Files of `names` in `folder` (one of folder()'s) that the command may replace only when
  /// dpsynth wrote them there (core/report/ownership_manifest.h: foreignFiles): a folder it
  /// shares with the user's own files (infer --out, study --out). Unless `replaceForeign` (the
  /// command's --replace), a file of those names that the folder's manifest does not record as
  /// written is refused.
  void ownedFiles(const std::string& option, const std::string& folder,
                  const std::vector<std::string>& names, bool replaceForeign);

  /// Throws std::invalid_argument naming the option, the path and what to do, for the first
  /// problem found; returns when every output can be written without harm.
  void check() const;

 private:
  struct Output {
    std::string option, path;
    std::string shown;      ///< how messages name it: "--report r.json", "--out post: trace.csv"
    bool inFolder = false;  ///< one of folder()'s names (its folder may not exist yet)
  };
  struct Folder {
    std::string option, path;
  };
  struct Replaced {
    std::string option, folder;
    std::vector<std::string> subfolders;
    bool replaceForeign = false;
  };
  void checkFile(const Output& out) const;
  void checkFolder(const Folder& folder) const;
  void checkReplaced(const Replaced& replaced) const;
  void checkOwned(const Replaced& owned) const;

  std::vector<std::string> inputs_;
  std::vector<Output> files_;
  std::vector<Folder> folders_;
  std::vector<Replaced> replaced_;
  std::vector<Replaced> owned_;  ///< ownedFiles(): the names in `subfolders`
};

}  // namespace dpsynth::cli
