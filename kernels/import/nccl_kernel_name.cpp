#include "import/nccl_kernel_name.h"

#include <array>

namespace wb {

namespace {

bool imtStartsWith(std::string_view s, std::string_view p) {
    return s.substr(0, p.size()) == p;
}

bool imtEndsWith(std::string_view s, std::string_view p) {
    return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

// Longest names first so that COLLNET_DIRECT is not read as COLLNET.
constexpr std::array<std::string_view, 8> kAlgorithms = {
    "COLLNET_DIRECT", "COLLNET_CHAIN", "NVLS_TREE", "COLLNET", "NVLS", "RING", "TREE", "PAT"};
constexpr std::array<std::string_view, 3> kProtocols = {"LL128", "LL", "SIMPLE"};

// The first of `words` that stands whole ('_'-separated) in `tokens`, searching from
// `from`; `at` is set past it. The words themselves may hold '_' (COLLNET_DIRECT).
template <std::size_t N>
std::string imtFindToken(std::string_view tokens, std::size_t from,
                         const std::array<std::string_view, N>& words, std::size_t& at) {
    std::size_t i = from;
    while (i < tokens.size()) {
        const std::string_view rest = tokens.substr(i);
        for (const auto w : words) {
            if (imtStartsWith(rest, w) && (rest.size() == w.size() || rest[w.size()] == '_')) {
                at = i + w.size();
                return std::string(w);
            }
        }
        const std::size_t next = tokens.find('_', i);
        if (next == std::string_view::npos)
            break;
        i = next + 1;
    }
    return {};
}

// 2.8 and later: Collective_ALGO_PROTO_Op_type up to 2.18; from 2.19 Collective_ALGO_PROTO
// or, for the kernels specialised by reduction, Collective_Op_type_ALGO_PROTO. `rest` is
// the part after the prefix, without the parameters.
void imtReadUnderscoreName(std::string_view rest, NcclKernelName& out) {
    const std::size_t underscore = rest.find('_');
    out.collective = std::string(rest.substr(0, underscore));
    if (underscore == std::string_view::npos)
        return;
    std::size_t at = underscore + 1;
    out.algorithm = imtFindToken(rest, underscore + 1, kAlgorithms, at);
    out.protocol = imtFindToken(rest, at, kProtocols, at);
}

// ≤ 2.7: ncclAllReduceRingLLKernel_sum_f32: the collective, then the algorithm and the
// protocol in CamelCase, then "Kernel"; `stem` is "AllReduceRingLL". A part the name
// leaves out (SendRecv has neither) stays empty.
void imtReadCamelName(std::string_view stem, NcclKernelName& out) {
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 3> protocols = {
        {{"LL128", "LL128"}, {"LL", "LL"}, {"Simple", "SIMPLE"}}};
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 5> algorithms = {
        {{"CollNetDirect", "COLLNET_DIRECT"},
         {"CollNetChain", "COLLNET_CHAIN"},
         {"CollNet", "COLLNET"},
         {"Ring", "RING"},
         {"Tree", "TREE"}}};
    for (const auto& [camel, upper] : protocols)
        if (imtEndsWith(stem, camel)) {
            out.protocol = std::string(upper);
            stem.remove_suffix(camel.size());
            break;
        }
    for (const auto& [camel, upper] : algorithms)
        if (imtEndsWith(stem, camel)) {
            out.algorithm = std::string(upper);
            stem.remove_suffix(camel.size());
            break;
        }
    out.collective = std::string(stem);
}

} // namespace

std::optional<NcclKernelName> parseNcclKernelName(std::string_view name) {
    if (imtStartsWith(name, "void "))
        name.remove_prefix(5);
    const std::size_t paren = name.find('(');
    const std::string_view params = paren == std::string_view::npos ? "" : name.substr(paren);
    name = name.substr(0, paren);
    NcclKernelName out;
    if (imtStartsWith(name, "ncclDevKernel_")) {
        out.era = "2.19+";
        imtReadUnderscoreName(name.substr(14), out);
    } else if (imtStartsWith(name, "ncclSymDevKernel_") ||
               imtStartsWith(name, "ncclSymkDevKernel_")) {
        // Symmetric-memory kernels name their own variants (AGxLL_R, RSxLD_AGxST), not an
        // NCCL algorithm.
        out.era = "2.27+";
        imtReadUnderscoreName(name.substr(name.find('_') + 1), out);
        out.algorithm.clear();
    } else if (imtStartsWith(name, "ncclKernel_")) {
        if (params.find("ncclWorkElem") != std::string_view::npos)
            out.era = "<=2.12";
        else if (params.find("ncclDevComm") != std::string_view::npos)
            out.era = "2.13-2.18";
        imtReadUnderscoreName(name.substr(11), out);
    } else if (imtStartsWith(name, "nccl") && name.size() > 4 && name[4] >= 'A' && name[4] <= 'Z') {
        // ncclAllReduceRingLLKernel_sum_f32, ncclSendRecvKernel_copy_i8: the first word of
        // the name ends in "Kernel" (host functions such as ncclAllReduce do not).
        const std::string_view word = name.substr(0, name.find('_'));
        if (!imtEndsWith(word, "Kernel") || word.size() == 10)
            return std::nullopt;
        out.era = "<=2.7";
        imtReadCamelName(word.substr(4, word.size() - 10), out);
    } else {
        return std::nullopt;
    }
    if (out.collective.empty())
        return std::nullopt;
    return out;
}

} // namespace wb
