#include "gpu/expr/expression.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>

namespace wb {

namespace {

enum Op : int {
    Const,
    Var,
    Neg,
    Plus,
    Not,
    BitNot,
    Mul,
    Div,
    Mod,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
    Cond,
};

constexpr std::array<const char*, 14> kBuiltins = {
    "threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x", "blockIdx.y",
    "blockIdx.z",  "blockDim.x",  "blockDim.y",  "blockDim.z", "gridDim.x",
    "gridDim.y",   "gridDim.z",   "lane",        "warp"};
constexpr std::int64_t kBuiltinCount = static_cast<std::int64_t>(kBuiltins.size());

std::int64_t builtin(std::int64_t slot, const ExprEnv& e) {
    switch (slot) {
    case 0:
        return e.threadIdx.x;
    case 1:
        return e.threadIdx.y;
    case 2:
        return e.threadIdx.z;
    case 3:
        return e.blockIdx.x;
    case 4:
        return e.blockIdx.y;
    case 5:
        return e.blockIdx.z;
    case 6:
        return e.blockDim.x;
    case 7:
        return e.blockDim.y;
    case 8:
        return e.blockDim.z;
    case 9:
        return e.gridDim.x;
    case 10:
        return e.gridDim.y;
    case 11:
        return e.gridDim.z;
    case 12:
        return e.lane;
    default:
        return e.warp;
    }
}

// Wrap-around arithmetic through uint64 (defined in C++20 both ways), so no input can
// trigger signed-overflow undefined behaviour.
std::int64_t wrap(std::uint64_t v) {
    return static_cast<std::int64_t>(v);
}
std::uint64_t bits(std::int64_t v) {
    return static_cast<std::uint64_t>(v);
}

} // namespace

// Recursive descent over C's precedence levels, building Expression::m_nodes.
class ExprParser {
public:
    ExprParser(Expression& e)
        : m_e(e)
        , m_s(e.m_text) {}

    int parseAll() {
        skipSpace();
        if (m_pos == m_s.size())
            fail("expected an expression");
        const int root = ternary();
        skipSpace();
        if (m_pos != m_s.size())
            fail(std::string("unexpected '") + m_s[m_pos] + "' after the expression");
        return root;
    }

private:
    [[noreturn]] void fail(const std::string& msg) const { failAt(m_pos, msg); }
    [[noreturn]] void failAt(std::size_t pos, const std::string& msg) const {
        throw ExprError(static_cast<int>(pos) + 1, msg);
    }
    void skipSpace() {
        while (m_pos < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_pos])))
            ++m_pos;
    }
    bool accept(std::string_view tok) {
        skipSpace();
        if (m_s.substr(m_pos, tok.size()) != tok)
            return false;
        m_pos += tok.size();
        return true;
    }
    // Accepts `tok` unless it is the start of a longer operator (`<` vs `<<`, `&` vs `&&`).
    bool acceptOnly(std::string_view tok, std::string_view notFollowedBy) {
        skipSpace();
        if (m_s.substr(m_pos, tok.size()) != tok)
            return false;
        const std::size_t next = m_pos + tok.size();
        if (next < m_s.size() && notFollowedBy.find(m_s[next]) != std::string_view::npos)
            return false;
        m_pos = next;
        return true;
    }
    void expect(char c) {
        skipSpace();
        if (m_pos >= m_s.size() || m_s[m_pos] != c)
            fail(std::string("expected '") + c + "'");
        ++m_pos;
    }
    int node(int op, int column, int a = -1, int b = -1, int c = -1, std::int64_t v = 0) {
        m_e.m_nodes.push_back({op, v, a, b, c, column});
        return static_cast<int>(m_e.m_nodes.size()) - 1;
    }
    int col() {
        skipSpace();
        return static_cast<int>(m_pos) + 1;
    }
    struct Depth {
        explicit Depth(ExprParser& p)
            : m_p(p) {
            if (++m_p.m_depth > Expression::kMaxNesting)
                m_p.fail("nesting deeper than " + std::to_string(Expression::kMaxNesting) +
                         " levels");
        }
        ~Depth() { --m_p.m_depth; }
        Depth(const Depth&) = delete;
        Depth& operator=(const Depth&) = delete;
        ExprParser& m_p;
    };

    int ternary() {
        Depth d(*this);
        const int c = logicalOr();
        const int column = col();
        if (!accept("?"))
            return c;
        const int a = ternary();
        expect(':');
        const int b = ternary();
        return node(Cond, column, c, a, b);
    }
    // One left-associative binary level: operators tried in order, each with the
    // characters that must not follow it.
    struct BinOp {
        std::string_view tok;
        std::string_view notFollowedBy;
        int op;
    };
    template <std::size_t N, typename Next> int level(const std::array<BinOp, N>& ops, Next next) {
        int lhs = (this->*next)();
        for (;;) {
            const int column = col();
            bool matched = false;
            for (const auto& o : ops) {
                if (acceptOnly(o.tok, o.notFollowedBy)) {
                    lhs = node(o.op, column, lhs, (this->*next)());
                    matched = true;
                    break;
                }
            }
            if (!matched)
                return lhs;
        }
    }
    int logicalOr() {
        return level(std::array<BinOp, 1>{{{"||", "", Or}}}, &ExprParser::logicalAnd);
    }
    int logicalAnd() { return level(std::array<BinOp, 1>{{{"&&", "", And}}}, &ExprParser::bitOr); }
    int bitOr() { return level(std::array<BinOp, 1>{{{"|", "|", BitOr}}}, &ExprParser::bitXor); }
    int bitXor() { return level(std::array<BinOp, 1>{{{"^", "", BitXor}}}, &ExprParser::bitAnd); }
    int bitAnd() {
        return level(std::array<BinOp, 1>{{{"&", "&", BitAnd}}}, &ExprParser::equality);
    }
    int equality() {
        return level(std::array<BinOp, 2>{{{"==", "", Eq}, {"!=", "", Ne}}},
                     &ExprParser::relational);
    }
    int relational() {
        return level(
            std::array<BinOp, 4>{{{"<=", "", Le}, {">=", "", Ge}, {"<", "<", Lt}, {">", ">", Gt}}},
            &ExprParser::shift);
    }
    int shift() {
        return level(std::array<BinOp, 2>{{{"<<", "", Shl}, {">>", "", Shr}}},
                     &ExprParser::additive);
    }
    int additive() {
        return level(std::array<BinOp, 2>{{{"+", "", Add}, {"-", "", Sub}}},
                     &ExprParser::multiplicative);
    }
    int multiplicative() {
        return level(std::array<BinOp, 3>{{{"*", "", Mul}, {"/", "", Div}, {"%", "", Mod}}},
                     &ExprParser::unary);
    }
    int unary() {
        Depth d(*this);
        const int column = col();
        if (accept("-"))
            return node(Neg, column, unary());
        if (accept("+"))
            return node(Plus, column, unary());
        if (acceptOnly("!", "="))
            return node(Not, column, unary());
        if (accept("~"))
            return node(BitNot, column, unary());
        return primary();
    }
    int primary() {
        skipSpace();
        if (m_pos >= m_s.size())
            fail("expected a number, a name or '('");
        const char ch = m_s[m_pos];
        if (ch == '(') {
            ++m_pos;
            const int inner = ternary();
            expect(')');
            return inner;
        }
        if (std::isdigit(static_cast<unsigned char>(ch)))
            return number();
        if (std::isalpha(static_cast<unsigned char>(ch)) || ch == '_')
            return name();
        fail(std::string("unexpected '") + ch + "'; expected a number, a name or '('");
    }
    int number() {
        const std::size_t start = m_pos;
        std::uint64_t base = 10;
        if (m_s.substr(m_pos, 2) == "0x" || m_s.substr(m_pos, 2) == "0X") {
            base = 16;
            m_pos += 2;
        }
        std::uint64_t v = 0;
        std::size_t digits = 0;
        constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
        while (m_pos < m_s.size()) {
            const char c = m_s[m_pos];
            std::uint64_t d = 0;
            if (std::isdigit(static_cast<unsigned char>(c)))
                d = static_cast<std::uint64_t>(c - '0');
            else if (base == 16 && std::isxdigit(static_cast<unsigned char>(c)))
                d = static_cast<std::uint64_t>(std::tolower(static_cast<unsigned char>(c)) - 'a' +
                                               10);
            else
                break;
            if (v > (kMax - d) / base)
                failAt(start, "number too large for a 64-bit integer");
            v = v * base + d;
            ++m_pos;
            ++digits;
        }
        if (digits == 0)
            failAt(start, "expected hex digits after 0x");
        if (m_pos < m_s.size() &&
            (std::isalpha(static_cast<unsigned char>(m_s[m_pos])) || m_s[m_pos] == '_'))
            fail(std::string("unexpected '") + m_s[m_pos] + "' in a number");
        return node(Const, static_cast<int>(start) + 1, -1, -1, -1, static_cast<std::int64_t>(v));
    }
    std::string identifier() {
        const std::size_t start = m_pos;
        while (m_pos < m_s.size() &&
               (std::isalnum(static_cast<unsigned char>(m_s[m_pos])) || m_s[m_pos] == '_'))
            ++m_pos;
        return std::string(m_s.substr(start, m_pos - start));
    }
    int name() {
        const std::size_t start = m_pos;
        std::string id = identifier();
        // threadIdx.x: the member is part of the name.
        if (m_pos + 1 < m_s.size() && m_s[m_pos] == '.' &&
            std::isalpha(static_cast<unsigned char>(m_s[m_pos + 1]))) {
            ++m_pos;
            id += '.';
            id += identifier();
        }
        skipSpace();
        if (m_pos < m_s.size() && m_s[m_pos] == '[') {
            ++m_pos;
            if (m_e.m_arrayName.empty())
                m_e.m_arrayName = id;
            const int inner = ternary();
            expect(']');
            return inner;
        }
        const int column = static_cast<int>(start) + 1;
        for (std::int64_t i = 0; i < kBuiltinCount; ++i)
            if (id == kBuiltins[static_cast<std::size_t>(i)])
                return variable(id, i, column);
        for (std::size_t i = 0; i < m_e.m_parameterNames.size(); ++i)
            if (id == m_e.m_parameterNames[i])
                return variable(id, kBuiltinCount + static_cast<std::int64_t>(i), column);
        std::string allowed;
        for (const auto& n : m_e.allowedNames())
            allowed += (allowed.empty() ? "" : ", ") + n;
        failAt(start, "unknown name '" + id + "'; allowed: " + allowed);
    }
    int variable(const std::string& id, std::int64_t slot, int column) {
        bool seen = false;
        for (const auto& v : m_e.m_variables)
            seen = seen || v == id;
        if (!seen)
            m_e.m_variables.push_back(id);
        return node(Var, column, -1, -1, -1, slot);
    }

    Expression& m_e;
    std::string_view m_s;
    std::size_t m_pos = 0;
    int m_depth = 0;
};

Expression Expression::parse(std::string_view text, std::vector<std::string> parameterNames) {
    if (text.size() > kMaxLength)
        throw ExprError(static_cast<int>(kMaxLength) + 1,
                        "expression longer than " + std::to_string(kMaxLength) + " characters");
    Expression e;
    e.m_text = std::string(text);
    e.m_parameterNames = std::move(parameterNames);
    ExprParser parser(e);
    e.m_root = parser.parseAll();
    return e;
}

std::vector<std::string> Expression::allowedNames() const {
    std::vector<std::string> names(kBuiltins.begin(), kBuiltins.end());
    names.insert(names.end(), m_parameterNames.begin(), m_parameterNames.end());
    return names;
}

std::vector<std::int64_t> Expression::constants() const {
    std::vector<const Node*> literals;
    for (const Node& n : m_nodes)
        if (n.op == Const)
            literals.push_back(&n);
    std::stable_sort(literals.begin(), literals.end(),
                     [](const Node* a, const Node* b) { return a->column < b->column; });
    std::vector<std::int64_t> out;
    for (const Node* n : literals)
        out.push_back(n->value);
    return out;
}

std::int64_t Expression::variableValue(const std::string& name, const ExprEnv& env) const {
    for (std::int64_t i = 0; i < kBuiltinCount; ++i)
        if (name == kBuiltins[static_cast<std::size_t>(i)])
            return builtin(i, env);
    for (std::size_t i = 0; i < m_parameterNames.size() && i < env.params.size(); ++i)
        if (name == m_parameterNames[i])
            return env.params[i];
    return 0;
}

std::int64_t Expression::evaluate(const ExprEnv& env) const {
    if (env.params.size() < m_parameterNames.size())
        throw ExprError(1, "missing values for the expression's parameters");
    return eval(m_root, env);
}

std::int64_t Expression::eval(int index, const ExprEnv& env) const {
    const Node& n = m_nodes[static_cast<std::size_t>(index)];
    auto lane = [&] { return "lane " + std::to_string(env.lane); };
    switch (n.op) {
    case Const:
        return n.value;
    case Var:
        return n.value < kBuiltinCount
                   ? builtin(n.value, env)
                   : env.params[static_cast<std::size_t>(n.value - kBuiltinCount)];
    case Neg:
        return wrap(0u - bits(eval(n.a, env)));
    case Plus:
        return eval(n.a, env);
    case Not:
        return eval(n.a, env) == 0 ? 1 : 0;
    case BitNot:
        return ~eval(n.a, env);
    case And:
        return eval(n.a, env) != 0 && eval(n.b, env) != 0 ? 1 : 0;
    case Or:
        return eval(n.a, env) != 0 || eval(n.b, env) != 0 ? 1 : 0;
    case Cond:
        return eval(n.a, env) != 0 ? eval(n.b, env) : eval(n.c, env);
    default:
        break;
    }
    const std::int64_t a = eval(n.a, env);
    const std::int64_t b = eval(n.b, env);
    constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
    switch (n.op) {
    case Mul:
        return wrap(bits(a) * bits(b));
    case Div:
    case Mod:
        if (b == 0)
            throw ExprError(n.column, std::string(n.op == Div ? "division" : "modulo") +
                                          " by zero in " + lane());
        // INT64_MIN / -1 overflows in C++; wrap like the hardware does.
        if (a == kMin && b == -1)
            return n.op == Div ? kMin : 0;
        return n.op == Div ? a / b : a % b;
    case Add:
        return wrap(bits(a) + bits(b));
    case Sub:
        return wrap(bits(a) - bits(b));
    case Shl:
    case Shr:
        if (b < 0 || b > 63)
            throw ExprError(n.column, "shift by " + std::to_string(b) + " in " + lane() +
                                          "; allowed shift counts are 0…63");
        return n.op == Shl ? wrap(bits(a) << b) : a >> b;
    case Lt:
        return a < b ? 1 : 0;
    case Le:
        return a <= b ? 1 : 0;
    case Gt:
        return a > b ? 1 : 0;
    case Ge:
        return a >= b ? 1 : 0;
    case Eq:
        return a == b ? 1 : 0;
    case Ne:
        return a != b ? 1 : 0;
    case BitAnd:
        return a & b;
    case BitXor:
        return a ^ b;
    default:
        return a | b;
    }
}

} // namespace wb
