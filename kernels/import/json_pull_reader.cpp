#include "import/json_pull_reader.h"

#include <cstring>

namespace wb {

namespace {

constexpr std::size_t kChunkBytes = 1 << 20;

std::string describeByte(int c) {
    if (c < 0)
        return "the end of the input";
    if (c >= 0x20 && c < 0x7f)
        return std::string("'") + static_cast<char>(c) + "'";
    char buf[8];
    static const char* hex = "0123456789abcdef";
    buf[0] = '0';
    buf[1] = 'x';
    buf[2] = hex[(c >> 4) & 0xf];
    buf[3] = hex[c & 0xf];
    buf[4] = 0;
    return std::string("byte ") + buf;
}

void appendUtf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xc0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xe0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    } else {
        out.push_back(static_cast<char>(0xf0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    }
}

} // namespace

JsonPullReader::JsonPullReader(ByteSource& source, const ImportControl& control)
    : m_source(source)
    , m_control(control) {}

void JsonPullReader::fail(const std::string& message) const {
    throw JsonSyntaxError(message, offset());
}

void JsonPullReader::failExpected(const char* what) {
    const int c = peekByte();
    std::string message = "expected ";
    message += what;
    message += ", found ";
    message += describeByte(c);
    fail(message);
}

bool JsonPullReader::refill() {
    if (m_eof)
        return false;
    if (m_control.cancelled && m_control.cancelled())
        throw JsonSyntaxError("cancelled", offset(), true);
    auto next = m_source.read(kChunkBytes);
    if (auto* err = std::get_if<ImportError>(&next))
        throw SourceFailure{*err};
    m_base += m_chunk.size();
    m_chunk = std::get<std::string_view>(next);
    m_pos = 0;
    if (m_control.progress)
        m_control.progress(m_source.compressedRead(), m_source.compressedSize());
    m_eof = m_chunk.empty();
    return !m_eof;
}

int JsonPullReader::peekByte() {
    if (m_pos == m_chunk.size() && !refill())
        return -1;
    return static_cast<unsigned char>(m_chunk[m_pos]);
}

char JsonPullReader::take() {
    if (m_pos == m_chunk.size() && !refill())
        fail("unexpected end of the input");
    return m_chunk[m_pos++];
}

void JsonPullReader::skipSpace() {
    for (;;) {
        while (m_pos < m_chunk.size()) {
            const char c = m_chunk[m_pos];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
                return;
            ++m_pos;
        }
        if (!refill())
            return;
    }
}

JsonPullReader::Kind JsonPullReader::peekKind() {
    skipSpace();
    const int c = peekByte();
    switch (c) {
    case -1:
        return Kind::End;
    case '{':
        return Kind::Object;
    case '[':
        return Kind::Array;
    case '"':
        return Kind::String;
    case 't':
        return Kind::True;
    case 'f':
        return Kind::False;
    case 'n':
        return Kind::Null;
    default:
        if (c == '-' || (c >= '0' && c <= '9'))
            return Kind::Number;
        failExpected("a JSON value");
    }
}

void JsonPullReader::beginObject() {
    skipSpace();
    if (peekByte() != '{')
        failExpected("'{'");
    ++m_pos;
    m_firstFlags.push_back(1);
}

bool JsonPullReader::nextKey(std::string_view& key) {
    skipSpace();
    const bool first = m_firstFlags.back() != 0;
    int c = peekByte();
    if (c == '}') {
        ++m_pos;
        m_firstFlags.pop_back();
        return false;
    }
    if (!first) {
        if (c != ',')
            failExpected("',' or '}'");
        ++m_pos;
        skipSpace();
        c = peekByte();
    }
    if (c != '"')
        failExpected(first ? "'\"' (a key) or '}'" : "'\"' (a key)");
    m_firstFlags.back() = 0;
    readStringInto(m_key);
    skipSpace();
    if (peekByte() != ':')
        failExpected("':'");
    ++m_pos;
    key = m_key;
    return true;
}

void JsonPullReader::beginArray() {
    skipSpace();
    if (peekByte() != '[')
        failExpected("'['");
    ++m_pos;
    m_firstFlags.push_back(1);
}

bool JsonPullReader::nextElement() {
    skipSpace();
    const int c = peekByte();
    if (c == ']') {
        ++m_pos;
        m_firstFlags.pop_back();
        return false;
    }
    if (m_firstFlags.back() == 0) {
        if (c != ',')
            failExpected("',' or ']'");
        ++m_pos;
        skipSpace();
        if (peekByte() == -1)
            failExpected("a value");
    } else if (c == -1) {
        failExpected("a value or ']'");
    }
    m_firstFlags.back() = 0;
    return true;
}

std::string_view JsonPullReader::readString() {
    skipSpace();
    if (peekByte() != '"')
        failExpected("a string");
    readStringInto(m_text);
    return m_text;
}

void JsonPullReader::readStringInto(std::string& out) {
    out.clear();
    ++m_pos; // the opening quote, already checked
    for (;;) {
        // Copy plain runs straight from the chunk; stop at quote, backslash or chunk end.
        const std::size_t start = m_pos;
        while (m_pos < m_chunk.size()) {
            const char c = m_chunk[m_pos];
            if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20)
                break;
            ++m_pos;
        }
        out.append(m_chunk.data() + start, m_pos - start);
        if (m_pos == m_chunk.size()) {
            if (!refill())
                fail("unterminated string: expected '\"' before the end of the input");
            continue;
        }
        const char c = m_chunk[m_pos++];
        if (c == '"')
            return;
        if (c != '\\') {
            --m_pos;
            fail("control character inside a string");
        }
        const char e = take();
        switch (e) {
        case '"':
        case '\\':
        case '/':
            out.push_back(e);
            break;
        case 'b':
            out.push_back('\b');
            break;
        case 'f':
            out.push_back('\f');
            break;
        case 'n':
            out.push_back('\n');
            break;
        case 'r':
            out.push_back('\r');
            break;
        case 't':
            out.push_back('\t');
            break;
        case 'u': {
            auto hex4 = [&] {
                std::uint32_t v = 0;
                for (int k = 0; k < 4; ++k) {
                    const char h = take();
                    v <<= 4;
                    if (h >= '0' && h <= '9')
                        v |= static_cast<std::uint32_t>(h - '0');
                    else if (h >= 'a' && h <= 'f')
                        v |= static_cast<std::uint32_t>(h - 'a' + 10);
                    else if (h >= 'A' && h <= 'F')
                        v |= static_cast<std::uint32_t>(h - 'A' + 10);
                    else
                        fail("expected 4 hex digits after \\u");
                }
                return v;
            };
            std::uint32_t cp = hex4();
            if (cp >= 0xd800 && cp < 0xdc00 && peekByte() == '\\') {
                take();
                if (take() != 'u')
                    fail("expected a low surrogate \\u escape");
                const std::uint32_t low = hex4();
                cp = (low >= 0xdc00 && low < 0xe000)
                         ? 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00)
                         : 0xfffd;
            } else if (cp >= 0xd800 && cp < 0xe000) {
                cp = 0xfffd; // a lone surrogate: keep going with the replacement character
            }
            appendUtf8(out, cp);
            break;
        }
        default:
            --m_pos;
            fail("invalid escape in a string");
        }
    }
}

std::string_view JsonPullReader::readNumber() {
    skipSpace();
    readNumberInto(m_text);
    return m_text;
}

void JsonPullReader::readNumberInto(std::string& out) {
    out.clear();
    for (;;) {
        const int c = peekByte();
        if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
            out.push_back(static_cast<char>(c));
            ++m_pos;
            continue;
        }
        break;
    }
    // Grammar check: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    std::size_t i = 0;
    auto digits = [&] {
        const std::size_t s = i;
        while (i < out.size() && out[i] >= '0' && out[i] <= '9')
            ++i;
        return i - s;
    };
    if (i < out.size() && out[i] == '-')
        ++i;
    const std::size_t intStart = i;
    const std::size_t intDigits = digits();
    bool ok = intDigits > 0 && !(intDigits > 1 && out[intStart] == '0');
    if (ok && i < out.size() && out[i] == '.') {
        ++i;
        ok = digits() > 0;
    }
    if (ok && i < out.size() && (out[i] == 'e' || out[i] == 'E')) {
        ++i;
        if (i < out.size() && (out[i] == '+' || out[i] == '-'))
            ++i;
        ok = digits() > 0;
    }
    if (!ok || i != out.size()) {
        std::string message = "malformed number \"";
        message += out.substr(0, 40);
        message += '"';
        throw JsonSyntaxError(message, offset() - out.size());
    }
}

void JsonPullReader::expectLiteral(std::string_view word) {
    for (const char w : word) {
        if (peekByte() != static_cast<unsigned char>(w)) {
            std::string what = "'";
            what += word;
            what += "'";
            failExpected(what.c_str());
        }
        ++m_pos;
    }
}

bool JsonPullReader::readBool() {
    const Kind k = peekKind();
    if (k == Kind::True) {
        expectLiteral("true");
        return true;
    }
    if (k != Kind::False)
        failExpected("true or false");
    expectLiteral("false");
    return false;
}

void JsonPullReader::readNull() {
    if (peekKind() != Kind::Null)
        failExpected("null");
    expectLiteral("null");
}

void JsonPullReader::skipValue() {
    // Depth-counted walk; the flags stack already tracks nesting for the ',' rule.
    const std::size_t depth = m_firstFlags.size();
    std::string_view key;
    for (;;) {
        if (m_firstFlags.size() > depth) {
            // Inside a container we opened: the next member, element or the close.
            const bool inObject = m_firstFlags.back() & 2;
            bool more = false;
            if (inObject) {
                const char flags = m_firstFlags.back();
                m_firstFlags.back() = static_cast<char>(flags & 1);
                more = nextKey(key);
                if (more)
                    m_firstFlags.back() = 2; // not first any more, still an object
            } else {
                more = nextElement();
            }
            if (!more) {
                if (m_firstFlags.size() == depth)
                    return;
                continue;
            }
        }
        switch (peekKind()) {
        case Kind::Object:
            beginObject();
            m_firstFlags.back() = 3; // first, object
            break;
        case Kind::Array:
            beginArray();
            break;
        case Kind::String:
            readString();
            break;
        case Kind::Number:
            readNumber();
            break;
        case Kind::True:
        case Kind::False:
            readBool();
            break;
        case Kind::Null:
            readNull();
            break;
        case Kind::End:
            failExpected("a JSON value");
        }
        if (m_firstFlags.size() == depth)
            return;
    }
}

void JsonPullReader::expectEnd() {
    skipSpace();
    if (peekByte() != -1)
        failExpected("the end of the input after the top-level value");
}

} // namespace wb
