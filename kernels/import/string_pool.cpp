#include "import/string_pool.h"

namespace wb {

std::uint32_t StringPool::intern(std::string_view text) {
    if (auto it = m_ids.find(text); it != m_ids.end())
        return it->second;
    const auto id = static_cast<std::uint32_t>(m_strings.size());
    m_strings.emplace_back(text);
    m_ids.emplace(m_strings.back(), id);
    return id;
}

} // namespace wb
