#include "summary/process_group.h"

#include <array>
#include <unistd.h>

namespace wb {

std::string SingleProcess::hostName() const {
    std::array<char, 256> name{};
    if (gethostname(name.data(), name.size() - 1) != 0)
        return "localhost";
    return name.data();
}

} // namespace wb
