#pragma once
// What ties a file to one machine rather than to the repository: the sibling folder a
// developer's checkout has beside it (a user's clone has none), and absolute paths into
// places that hold someone's files (home folders, /tmp, mounts, workspaces). System paths
// (/usr, /dev, /proc, /sys, /etc) are fine: they name the toolchain and the kernel, not data.
#include <string>
#include <vector>

namespace wbtest {

struct RepositoryFinding {
    int line = 0;
    std::string what;
};

// The sibling folder's name as text; built from parts so that this file passes its own scan.
std::string siblingFolderText();

// Every finding in `text`; `checkPaths` false checks only for the sibling folder (data files
// quote real logs, whose paths are their authors' machines').
std::vector<RepositoryFinding> scanRepositoryText(const std::string& text, bool checkPaths);

} // namespace wbtest
