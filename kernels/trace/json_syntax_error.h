#pragma once
// Where and why JSON text does not parse, counted one way for every reader of our own JSON
// formats (the Trace format, job summaries): "line 3, column 11 (byte 34): <what nlohmann
// expected>". Found through nlohmann's SAX interface, because its exceptions report a number
// too large for a double ("1e999") as out_of_range, with no position.
#include <cstddef>
#include <string>
#include <string_view>

namespace wb {

struct LineColumn {
    std::size_t line = 1;
    std::size_t column = 1; // in bytes, like the parser's own counting
};

LineColumn lineColumnOf(std::string_view text, std::size_t offset);

// "line 3, column 11 (byte 34)".
std::string describePosition(std::string_view text, std::size_t offset);

struct JsonSyntaxError {
    std::size_t byteOffset = 0;
    std::string message; // describePosition(...) + ": " + what was expected
};

// For text that does not parse (text that does gives an offset at its end and no detail).
JsonSyntaxError jsonSyntaxError(std::string_view text);

} // namespace wb
