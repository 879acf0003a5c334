#pragma once
// Shared by the log-importer tests: where the bundled real files live (tests/data/import, see
// tests/data/README.md), and parsing a file or a byte string with one importer.
#include "import/byte_source.h"
#include "import/importer.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace wbtest {

inline std::string bundledFile(const std::string& name) {
    return std::string(WB_TEST_DATA) + "/import/" + name;
}

inline std::string slurp(const std::string& path) {
    auto opened = wb::ByteSource::open(path);
    auto* src = std::get_if<std::unique_ptr<wb::ByteSource>>(&opened);
    if (!src || !*src)
        return {};
    auto all = (*src)->readAll();
    auto* bytes = std::get_if<std::string>(&all);
    return bytes ? *bytes : std::string();
}

using Parsed = std::variant<std::unique_ptr<wb::ImportResult>, wb::ImportError>;

inline Parsed parseFile(const wb::Importer& imp, const std::string& path) {
    auto opened = wb::ByteSource::open(path);
    if (auto* e = std::get_if<wb::ImportError>(&opened))
        return *e;
    auto* src = std::get_if<std::unique_ptr<wb::ByteSource>>(&opened);
    if (!src || !*src)
        return wb::ImportError{"could not open", 0, 0, path};
    wb::ImportControl control;
    return imp.parse(**src, control);
}

inline Parsed parseBytes(const wb::Importer& imp, std::string bytes) {
    auto src = wb::ByteSource::fromMemory(std::move(bytes), "memory");
    if (!src)
        return wb::ImportError{"no source", 0, 0, "memory"};
    wb::ImportControl control;
    return imp.parse(*src, control);
}

template <class T> const T* as(const Parsed& p) {
    if (!std::holds_alternative<std::unique_ptr<wb::ImportResult>>(p))
        return nullptr;
    return dynamic_cast<const T*>(std::get<std::unique_ptr<wb::ImportResult>>(p).get());
}

// A temporary result would die at the end of the statement and leave the pointer dangling.
template <class T> const T* as(const Parsed&&) = delete;

inline std::string errorText(const Parsed& p) {
    if (const auto* e = std::get_if<wb::ImportError>(&p))
        return e->describe();
    return {};
}

} // namespace wbtest
