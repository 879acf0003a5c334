#include "summary/summary_wire.h"

#include "summary/process_group.h"

#include <nlohmann/json.hpp>

namespace wb {

namespace {

using WJ = nlohmann::json;

std::string wireBytes(const WJ& j) {
    const std::vector<std::uint8_t> bytes = WJ::to_msgpack(j);
    return {bytes.begin(), bytes.end()};
}

WJ wireJson(const std::string& bytes) {
    try {
        return WJ::from_msgpack(bytes);
    } catch (const WJ::exception& e) {
        throw ProcessGroupError(std::string("a message between processes did not decode: ") +
                                e.what());
    }
}

WJ optionalWire(const std::optional<long>& v) {
    return v ? WJ(*v) : WJ(nullptr);
}
std::optional<long> optionalFromWire(const WJ& j) {
    return j.is_null() ? std::nullopt : std::optional<long>(j.get<long>());
}

WJ shortestWire(const ShortestCalls& c) {
    return WJ{{"kinds", c.byKind}, {"has_ranks", c.hasRanks}};
}
ShortestCalls shortestFromWire(const WJ& j) {
    return {.byKind = j.at("kinds").get<std::map<std::string, std::vector<std::int64_t>>>(),
            .hasRanks = j.at("has_ranks").get<bool>()};
}

// Every field of RankFigures, so nothing is rounded on the way.
WJ figuresWire(const RankFigures& f) {
    return WJ::array({f.windowUs, f.computeUs, f.commUs, f.overlapUs, f.overlapPct, f.exposedCommUs,
                      f.waitUs, f.idleUs, f.collectives, f.steps});
}
RankFigures figuresFromWire(const WJ& j) {
    RankFigures f;
    f.windowUs = j.at(0).get<double>();
    f.computeUs = j.at(1).get<double>();
    f.commUs = j.at(2).get<double>();
    f.overlapUs = j.at(3).get<double>();
    f.overlapPct = j.at(4).get<double>();
    f.exposedCommUs = j.at(5).get<double>();
    f.waitUs = j.at(6).get<double>();
    f.idleUs = j.at(7).get<double>();
    f.collectives = j.at(8).get<int>();
    f.steps = j.at(9).get<int>();
    return f;
}

WJ kernelWire(const JobSummaryKernel& k) {
    return WJ::array({k.name, k.type, k.count, k.totalUs, k.sharePct, k.meanUs, k.p50Us, k.p99Us});
}
JobSummaryKernel kernelFromWire(const WJ& j) {
    return {.name = j.at(0).get<std::string>(),
            .type = j.at(1).get<std::string>(),
            .count = j.at(2).get<std::int64_t>(),
            .totalUs = j.at(3).get<double>(),
            .sharePct = j.at(4).get<double>(),
            .meanUs = j.at(5).get<double>(),
            .p50Us = j.at(6).get<double>(),
            .p99Us = j.at(7).get<double>()};
}

WJ infoWire(const RankFileInfo& i) {
    WJ kernels = WJ::array();
    for (const JobSummaryKernel& k : i.topKernels)
        kernels.push_back(kernelWire(k));
    return WJ{{"index", i.index},
              {"error", i.error},
              {"given_rank", optionalWire(i.givenRank)},
              {"rank_source", i.rankSource},
              {"world_size", optionalWire(i.worldSize)},
              {"bytes", i.bytes},
              {"hash", i.hash},
              {"seconds", i.seconds},
              {"kernels", std::move(kernels)}};
}
RankFileInfo infoFromWire(const WJ& j) {
    RankFileInfo i;
    i.index = j.at("index").get<std::size_t>();
    i.error = j.at("error").get<std::string>();
    i.givenRank = optionalFromWire(j.at("given_rank"));
    i.rankSource = j.at("rank_source").get<std::string>();
    i.worldSize = optionalFromWire(j.at("world_size"));
    i.bytes = j.at("bytes").get<std::uint64_t>();
    i.hash = j.at("hash").get<std::string>();
    i.seconds = j.at("seconds").get<double>();
    for (const WJ& k : j.at("kernels"))
        i.topKernels.push_back(kernelFromWire(k));
    return i;
}

WJ breakdownWire(const RankBreakdown& b) {
    WJ steps = WJ::array();
    for (const StepFigures& s : b.steps)
        steps.push_back(WJ::array(
            {s.step.number, s.step.startNs, s.step.endNs, s.stepUs, figuresWire(s.figures)}));
    return WJ{{"whole", figuresWire(b.whole)}, {"steps", std::move(steps)}};
}
RankBreakdown breakdownFromWire(const WJ& j) {
    RankBreakdown b;
    b.whole = figuresFromWire(j.at("whole"));
    for (const WJ& s : j.at("steps"))
        b.steps.push_back({.step = {.number = s.at(0).get<long>(),
                                    .startNs = s.at(1).get<std::int64_t>(),
                                    .endNs = s.at(2).get<std::int64_t>()},
                           .stepUs = s.at(3).get<double>(),
                           .figures = figuresFromWire(s.at(4))});
    return b;
}

// Decoding is the same build's own output; a field that is not there means a broken message.
template <typename F> auto decodeWith(const std::string& bytes, F&& read) {
    const WJ j = wireJson(bytes);
    try {
        return read(j);
    } catch (const WJ::exception& e) {
        throw ProcessGroupError(std::string("a message between processes is malformed: ") +
                                e.what());
    }
}

} // namespace

std::string encodePlan(const SummaryPlan& plan) {
    return wireBytes(WJ{{"files", plan.files},
                        {"bytes", plan.bytes},
                        {"reader", plan.reader},
                        {"problem_paths", plan.problemPaths},
                        {"problems", plan.problems}});
}

SummaryPlan decodePlan(const std::string& bytes) {
    return decodeWith(bytes, [](const WJ& j) {
        return SummaryPlan{.files = j.at("files").get<std::vector<std::string>>(),
                           .bytes = j.at("bytes").get<std::vector<std::uint64_t>>(),
                           .reader = j.at("reader").get<std::vector<int>>(),
                           .problemPaths = j.at("problem_paths").get<std::vector<std::string>>(),
                           .problems = j.at("problems").get<std::vector<std::string>>()};
    });
}

std::string encodeShortestCalls(const JobShortestCalls& calls) {
    WJ steps = WJ::array();
    for (const auto& [number, c] : calls.byStep)
        steps.push_back(WJ::array({number, shortestWire(c)}));
    return wireBytes(WJ{{"whole", shortestWire(calls.whole)}, {"steps", std::move(steps)}});
}

JobShortestCalls decodeShortestCalls(const std::string& bytes) {
    return decodeWith(bytes, [](const WJ& j) {
        JobShortestCalls c;
        c.whole = shortestFromWire(j.at("whole"));
        for (const WJ& s : j.at("steps"))
            c.byStep[s.at(0).get<long>()] = shortestFromWire(s.at(1));
        return c;
    });
}

std::string encodeProcessResults(const ProcessResults& results) {
    WJ files = WJ::array();
    for (const RankFileResult& f : results.files)
        files.push_back(WJ{{"info", infoWire(f.info)}, {"breakdown", breakdownWire(f.breakdown)}});
    return wireBytes(
        WJ{{"host", results.host}, {"seconds", results.seconds}, {"files", std::move(files)}});
}

ProcessResults decodeProcessResults(const std::string& bytes) {
    return decodeWith(bytes, [](const WJ& j) {
        ProcessResults r;
        r.host = j.at("host").get<std::string>();
        r.seconds = j.at("seconds").get<double>();
        for (const WJ& f : j.at("files"))
            r.files.push_back({.info = infoFromWire(f.at("info")),
                               .breakdown = breakdownFromWire(f.at("breakdown"))});
        return r;
    });
}

} // namespace wb
