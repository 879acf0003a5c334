#include "import/nccl_kernel_name.h"

#include <algorithm>
#include <array>

namespace wb {

namespace {

bool startsWith(std::string_view s, std::string_view p) {
    return s.substr(0, p.size()) == p;
}

// Longest names first so that COLLNET_DIRECT is not read as COLLNET.
constexpr std::array<std::string_view, 8> kAlgorithms = {
    "COLLNET_DIRECT", "COLLNET_CHAIN", "NVLS_TREE", "COLLNET", "NVLS", "RING", "TREE", "PAT"};
constexpr std::array<std::string_view, 3> kProtocols = {"LL128", "LL", "SIMPLE"};

// Takes `word` and the '_' after it off the front of `rest` when it is one of `words`.
template <std::size_t N>
std::string takeWord(std::string_view& rest, const std::array<std::string_view, N>& words) {
    for (const auto w : words) {
        if (startsWith(rest, w) && (rest.size() == w.size() || rest[w.size()] == '_')) {
            rest.remove_prefix(std::min(rest.size(), w.size() + 1));
            return std::string(w);
        }
    }
    return {};
}

} // namespace

std::optional<NcclKernelName> parseNcclKernelName(std::string_view name) {
    if (startsWith(name, "void "))
        name.remove_prefix(5);
    NcclKernelName out;
    std::string_view rest;
    if (startsWith(name, "ncclDevKernel_")) {
        rest = name.substr(14);
        out.era = "2.19+";
    } else if (startsWith(name, "ncclKernel_")) {
        rest = name.substr(11);
    } else {
        return std::nullopt;
    }
    const std::size_t paren = rest.find('(');
    const std::string_view params = paren == std::string_view::npos ? "" : rest.substr(paren);
    rest = rest.substr(0, paren);
    if (out.era.empty()) {
        if (params.find("ncclWorkElem") != std::string_view::npos)
            out.era = "<=2.12";
        else if (params.find("ncclDevComm") != std::string_view::npos)
            out.era = "2.13-2.18";
    }
    const std::size_t underscore = rest.find('_');
    out.collective = std::string(rest.substr(0, underscore));
    rest = underscore == std::string_view::npos ? std::string_view() : rest.substr(underscore + 1);
    out.algorithm = takeWord(rest, kAlgorithms);
    out.protocol = takeWord(rest, kProtocols);
    if (out.collective.empty())
        return std::nullopt;
    return out;
}

} // namespace wb
