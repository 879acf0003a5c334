#include "repository_scan.h"

#include <array>
#include <regex>
#include <sstream>
#include <string_view>

namespace wbtest {
namespace {

// First path components that hold people's or machines' files rather than the system's.
constexpr std::array<std::string_view, 20> kPrivateRoots = {
    "home", "root",   "tmp",     "mnt",   "media",   "srv",     "opt", "var",  "run",  "work",
    "data", "shared", "scratch", "Users", "Volumes", "private", "nix", "snap", "gpfs", "lustre"};

bool isPrivateRoot(const std::string& component) {
    for (const auto root : kPrivateRoots)
        if (component == root)
            return true;
    return false;
}

} // namespace

std::string siblingFolderText() {
    std::string text = "..";
    text.append("/").append("shared");
    return text;
}

std::vector<RepositoryFinding> scanRepositoryText(const std::string& text, bool checkPaths) {
    // A path starts where a token starts (line start, space, quote, operator) — so "${X}/a",
    // "dir/a", "../a" and URLs are never read as absolute paths — and has two components.
    static const std::regex absolute(R"((?:^|[\s"'=(\[,<>|;`])/([A-Za-z][\w.+-]*)/[\w.+@-])");
    const std::string sibling = siblingFolderText();
    std::vector<RepositoryFinding> out;
    std::istringstream lines(text);
    std::string line;
    for (int number = 1; std::getline(lines, line); ++number) {
        if (line.find(sibling) != std::string::npos)
            out.push_back({number, "names the folder beside the checkout: " + line});
        if (!checkPaths)
            continue;
        for (auto it = std::sregex_iterator(line.begin(), line.end(), absolute);
             it != std::sregex_iterator(); ++it) {
            if (isPrivateRoot((*it)[1].str()))
                out.push_back({number, "absolute path outside the repository: " + line});
        }
    }
    return out;
}

} // namespace wbtest
