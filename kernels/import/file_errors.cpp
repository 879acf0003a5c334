#include "import/file_errors.h"

#include "import/input_files.h"

#include <cctype>
#include <cerrno>
#include <cstring>

namespace wb {

namespace {

ImportError wholeFile(const std::string& path, std::string message) {
    ImportError e;
    e.path = path;
    e.message = std::move(message);
    e.wholeFile = true;
    return e;
}

// "'path' " + the rest, built by appending: GCC 12 at -O3 warns falsely (-Wrestrict) on
// `"literal" + std::string`, and warnings are errors.
std::string quoted(const char* before, const std::string& path, const std::string& after) {
    std::string out(before);
    out.append("'").append(path).append("'").append(after);
    return out;
}

} // namespace

ImportError cannotOpenError(const std::string& path, int errorNumber) {
    std::string why;
    switch (errorNumber) {
    case ENOENT:
        why = "no such file";
        break;
    case EACCES:
        why = "permission denied";
        break;
    case EISDIR:
        why = "it is a folder";
        break;
    default:
        why = std::strerror(errorNumber);
        if (!why.empty())
            why[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(why[0])));
    }
    return wholeFile(path, quoted("cannot open ", path, ": ").append(why));
}

ImportError emptyFileError(const std::string& path, bool gzipped) {
    if (gzipped)
        return wholeFile(path,
                         quoted("", path, " is an empty gzip file: it decompresses to nothing"));
    if (hasGzipSuffix(path))
        return wholeFile(path, quoted("", path, " is empty (0 bytes, not even a gzip header)"));
    return wholeFile(path, quoted("", path, " is empty (0 bytes)"));
}

ImportError noProfilerFilesError(const std::string& folder) {
    return wholeFile(folder, quoted("no profiler files in ", folder, ""));
}

} // namespace wb
