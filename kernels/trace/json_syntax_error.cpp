#include "trace/json_syntax_error.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace wb {

namespace {

// Records where and why parsing stopped; through SAX every syntax error arrives with its
// position.
class SyntaxErrorSax : public nlohmann::json::json_sax_t {
public:
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& ex) override {
        m_position = position;
        m_what = ex.what();
        return false;
    }

    std::size_t position() const { return m_position; }
    const std::string& what() const { return m_what; }

private:
    std::size_t m_position = 0;
    std::string m_what;
};

} // namespace

LineColumn lineColumnOf(std::string_view text, std::size_t offset) {
    LineColumn lc;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++lc.line;
            lineStart = i + 1;
        }
    }
    lc.column = offset - lineStart + 1;
    return lc;
}

std::string describePosition(std::string_view text, std::size_t offset) {
    const LineColumn lc = lineColumnOf(text, offset);
    return "line " + std::to_string(lc.line) + ", column " + std::to_string(lc.column) + " (byte " +
           std::to_string(offset) + ")";
}

JsonSyntaxError jsonSyntaxError(std::string_view text) {
    SyntaxErrorSax sax;
    nlohmann::json::sax_parse(text.begin(), text.end(), &sax);
    // nlohmann counts bytes read, 1-based; one past the end means the input was truncated.
    const std::size_t offset = std::min(sax.position() > 0 ? sax.position() - 1 : 0, text.size());
    // "[json.exception.parse_error.101] parse error at line 1, column 7: <detail>": the
    // position is recomputed here so that all messages count lines and columns alike.
    std::string detail = sax.what();
    if (const auto bracket = detail.find("] "); bracket != std::string::npos)
        detail.erase(0, bracket + 2);
    if (detail.rfind("parse error", 0) == 0) {
        if (const auto colon = detail.find(": "); colon != std::string::npos)
            detail.erase(0, colon + 2);
    }
    return {.byteOffset = offset, .message = describePosition(text, offset) + ": " + detail};
}

} // namespace wb
