#pragma once
// A small C-like integer expression over CUDA's thread coordinates, parsed once and
// evaluated per lane: `(threadIdx.y * 32 + threadIdx.x) * 33`, `lane < 8`, or with an array
// subscript `a[blockIdx.x * tile + threadIdx.x]`, which stands for its index. Arithmetic is
// int64 with wrap-around (never undefined behaviour); C precedence; && || ?: short-circuit.
#include "gpu/expr/expr_env.h"
#include "gpu/expr/expr_error.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

class Expression {
public:
    static constexpr std::size_t kMaxLength = 500;
    static constexpr int kMaxNesting = 64;

    // Throws ExprError. `parameterNames` are the extra names the expression may read
    // (e.g. "n", "tile"); their values come from ExprEnv::params in the same order.
    static Expression parse(std::string_view text, std::vector<std::string> parameterNames = {});

    // Throws ExprError on division or modulo by zero (naming env.lane) and on shift counts
    // outside 0…63.
    std::int64_t evaluate(const ExprEnv& env) const;

    const std::string& text() const { return m_text; }
    // "a" when written as a[...], else empty.
    const std::string& arrayName() const { return m_arrayName; }
    // Names read by the expression, in first-use order ("threadIdx.x", "n").
    const std::vector<std::string>& variables() const { return m_variables; }
    // The value of one of variables() in env (for tooltips such as "threadIdx.x = 5").
    std::int64_t variableValue(const std::string& name, const ExprEnv& env) const;
    // The integer literals as written, left to right ("lane < 8 && r > 2" -> {8, 2}): the
    // numbers a slide that shows the expression quotes.
    std::vector<std::int64_t> constants() const;
    // Every name an expression may read, built-ins first.
    std::vector<std::string> allowedNames() const;

    struct Node {
        int op = 0;
        std::int64_t value = 0; // constant, or variable slot
        int a = -1;
        int b = -1;
        int c = -1;
        int column = 0;
    };

private:
    std::int64_t eval(int node, const ExprEnv& env) const;

    std::string m_text;
    std::string m_arrayName;
    std::vector<std::string> m_parameterNames;
    std::vector<std::string> m_variables;
    std::vector<Node> m_nodes;
    int m_root = -1;
    friend class ExprParser;
};

} // namespace wb
