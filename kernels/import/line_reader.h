#pragma once
// Splits a ByteSource into lines (LF or CRLF, a leading UTF-8 BOM dropped) while keeping the
// 1-based line number and the byte offset of each line, so text importers can name where a
// problem is. Progress and cancel are handled here, once per chunk.
#include "import/byte_source.h"
#include "import/importer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace wb {

class LineReader {
public:
    LineReader(ByteSource& source, const ImportControl& control);

    // The next line without its terminator; nullopt at the end or on an error (see error()).
    // The view stays valid until the next call. Invalid UTF-8 comes back as U+FFFD, so every
    // string an importer keeps can be written as JSON.
    std::optional<std::string_view> next();
    std::uint64_t lineNumber() const { return m_lineNumber; }
    std::uint64_t lineOffset() const { return m_lineOffset; }
    // False when the last line returned had no line terminator (a possibly cut file).
    bool lastLineTerminated() const { return m_lastTerminated; }
    const std::optional<ImportError>& error() const { return m_error; }
    // An ImportError at the current line, for the importers' own complaints.
    ImportError errorHere(std::string message) const;

private:
    bool fill();

    ByteSource& m_source;
    const ImportControl& m_control;
    std::string m_buffer;
    std::string m_repaired; // the current line when it needed UTF-8 repair
    std::size_t m_pos = 0;
    std::uint64_t m_bufferOffset = 0; // stream offset of m_buffer[0]
    std::uint64_t m_lineNumber = 0;
    std::uint64_t m_lineOffset = 0;
    bool m_eof = false;
    bool m_lastTerminated = true;
    bool m_first = true;
    std::optional<ImportError> m_error;
};

} // namespace wb
