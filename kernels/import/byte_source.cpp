#include "import/byte_source.h"

#include "import/file_errors.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>
#if WB_HAVE_ZLIB
#include <zlib.h>
#endif

namespace wb {

std::string ImportError::describe() const {
    if (wholeFile)
        return message;
    std::string out = path.empty() ? std::string("input") : path;
    out += ": ";
    if (line > 0)
        out += "line " + std::to_string(line) + " (byte " + std::to_string(byteOffset) + "): ";
    else
        out += "byte " + std::to_string(byteOffset) + ": ";
    return out + message;
}

std::variant<std::string, ImportError> ByteSource::readAll() {
    std::string out;
    for (;;) {
        auto chunk = read(1 << 20);
        if (auto* err = std::get_if<ImportError>(&chunk))
            return *err;
        const auto bytes = std::get<std::string_view>(chunk);
        if (bytes.empty())
            return out;
        out.append(bytes);
    }
}

namespace {

constexpr std::size_t kChunk = 1 << 20;

// Plain and gzip files through one reader: raw bytes come from the file in chunks; when
// the file is gzip they go through an inflate stream (multi-member files included).
class FileSource final : public ByteSource {
public:
    FileSource(std::FILE* file, std::string path, std::uint64_t size)
        : m_file(file)
        , m_size(size)
        , m_raw(kChunk)
        , m_out(kChunk) {
        m_path = std::move(path);
    }
    ~FileSource() override {
#if WB_HAVE_ZLIB
        if (m_inflating)
            inflateEnd(&m_zs);
#endif
        std::fclose(m_file);
    }
    FileSource(const FileSource&) = delete;
    FileSource& operator=(const FileSource&) = delete;

    std::optional<ImportError> init() {
        unsigned char magic[2] = {0, 0};
        const std::size_t n = std::fread(magic, 1, 2, m_file);
        std::rewind(m_file);
        m_gzip = n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
        if (m_gzip) {
#if WB_HAVE_ZLIB
            std::memset(&m_zs, 0, sizeof m_zs);
            if (inflateInit2(&m_zs, 15 + 32) != Z_OK) // 32: detect the gzip header
                return error("cannot start gzip decompression");
            m_inflating = true;
#else
            // Builds without zlib (the Qt-free GPU-machine build) still read plain files.
            return error("this is a gzip file and this build has no zlib: gunzip it first");
#endif
        }
        return std::nullopt;
    }

    std::variant<std::string_view, ImportError> read(std::size_t max) override {
        if (!m_pending.empty()) {
            const std::size_t n = std::min(max, m_pending.size() - m_pendingPos);
            std::string_view out(m_pending.data() + m_pendingPos, n);
            m_pendingPos += n;
            m_offset += n;
            if (m_pendingPos == m_pending.size()) {
                m_keep.swap(m_pending); // keep the returned bytes alive until the next call
                m_pending.clear();
                m_pendingPos = 0;
                return std::string_view(m_keep.data() + (m_keep.size() - n), n);
            }
            return out;
        }
        auto next = produce(std::min(max, kChunk));
        if (auto* err = std::get_if<ImportError>(&next))
            return *err;
        const auto bytes = std::get<std::string_view>(next);
        m_offset += bytes.size();
        return bytes;
    }

    std::string_view head(std::size_t max) override {
        while (m_pending.size() < max) {
            auto next = produce(std::min(max - m_pending.size(), kChunk));
            if (std::holds_alternative<ImportError>(next))
                break; // reported again by read(); probing sees what there is
            const auto bytes = std::get<std::string_view>(next);
            if (bytes.empty())
                break;
            m_pending.append(bytes);
        }
        return std::string_view(m_pending.data() + m_pendingPos,
                                std::min(max, m_pending.size() - m_pendingPos));
    }

    std::uint64_t compressedSize() const override {
        return m_size;
    }
    std::uint64_t compressedRead() const override {
        return m_rawRead;
    }
    bool gzipped() const override {
        return m_gzip;
    }

private:
    ImportError error(std::string message) const {
        ImportError e;
        e.message = std::move(message);
        e.byteOffset = m_offset;
        e.path = m_path;
        return e;
    }

    // The next decompressed bytes (at most `max`), from the file or the inflate stream.
    std::variant<std::string_view, ImportError> produce(std::size_t max) {
        if (max == 0)
            return std::string_view();
        if (!m_gzip) {
            const std::size_t n = std::fread(m_out.data(), 1, std::min(max, m_out.size()), m_file);
            if (n == 0 && std::ferror(m_file))
                return error(std::string("read error: ") + std::strerror(errno));
            m_rawRead += n;
            return std::string_view(m_out.data(), n);
        }
#if WB_HAVE_ZLIB
        for (;;) {
            if (m_zs.avail_in == 0 && !m_eof) {
                const std::size_t n = std::fread(m_raw.data(), 1, m_raw.size(), m_file);
                if (n == 0 && std::ferror(m_file))
                    return error(std::string("read error: ") + std::strerror(errno));
                m_rawRead += n;
                m_eof = n == 0;
                m_zs.next_in = reinterpret_cast<Bytef*>(m_raw.data());
                m_zs.avail_in = static_cast<uInt>(n);
            }
            if (m_zs.avail_in == 0 && m_eof) {
                if (!m_streamEnded)
                    return error("the gzip stream is truncated (file ends inside compressed data)");
                return std::string_view();
            }
            if (m_streamEnded) {
                // Another gzip member follows (concatenated .gz files are valid gzip).
                if (inflateReset(&m_zs) != Z_OK)
                    return error("cannot continue with the next gzip member");
                m_streamEnded = false;
            }
            m_zs.next_out = reinterpret_cast<Bytef*>(m_out.data());
            m_zs.avail_out = static_cast<uInt>(std::min(max, m_out.size()));
            const int rc = inflate(&m_zs, Z_NO_FLUSH);
            if (rc == Z_STREAM_END)
                m_streamEnded = true;
            else if (rc != Z_OK && rc != Z_BUF_ERROR)
                return error(std::string("corrupt gzip data: ") +
                             (m_zs.msg ? m_zs.msg : "inflate failed"));
            const std::size_t produced = std::min(max, m_out.size()) - m_zs.avail_out;
            if (produced > 0)
                return std::string_view(m_out.data(), produced);
        }
#else
        return error("gzip input needs zlib");
#endif
    }

    std::FILE* m_file;
    std::uint64_t m_size;
    std::uint64_t m_rawRead = 0;
    std::uint64_t m_offset = 0;
    bool m_gzip = false;
    bool m_inflating = false;
    bool m_eof = false;
    bool m_streamEnded = false;
#if WB_HAVE_ZLIB
    z_stream m_zs{};
#endif
    std::vector<char> m_raw;
    std::vector<char> m_out;
    std::string m_pending; // bytes produced by head() and not yet read
    std::size_t m_pendingPos = 0;
    std::string m_keep;
};

class MemorySource final : public ByteSource {
public:
    MemorySource(std::string bytes, std::string name)
        : m_bytes(std::move(bytes)) {
        m_path = std::move(name);
    }
    std::variant<std::string_view, ImportError> read(std::size_t max) override {
        const std::size_t n = std::min(max, m_bytes.size() - m_pos);
        std::string_view out(m_bytes.data() + m_pos, n);
        m_pos += n;
        return out;
    }
    std::string_view head(std::size_t max) override {
        return std::string_view(m_bytes.data() + m_pos, std::min(max, m_bytes.size() - m_pos));
    }
    std::uint64_t compressedSize() const override { return m_bytes.size(); }
    std::uint64_t compressedRead() const override { return m_pos; }
    bool gzipped() const override { return false; }

private:
    std::string m_bytes;
    std::size_t m_pos = 0;
};

} // namespace

std::variant<std::unique_ptr<ByteSource>, ImportError> ByteSource::open(const std::string& path) {
    // fopen opens a folder for reading on Linux (reads then fail): say what it is first.
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return cannotOpenError(path, EISDIR);
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file)
        return cannotOpenError(path, errno);
    std::uint64_t size = 0;
    if (std::fseek(file, 0, SEEK_END) == 0) {
        const long end = std::ftell(file);
        size = end > 0 ? static_cast<std::uint64_t>(end) : 0;
        std::rewind(file);
    }
    auto source = std::make_unique<FileSource>(file, path, size);
    if (auto err = source->init())
        return *err;
    return std::unique_ptr<ByteSource>(std::move(source));
}

std::unique_ptr<ByteSource> ByteSource::fromMemory(std::string bytes, std::string name) {
    return std::make_unique<MemorySource>(std::move(bytes), std::move(name));
}

} // namespace wb
