#include "summary/job_summary.h"

#include "trace/json_syntax_error.h"
#include "triage/triage_json.h"

#include <cmath>
#include <fstream>
#include <sstream>

namespace wb {

namespace {

using OJ = nlohmann::ordered_json;
// Read in order too: the provenance comes back as written (ordered objects compare in order).
using J = nlohmann::ordered_json;

// A rank's or a step's figures beyond import's per_rank keys, so a summary reads back to the
// figures it was written from.
void putFigureExtras(OJ& o, const RankFigures& f) {
    o["overlap_us"] = f.overlapUs;
    o["collectives"] = f.collectives;
}

// A step as one row of kJobSummaryStepColumns: 16,384 ranks × their steps are most of a
// summary, and keys repeated in every step made it half again as large and slower to open.
OJ stepRow(const JobSummaryStep& s) {
    const RankFigures& f = s.figures;
    return OJ::array({s.number, s.stepUs, f.windowUs, f.computeUs, f.commUs, f.exposedCommUs,
                      f.overlapPct, f.idleUs, f.waitUs, f.overlapUs, f.collectives});
}

OJ kernelJson(const JobSummaryKernel& k) {
    return OJ{{"kernel", k.name},      {"type", k.type},          {"count", k.count},
              {"total_us", k.totalUs}, {"share_pct", k.sharePct}, {"mean_us", k.meanUs},
              {"p50_us", k.p50Us},     {"p99_us", k.p99Us}};
}

// Reading: every access names its JSON path, built only when something is wrong.
class SummaryFields {
public:
    explicit SummaryFields(std::string name)
        : name_(std::move(name)) {}

    [[noreturn]] void fail(const std::string& at, const std::string& what) const {
        throw JobSummaryError(name_ + ": " + (at.empty() ? "/" : at) + ": " + what);
    }
    const J& field(const J& obj, const char* key, const std::string& at) const {
        if (!obj.is_object())
            fail(at, std::string("expected an object, found ") + obj.type_name());
        const auto it = obj.find(key);
        if (it == obj.end())
            fail(at, std::string("missing \"") + key + "\"");
        return *it;
    }
    double number(const J& obj, const char* key, const std::string& at) const {
        const J& v = field(obj, key, at);
        if (!v.is_number())
            fail(at + "/" + key, std::string("expected a number, found ") + v.type_name());
        const double d = v.get<double>();
        if (!std::isfinite(d))
            fail(at + "/" + key, "a number too large");
        return d;
    }
    std::int64_t integer(const J& obj, const char* key, const std::string& at) const {
        const J& v = field(obj, key, at);
        if (!v.is_number_integer())
            fail(at + "/" + key, std::string("expected an integer, found ") + v.type_name());
        return v.get<std::int64_t>();
    }
    std::string text(const J& obj, const char* key, const std::string& at) const {
        const J& v = field(obj, key, at);
        if (!v.is_string())
            fail(at + "/" + key, std::string("expected a string, found ") + v.type_name());
        return v.get<std::string>();
    }
    bool flag(const J& obj, const char* key, const std::string& at) const {
        const J& v = field(obj, key, at);
        if (!v.is_boolean())
            fail(at + "/" + key, std::string("expected true or false, found ") + v.type_name());
        return v.get<bool>();
    }
    // The value at `index` of a row (a step): a finite number, or an integer.
    double numberAt(const J& row, std::size_t index, const std::string& at) const {
        const J& v = row[index];
        if (!v.is_number() || !std::isfinite(v.get<double>()))
            fail(at + "/" + std::to_string(index) + " (" + kJobSummaryStepColumns[index] + ")",
                 std::string("expected a finite number, found ") + v.type_name());
        return v.get<double>();
    }
    std::int64_t integerAt(const J& row, std::size_t index, const std::string& at) const {
        const J& v = row[index];
        if (!v.is_number_integer())
            fail(at + "/" + std::to_string(index) + " (" + kJobSummaryStepColumns[index] + ")",
                 std::string("expected an integer, found ") + v.type_name());
        return v.get<std::int64_t>();
    }
    const J& array(const J& obj, const char* key, const std::string& at) const {
        const J& v = field(obj, key, at);
        if (!v.is_array())
            fail(at + "/" + key, std::string("expected an array, found ") + v.type_name());
        return v;
    }

    // import's per_rank keys plus the extras.
    RankFigures figures(const J& o, long rank, const std::string& at) const {
        RankFigures f;
        f.rank = rank;
        for (const RankFigureKey& k : kRankFigureKeys)
            f.*k.field = number(o, k.key, at);
        return f;
    }
    void figureExtras(const J& o, RankFigures& f, const std::string& at) const {
        f.overlapUs = number(o, "overlap_us", at);
        f.collectives = static_cast<int>(integer(o, "collectives", at));
    }

private:
    std::string name_;
};

} // namespace

OJ jobSummaryJson(const JobSummary& s) {
    OJ out;
    out["format"] = kJobSummaryFormat;
    out["version"] = kJobSummaryVersion;
    out["ranks"] = s.ranks.size();
    out["world_size"] = s.worldSize;
    TriageVerdict verdict;
    verdict.verdict = s.verdict;
    verdict.stragglerRank = s.stragglerRank;
    verdict.evidence = s.evidence;
    std::vector<RankFigures> whole;
    for (const JobSummaryRank& r : s.ranks)
        whole.push_back(r.whole);
    putTriageJson(out, verdict, whole);
    out["stragglers"] = {{"median_compute_us", s.stragglerMedianComputeUs},
                         {"threshold_us", s.stragglerThresholdUs},
                         {"candidates", s.stragglerCandidates},
                         {"evidence", s.stragglerEvidence}};
    out["step_columns"] = kJobSummaryStepColumns;
    OJ details = OJ::array();
    for (const JobSummaryRank& r : s.ranks) {
        OJ d;
        d["rank"] = r.whole.rank;
        d["file"] = r.file;
        d["rank_source"] = r.rankSource;
        d["profiler_steps"] = r.whole.steps;
        putFigureExtras(d, r.whole);
        d["median_compute_us"] = r.medianComputeUs;
        d["robust_z"] = r.robustZ;
        d["candidate"] = r.candidate;
        OJ steps = OJ::array();
        for (const JobSummaryStep& st : r.steps)
            steps.push_back(stepRow(st));
        d["steps"] = std::move(steps);
        OJ kernels = OJ::array();
        for (const JobSummaryKernel& k : r.topKernels)
            kernels.push_back(kernelJson(k));
        d["top_kernels"] = std::move(kernels);
        details.push_back(std::move(d));
    }
    out["rank_details"] = std::move(details);
    OJ failed = OJ::array();
    for (const JobSummaryFailure& f : s.failed)
        failed.push_back({{"path", f.path}, {"reason", f.reason}});
    out["failed"] = std::move(failed);
    out["processes"] = s.processes;
    out["provenance"] = s.provenance;
    return out;
}

JobSummary parseJobSummary(std::string_view text, const std::string& name) {
    J doc;
    try {
        doc = J::parse(text.begin(), text.end());
    } catch (const J::exception&) {
        throw JobSummaryError(name + ": " + jsonSyntaxError(text).message);
    }
    const SummaryFields in(name);
    if (!doc.is_object())
        in.fail("", std::string("expected a job summary object, found ") + doc.type_name());
    if (in.text(doc, "format", "") != kJobSummaryFormat)
        in.fail("/format",
                std::string("not a job summary (expected \"") + kJobSummaryFormat + "\")");
    if (const auto version = in.integer(doc, "version", ""); version != kJobSummaryVersion)
        in.fail("/version", "version " + std::to_string(version) + " (this Warpboard reads " +
                                std::to_string(kJobSummaryVersion) + ")");
    JobSummary s;
    s.worldSize = static_cast<long>(in.integer(doc, "world_size", ""));
    s.verdict = in.text(doc, "verdict", "");
    if (const J& r = in.field(doc, "straggler_rank", ""); !r.is_null()) {
        if (!r.is_number_integer())
            in.fail("/straggler_rank",
                    std::string("expected an integer or null, found ") + r.type_name());
        s.stragglerRank = r.get<long>();
    }
    s.evidence = in.text(doc, "evidence", "");
    const J& str = in.field(doc, "stragglers", "");
    s.stragglerMedianComputeUs = in.number(str, "median_compute_us", "/stragglers");
    s.stragglerThresholdUs = in.number(str, "threshold_us", "/stragglers");
    const J& candidates = in.array(str, "candidates", "/stragglers");
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        if (!candidates[i].is_number_integer())
            in.fail("/stragglers/candidates/" + std::to_string(i), "expected an integer");
        s.stragglerCandidates.push_back(candidates[i].get<long>());
    }
    const J& evidence = in.array(str, "evidence", "/stragglers");
    for (std::size_t i = 0; i < evidence.size(); ++i) {
        if (!evidence[i].is_string())
            in.fail("/stragglers/evidence/" + std::to_string(i), "expected a string");
        s.stragglerEvidence.push_back(evidence[i].get<std::string>());
    }

    if (in.field(doc, "step_columns", "") != J(kJobSummaryStepColumns))
        in.fail("/step_columns", "expected " + J(kJobSummaryStepColumns).dump());
    const J& perRank = in.array(doc, "per_rank", "");
    const J& details = in.array(doc, "rank_details", "");
    if (perRank.size() != details.size())
        in.fail("/rank_details", std::to_string(details.size()) + " ranks, but per_rank has " +
                                     std::to_string(perRank.size()));
    s.ranks.reserve(details.size());
    for (std::size_t i = 0; i < details.size(); ++i) {
        const std::string at = "/rank_details/" + std::to_string(i);
        const std::string perAt = "/per_rank/" + std::to_string(i);
        const J& d = details[i];
        JobSummaryRank r;
        const long rank = static_cast<long>(in.integer(d, "rank", at));
        if (in.integer(perRank[i], "rank", perAt) != rank)
            in.fail(perAt + "/rank", "rank differs from " + at + "/rank");
        r.whole = in.figures(perRank[i], rank, perAt);
        in.figureExtras(d, r.whole, at);
        r.whole.steps = static_cast<int>(in.integer(d, "profiler_steps", at));
        r.file = in.text(d, "file", at);
        r.rankSource = in.text(d, "rank_source", at);
        r.medianComputeUs = in.number(d, "median_compute_us", at);
        r.robustZ = in.number(d, "robust_z", at);
        r.candidate = in.flag(d, "candidate", at);
        const J& steps = in.array(d, "steps", at);
        r.steps.reserve(steps.size());
        for (std::size_t k = 0; k < steps.size(); ++k) {
            const std::string sat = at + "/steps/" + std::to_string(k);
            const J& row = steps[k];
            if (!row.is_array() || row.size() != kJobSummaryStepColumns.size())
                in.fail(sat, "expected a row of " + std::to_string(kJobSummaryStepColumns.size()) +
                                 " values (step_columns)");
            JobSummaryStep st;
            st.number = static_cast<long>(in.integerAt(row, 0, sat));
            st.stepUs = in.numberAt(row, 1, sat);
            RankFigures& f = st.figures;
            f.rank = rank;
            f.windowUs = in.numberAt(row, 2, sat);
            f.computeUs = in.numberAt(row, 3, sat);
            f.commUs = in.numberAt(row, 4, sat);
            f.exposedCommUs = in.numberAt(row, 5, sat);
            f.overlapPct = in.numberAt(row, 6, sat);
            f.idleUs = in.numberAt(row, 7, sat);
            f.waitUs = in.numberAt(row, 8, sat);
            f.overlapUs = in.numberAt(row, 9, sat);
            f.collectives = static_cast<int>(in.integerAt(row, 10, sat));
            f.steps = r.whole.steps; // the trace's annotations, as measured per step
            r.steps.push_back(std::move(st));
        }
        const J& kernels = in.array(d, "top_kernels", at);
        for (std::size_t k = 0; k < kernels.size(); ++k) {
            const std::string kat = at + "/top_kernels/" + std::to_string(k);
            const J& o = kernels[k];
            r.topKernels.push_back({.name = in.text(o, "kernel", kat),
                                    .type = in.text(o, "type", kat),
                                    .count = in.integer(o, "count", kat),
                                    .totalUs = in.number(o, "total_us", kat),
                                    .sharePct = in.number(o, "share_pct", kat),
                                    .meanUs = in.number(o, "mean_us", kat),
                                    .p50Us = in.number(o, "p50_us", kat),
                                    .p99Us = in.number(o, "p99_us", kat)});
        }
        s.ranks.push_back(std::move(r));
    }
    const J& failed = in.array(doc, "failed", "");
    for (std::size_t i = 0; i < failed.size(); ++i) {
        const std::string at = "/failed/" + std::to_string(i);
        s.failed.push_back(
            {.path = in.text(failed[i], "path", at), .reason = in.text(failed[i], "reason", at)});
    }
    s.processes = static_cast<int>(in.integer(doc, "processes", ""));
    const J& provenance = in.field(doc, "provenance", "");
    if (!provenance.is_object())
        in.fail("/provenance", std::string("expected an object, found ") + provenance.type_name());
    s.provenance = provenance;
    return s;
}

JobSummary readJobSummary(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw JobSummaryError("cannot open '" + path + "'");
    std::ostringstream bytes;
    bytes << file.rdbuf();
    return parseJobSummary(bytes.str(), path);
}

} // namespace wb
