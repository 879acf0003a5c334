#pragma once
// Interned strings: each distinct name or category is stored once and events refer to it by
// a 32-bit id, which keeps event records fixed-size and small.
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace wb {

class StringPool {
public:
    StringPool() { intern(""); } // id 0 is the empty string
    std::uint32_t intern(std::string_view text);
    std::string_view text(std::uint32_t id) const { return m_strings[id]; }
    std::size_t size() const { return m_strings.size(); }
    // The ids follow from the strings, so the strings alone decide.
    bool operator==(const StringPool& other) const { return m_strings == other.m_strings; }

private:
    std::deque<std::string> m_strings; // a deque keeps the map's views valid as it grows
    std::unordered_map<std::string_view, std::uint32_t> m_ids;
};

} // namespace wb
