#pragma once
// A mistake in an index expression, at parse time (syntax, unknown name, limits) or at
// evaluation time (division by zero in one lane, shift out of range). `column` is 1-based
// and points at the offending character or operator; what() reads "column 14: expected ')'".
#include <stdexcept>
#include <string>

namespace wb {

struct ExprError : std::runtime_error {
    ExprError(int col, std::string msg)
        : std::runtime_error("column " + std::to_string(col) + ": " + msg)
        , column(col)
        , message(std::move(msg)) {}
    int column = 0;
    std::string message;
};

} // namespace wb
