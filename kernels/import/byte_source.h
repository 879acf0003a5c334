#pragma once
// Reads an input file in chunks, gunzipping transparently when it starts with the gzip magic
// (1f 8b), so every importer sees plain bytes and can report progress and byte offsets.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace wb {

struct ImportError {
    std::string message;          // what was expected and what was found
    std::uint64_t byteOffset = 0; // in the decompressed stream
    std::uint64_t line = 0;       // 1-based, 0 = not line-oriented
    std::string path;
    // About the file as a whole (it cannot be opened, it is empty; file_errors.h): the
    // message names the file and there is no position to give.
    bool wholeFile = false;
    // "path: line L (byte N): message" — what the CLI prints; for a wholeFile error the
    // message alone.
    std::string describe() const;
};

class ByteSource {
public:
    // Opens `path`; nullopt-free: errors come back as ImportError.
    static std::variant<std::unique_ptr<ByteSource>, ImportError> open(const std::string& path);
    // Wraps bytes already in memory (tests, fuzzers).
    static std::unique_ptr<ByteSource> fromMemory(std::string bytes, std::string name = "memory");
    virtual ~ByteSource() = default;

    // Up to `max` next bytes; empty at the end. An ImportError for I/O or gzip corruption
    // (a truncated .gz is an error, not a shorter file).
    virtual std::variant<std::string_view, ImportError> read(std::size_t max) = 0;
    // The first bytes (decompressed) without consuming them, for probing formats.
    virtual std::string_view head(std::size_t max) = 0;
    // Reads everything that is left (small formats).
    std::variant<std::string, ImportError> readAll();

    virtual std::uint64_t compressedSize() const = 0; // file size on disk, for progress
    virtual std::uint64_t compressedRead() const = 0; // consumed so far
    virtual bool gzipped() const = 0;
    const std::string& path() const { return m_path; }

protected:
    std::string m_path;
};

} // namespace wb
