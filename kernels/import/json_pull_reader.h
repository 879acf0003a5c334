#pragma once
// A streaming JSON reader that pulls bytes from a ByteSource one chunk at a time, so a
// trace of any size is read with a few MiB of memory and no document tree. The caller walks
// the structure (objects, arrays, scalars); malformed input throws JsonSyntaxError with the
// byte offset and what was expected.
#include "import/byte_source.h"
#include "import/importer.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace wb {

struct JsonSyntaxError : std::runtime_error {
    JsonSyntaxError(const std::string& message, std::uint64_t offset, bool cancelled = false)
        : std::runtime_error(message)
        , byteOffset(offset)
        , wasCancelled(cancelled) {}
    std::uint64_t byteOffset;
    bool wasCancelled;
};

// An ImportError from the ByteSource (I/O, truncated or corrupt gzip), carried out of the
// parse unchanged.
struct SourceFailure {
    ImportError error;
};

class JsonPullReader {
public:
    enum class Kind { Object, Array, String, Number, True, False, Null, End };

    JsonPullReader(ByteSource& source, const ImportControl& control);

    // The kind of the next value (after whitespace), without consuming it.
    Kind peekKind();
    // Byte offset of the next unread byte in the decompressed stream.
    std::uint64_t offset() const { return m_base + m_pos; }

    // Object and array walking: call begin, then next* until it returns false.
    void beginObject();
    // Reads the next key into `key` (valid until the next read) or returns false at '}'.
    bool nextKey(std::string_view& key);
    void beginArray();
    bool nextElement(); // false at ']'

    std::string_view readString(); // valid until the next read
    std::string_view readNumber(); // the number's text, valid until the next read
    bool readBool();
    void readNull();
    void skipValue(); // any value, iteratively (deep nesting cannot overflow the stack)
    // Only whitespace may follow the top-level value.
    void expectEnd();

    [[noreturn]] void fail(const std::string& message) const;

private:
    int peekByte(); // -1 at the end
    char take();    // the next byte; fails at the end
    void skipSpace();
    bool refill();
    void expectLiteral(std::string_view rest);
    [[noreturn]] void failExpected(const char* what);
    void readStringInto(std::string& out);
    void readNumberInto(std::string& out);

    ByteSource& m_source;
    const ImportControl& m_control;
    std::string_view m_chunk;
    std::size_t m_pos = 0;
    std::uint64_t m_base = 0; // stream offset of m_chunk[0]
    bool m_eof = false;
    // Per object/array: has an element been read yet (for the ',' rule).
    std::string m_firstFlags;
    std::string m_text; // the last string or number
    std::string m_key;
};

} // namespace wb
