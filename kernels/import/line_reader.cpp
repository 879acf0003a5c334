#include "import/line_reader.h"

#include "import/text_scan.h"

namespace wb {

namespace {
constexpr std::size_t kLineChunk = 1 << 20;
// A text format never has lines this long; binary junk without newlines stops here instead of
// growing the buffer without bound.
constexpr std::size_t kMaxLine = 64u << 20;
} // namespace

LineReader::LineReader(ByteSource& source, const ImportControl& control)
    : m_source(source)
    , m_control(control) {}

ImportError LineReader::errorHere(std::string message) const {
    ImportError e;
    e.message = std::move(message);
    e.line = m_lineNumber;
    e.byteOffset = m_lineOffset;
    e.path = m_source.path();
    return e;
}

bool LineReader::fill() {
    if (m_eof)
        return false;
    if (m_control.cancelled && m_control.cancelled()) {
        m_error = errorHere("cancelled");
        return false;
    }
    // Drop consumed bytes so the buffer only holds the current partial line.
    if (m_pos > 0) {
        m_buffer.erase(0, m_pos);
        m_bufferOffset += m_pos;
        m_pos = 0;
    }
    auto chunk = m_source.read(kLineChunk);
    if (auto* err = std::get_if<ImportError>(&chunk)) {
        m_error = *err;
        return false;
    }
    const auto bytes = std::get<std::string_view>(chunk);
    if (bytes.empty()) {
        m_eof = true;
        return false;
    }
    m_buffer.append(bytes);
    if (m_control.progress)
        m_control.progress(m_source.compressedRead(), m_source.compressedSize());
    return true;
}

std::optional<std::string_view> LineReader::next() {
    if (m_error)
        return std::nullopt;
    std::size_t nl = m_buffer.find('\n', m_pos);
    while (nl == std::string::npos) {
        const std::size_t searched = m_buffer.size() - m_pos;
        if (searched > kMaxLine) {
            m_lineOffset = m_bufferOffset + m_pos;
            m_lineNumber++;
            m_error = errorHere("line longer than 64 MiB: not a text file of this format");
            return std::nullopt;
        }
        if (!fill()) {
            if (m_error)
                return std::nullopt;
            break;
        }
        nl = m_buffer.find('\n', m_pos + searched);
    }
    if (m_pos >= m_buffer.size() && nl == std::string::npos)
        return std::nullopt;
    const std::size_t end = nl == std::string::npos ? m_buffer.size() : nl;
    std::string_view line(m_buffer.data() + m_pos, end - m_pos);
    m_lineOffset = m_bufferOffset + m_pos;
    m_lineNumber++;
    m_lastTerminated = nl != std::string::npos;
    m_pos = nl == std::string::npos ? m_buffer.size() : nl + 1;
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    if (m_first) {
        m_first = false;
        if (line.substr(0, 3) == "\xEF\xBB\xBF")
            line.remove_prefix(3);
    }
    if (!text::isValidUtf8(line)) {
        m_repaired = text::toValidUtf8(line);
        return std::string_view(m_repaired);
    }
    return line;
}

} // namespace wb
