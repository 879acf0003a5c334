#include "import/input_files.h"

#include "import/file_errors.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <filesystem>
#include <system_error>

namespace wb {

namespace {

constexpr std::array<const char*, 5> kExtensions = {".json", ".csv", ".log", ".txt", ".out"};

bool endsWithIgnoringCase(const std::string& name, const std::string& suffix) {
    if (name.size() < suffix.size())
        return false;
    return std::equal(suffix.begin(), suffix.end(), name.end() - static_cast<long>(suffix.size()),
                      [](char a, char b) {
                          return std::tolower(static_cast<unsigned char>(a)) ==
                                 std::tolower(static_cast<unsigned char>(b));
                      });
}

// The profiler files directly inside `folder`, sorted by name.
std::vector<std::string> profilerFilesIn(const std::filesystem::path& folder, std::error_code& ec) {
    std::vector<std::string> names;
    for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end;
         it.increment(ec)) {
        std::error_code typeError;
        if (it->is_regular_file(typeError) && isProfilerFileName(it->path().filename().string()))
            names.push_back(it->path().filename().string());
    }
    std::sort(names.begin(), names.end());
    std::vector<std::string> files;
    for (const auto& n : names)
        files.push_back((folder / n).string());
    return files;
}

} // namespace

bool hasGzipSuffix(const std::string& name) {
    return endsWithIgnoringCase(name, ".gz");
}

bool isProfilerFileName(const std::string& name) {
    const std::string plain = hasGzipSuffix(name) ? name.substr(0, name.size() - 3) : name;
    if (endsWithIgnoringCase(plain, std::string(kJobSummarySuffix)))
        return false;
    return std::any_of(kExtensions.begin(), kExtensions.end(),
                       [&](const char* ext) { return endsWithIgnoringCase(plain, ext); });
}

std::vector<std::string> profilerFilePatterns() {
    std::vector<std::string> out;
    for (const char* ext : kExtensions)
        out.push_back(std::string("*") + ext);
    for (const char* ext : kExtensions)
        out.push_back(std::string("*") + ext + ".gz");
    return out;
}

InputFiles expandInputs(const std::vector<std::string>& paths) {
    InputFiles out;
    for (const auto& path : paths) {
        std::error_code ec;
        const auto status = std::filesystem::status(path, ec);
        if (!std::filesystem::is_directory(status)) {
            if (std::filesystem::exists(status))
                out.files.push_back(path);
            else // the same words as opening it would give
                out.problems.push_back(
                    cannotOpenError(path, ec && ec.value() != ENOENT ? ec.value() : ENOENT));
            continue;
        }
        const auto inside = profilerFilesIn(path, ec);
        if (ec)
            out.problems.push_back(cannotOpenError(path, ec.value()));
        else if (inside.empty())
            out.problems.push_back(noProfilerFilesError(path));
        else
            out.files.insert(out.files.end(), inside.begin(), inside.end());
    }
    return out;
}

} // namespace wb
