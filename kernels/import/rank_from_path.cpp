#include "import/rank_from_path.h"

#include <array>
#include <cctype>
#include <string>

namespace wb {

std::optional<long> rankFromPath(std::string_view path) {
    const std::size_t slash = path.find_last_of("/\\");
    std::string base(slash == std::string_view::npos ? path : path.substr(slash + 1));
    for (auto& c : base)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::optional<long> found;
    std::size_t foundAt = 0;
    for (const std::string_view word : std::array<std::string_view, 2>{"rank", "worker"}) {
        for (std::size_t at = base.find(word); at != std::string::npos;
             at = base.find(word, at + 1)) {
            std::size_t i = at + word.size();
            if (i < base.size() && (base[i] == '-' || base[i] == '_'))
                ++i;
            const std::size_t digitsStart = i;
            long value = 0;
            while (i < base.size() && std::isdigit(static_cast<unsigned char>(base[i])) &&
                   i - digitsStart < 9) {
                value = value * 10 + (base[i] - '0');
                ++i;
            }
            if (i > digitsStart && (!found || at >= foundAt)) {
                found = value;
                foundAt = at;
            }
        }
    }
    return found;
}

} // namespace wb
