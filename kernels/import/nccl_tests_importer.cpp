#include "import/nccl_tests_importer.h"

#include "import/importers.h"
#include "import/line_reader.h"
#include "import/text_scan.h"
#include "import/watchdog_log_importer.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace wb {

namespace {

// "run(), common.cu:1083, ": a logging wrapper's "function(), file:line, " before the text
// (seen on nccl-tests header lines that mpirun captured); its length, 0 when absent.
std::size_t imlCallSitePrefix(std::string_view s) {
    const auto call = s.find("(), ");
    if (call == std::string_view::npos || call == 0 || call > 64)
        return 0;
    for (std::size_t i = 0; i < call; ++i)
        if (!std::isalnum(static_cast<unsigned char>(s[i])) && s[i] != '_' && s[i] != ':')
            return 0;
    const auto comma = s.find(", ", call + 4);
    if (comma == std::string_view::npos)
        return 0;
    const auto where = s.substr(call + 4, comma - call - 4);
    const auto colon = where.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || !text::parseInt(where.substr(colon + 1)) ||
        where.find(' ') != std::string_view::npos)
        return 0;
    return comma + 2;
}

// Strips launcher tags: srun "0: ", OpenMPI "[1,0]<stdout>:", "[0]" rank tags and a logging
// wrapper's "function(), file:line, ".
std::string_view stripPrefixes(std::string_view s) {
    for (;;) {
        if (const auto n = imlCallSitePrefix(s)) {
            s.remove_prefix(n);
            continue;
        }
        std::size_t i = 0;
        while (i < s.size() && s[i] == ' ')
            ++i;
        std::size_t j = i;
        while (j < s.size() && s[j] >= '0' && s[j] <= '9')
            ++j;
        if (j > i && j + 1 < s.size() + 1 && j < s.size() && s[j] == ':' &&
            (j + 1 == s.size() || s[j + 1] == ' ')) {
            s.remove_prefix(std::min(s.size(), j + 2));
            continue;
        }
        if (!s.empty() && s.front() == '[') {
            const auto close = s.find(']');
            if (close != std::string_view::npos && close < 16) {
                const auto inner = s.substr(1, close - 1);
                if (!inner.empty() && inner.find_first_not_of("0123456789,") == inner.npos) {
                    auto rest = s.substr(close + 1);
                    if (text::startsWith(rest, "<stdout>:") || text::startsWith(rest, "<stderr>:"))
                        rest.remove_prefix(9);
                    s = rest;
                    continue;
                }
            }
        }
        return s;
    }
}

// An nccl-tests "# …" header line behind a prefix nobody stripped: where its '#' is, or npos.
std::size_t imlHeaderCommentAt(std::string_view s) {
    const auto hash = s.find('#');
    if (hash == std::string_view::npos || hash == 0)
        return std::string_view::npos;
    const auto body = text::trim(s.substr(hash + 1));
    for (std::string_view k : {"nThread ", "Rank ", "Using devices", "size ", "(B)", "out-of-place",
                               "Out of bounds values", "Avg bus bandwidth", "nccl-tests version",
                               "Collective test starting"})
        if (text::startsWith(body, k))
            return hash;
    return std::string_view::npos;
}

struct Layout {
    std::size_t lead = 0;    // columns before the first "time"
    std::size_t inPlace = 0; // column of the second "time"
    std::size_t columns = 0; // every named column (newer builds add #bitdiff, i_min, ...)
    bool hasRedop = false, hasRoot = false, errorColumn = false;
    std::size_t total() const { return columns; }
};

bool isTimeColumn(std::string_view c) {
    return c == "time" || c == "cputime";
}

class TableReader {
public:
    explicit TableReader(NcclTestsResult& r)
        : m_r(r) {}

    // Returns an error message for a malformed row, empty when fine.
    std::string comment(std::string_view t) { return commentBody(text::trim(t.substr(1))); }

    // A "# …" line without its '#' (old builds print the footer without one).
    std::string commentBody(std::string_view body) {
        std::string err;
        if (!m_tokens.empty())
            err = "row starting at line " + std::to_string(m_rowLine) + " is cut short";
        m_tokens.clear();
        const auto toks = text::splitWhitespace(body);
        if (toks.size() >= 8 && toks[0] == "size" && toks[1] == "count") {
            Layout l;
            l.columns = toks.size();
            while (l.lead < toks.size() && !isTimeColumn(toks[l.lead]))
                ++l.lead;
            l.inPlace = l.lead + 1;
            while (l.inPlace < toks.size() && !isTimeColumn(toks[l.inPlace]))
                ++l.inPlace;
            const auto leadEnd = toks.begin() + static_cast<long>(std::min(l.lead, toks.size()));
            l.hasRedop = std::find(toks.begin(), leadEnd, "redop") != leadEnd;
            l.hasRoot = std::find(toks.begin(), leadEnd, "root") != leadEnd;
            l.errorColumn = body.find("#wrong") == std::string_view::npos;
            // A trailing "timestamp" column prints a date with spaces: not a fixed token count.
            const bool stamped = toks.back() == "timestamp";
            if (l.lead >= 3 && l.lead + 4 <= l.inPlace && l.inPlace + 4 <= toks.size() && !stamped)
                m_layout = l;
            m_unitsOnly = false;
            m_r.complete = false;
        } else if (toks.size() >= 4 && toks[0] == "(B)" && toks[1] == "(elements)") {
            // A pasted table may start at the units line: the first row gives the layout.
            if (!m_layout)
                m_unitsOnly = true;
        } else if (text::startsWith(body, "Rank ")) {
            m_r.rankLines.emplace_back(body);
        } else if (text::startsWith(body, "nThread ")) {
            m_r.params = std::string(body);
        } else if (text::startsWith(body, "Collective test starting:")) {
            m_r.test = std::string(text::trim(body.substr(25)));
        } else if (text::startsWith(body, "nccl-tests version")) {
            m_r.version = std::string(text::trim(body.substr(18)));
        } else if (text::startsWith(body, "Out of bounds values")) {
            const auto c = body.find(':');
            if (c != body.npos) {
                const auto v = text::splitWhitespace(body.substr(c + 1));
                if (!v.empty())
                    m_r.outOfBounds = text::parseInt(v[0]);
            }
        } else if (text::startsWith(body, "Avg bus bandwidth")) {
            const auto c = body.find(':');
            if (c != body.npos)
                m_r.avgBusbw = text::parseDouble(text::trim(body.substr(c + 1)));
            m_r.complete = true;
        }
        return err;
    }

    // Table text (not a comment); returns an error message for a malformed row.
    std::string data(std::string_view t, std::uint64_t line) {
        const auto toks = text::splitWhitespace(t);
        if (!m_layout && m_unitsOnly && !toks.empty() && text::parseInt(toks[0]))
            m_layout = layoutFromRow(toks);
        if (!m_layout)
            return {};
        if (toks.empty())
            return {};
        if (m_tokens.empty() && !text::parseInt(toks[0])) {
            m_r.skippedLines++; // "..." elisions, stray application output
            return {};
        }
        for (auto tok : toks) {
            if (tok.size() >= 3 && tok.front() == '[' && tok.back() == ']')
                continue; // mid-line "[0]" rank tags
            if (m_tokens.empty())
                m_rowLine = line;
            m_tokens.emplace_back(tok);
            if (m_tokens.size() == m_layout->total()) {
                auto err = finishRow();
                if (!err.empty())
                    return err;
            }
        }
        return {};
    }

    bool pending() const { return !m_tokens.empty(); }
    std::uint64_t pendingLine() const { return m_rowLine; }
    bool hasLayout() const { return m_layout.has_value(); }

private:
    // The columns of a table without its header line, from its first row: size, count and
    // type, then redop and/or root (redop is a word, root a number), then two groups of time,
    // algbw, busbw and #wrong (an integer) or error (N/A or a float such as 0e+00).
    static std::optional<Layout> layoutFromRow(const std::vector<std::string_view>& toks) {
        if (toks.size() < 11 || toks.size() > 13)
            return std::nullopt;
        Layout l;
        l.columns = toks.size();
        l.lead = toks.size() - 8;
        l.inPlace = l.lead + 4;
        if (l.lead == 5) {
            l.hasRedop = l.hasRoot = true;
        } else if (l.lead == 4) {
            l.hasRoot = text::parseInt(toks[3]).has_value();
            l.hasRedop = !l.hasRoot;
        }
        const auto check = toks[l.lead + 3];
        l.errorColumn = check == "N/A" || !text::parseInt(check);
        return l;
    }

    std::string bad(std::size_t i, const char* what) {
        std::string m = "row starting at line " + std::to_string(m_rowLine) + ": expected ";
        m.append(what).append(" in column ").append(std::to_string(i + 1)).append(", found \"");
        m.append(m_tokens[i]).append("\"");
        m_tokens.clear();
        return m;
    }

    std::string place(std::size_t at, NcclTestsPlace& p) {
        const auto t = text::parseDouble(m_tokens[at]);
        const auto a = text::parseDouble(m_tokens[at + 1]);
        const auto b = text::parseDouble(m_tokens[at + 2]);
        if (!t)
            return bad(at, "a time in us");
        if (!a)
            return bad(at + 1, "an algbw in GB/s");
        if (!b)
            return bad(at + 2, "a busbw in GB/s");
        p.timeUs = *t;
        p.algbw = *a;
        p.busbw = *b;
        const auto& w = m_tokens[at + 3];
        if (w == "N/A")
            return {};
        if (m_layout->errorColumn) {
            p.error = text::parseDouble(w);
            if (!p.error)
                return bad(at + 3, "an error value");
        } else {
            p.wrong = text::parseInt(w);
            if (!p.wrong)
                return bad(at + 3, "a #wrong count");
        }
        return {};
    }

    std::string finishRow() {
        NcclTestsRow row;
        row.line = m_rowLine;
        const auto size = text::parseInt(m_tokens[0]);
        const auto count = text::parseInt(m_tokens[1]);
        if (!size || *size < 0)
            return bad(0, "a size in bytes");
        if (!count || *count < 0)
            return bad(1, "an element count");
        row.size = *size;
        row.count = *count;
        row.type = m_tokens[2];
        std::size_t k = 3;
        if (m_layout->hasRedop && k < m_layout->lead)
            row.redop = m_tokens[k++];
        if (m_layout->hasRoot && k < m_layout->lead) {
            row.root = text::parseInt(m_tokens[k]);
            if (!row.root)
                return bad(k, "a root rank");
        }
        auto err = place(m_layout->lead, row.outOfPlace);
        if (err.empty())
            err = place(m_layout->inPlace, row.inPlace);
        if (!err.empty())
            return err;
        m_tokens.clear();
        m_r.rows.push_back(std::move(row));
        return {};
    }

    NcclTestsResult& m_r;
    std::optional<Layout> m_layout;
    bool m_unitsOnly = false; // the units line came without the column names
    std::vector<std::string> m_tokens;
    std::uint64_t m_rowLine = 0;
};

nlohmann::ordered_json place(const NcclTestsPlace& p, const char* pre) {
    nlohmann::ordered_json j;
    const std::string s(pre);
    j[s + "time_us"] = p.timeUs;
    j[s + "algbw"] = p.algbw;
    j[s + "busbw"] = p.busbw;
    j[s + "wrong"] = p.wrong ? nlohmann::ordered_json(*p.wrong) : nlohmann::ordered_json(nullptr);
    if (p.error)
        j[s + "error"] = *p.error;
    return j;
}

// `-J file.json` output: {"config": {..., "devices": [...]}, "results": [{size, count, type,
// redop, root, out_of_place: {time, alg_bw, bus_bw, nwrong} | null, in_place: ...}],
// "out_of_bounds": {...}, "average_bus_bandwidth": {"bandwidth": x, ...}}. It is a whole
// document, so a cut file is a JSON syntax error (with its byte offset).
std::variant<std::unique_ptr<ImportResult>, ImportError> parseJson(ByteSource& source) {
    auto all = source.readAll();
    if (auto* err = std::get_if<ImportError>(&all))
        return *err;
    ImportError e;
    e.path = source.path();
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(std::get<std::string>(all));
    } catch (const nlohmann::json::parse_error& ex) {
        e.byteOffset = ex.byte;
        e.message = std::string("nccl-tests JSON: ").append(ex.what());
        return e;
    }
    const nlohmann::json* results = nullptr;
    if (doc.is_object() && doc.contains("results"))
        results = &doc["results"];
    else if (doc.is_object())
        for (const auto& [k, v] : doc.items())
            if (v.is_object() && v.contains("results"))
                results = &v["results"];
    if (!results || !results->is_array()) {
        e.message = "nccl-tests JSON: no \"results\" list";
        return e;
    }
    auto r = std::make_unique<NcclTestsResult>();
    r->format = "nccl-tests";
    auto num = [](const nlohmann::json& o, const char* k) -> std::optional<double> {
        if (!o.is_object() || !o.contains(k) || !o[k].is_number())
            return std::nullopt;
        return o[k].get<double>();
    };
    auto placeOf = [&](const nlohmann::json& o, NcclTestsPlace& p) {
        if (!o.is_object())
            return; // null: this run printed no such half (trace replay)
        p.timeUs = num(o, "time").value_or(num(o, "cpu_time").value_or(0.0));
        p.algbw = num(o, "alg_bw").value_or(0.0);
        p.busbw = num(o, "bus_bw").value_or(0.0);
        if (const auto w = num(o, "nwrong"))
            p.wrong = static_cast<std::int64_t>(*w);
    };
    std::size_t index = 0;
    for (const auto& item : *results) {
        if (!item.is_object() || !item.contains("size") || !item["size"].is_number_integer() ||
            !item.contains("count") || !item["count"].is_number_integer()) {
            e.message = "nccl-tests JSON: results[" + std::to_string(index) +
                        "] lacks an integer size or count";
            return e;
        }
        NcclTestsRow row;
        row.size = item["size"].get<std::int64_t>();
        row.count = item["count"].get<std::int64_t>();
        if (item.contains("type") && item["type"].is_string())
            row.type = item["type"].get<std::string>();
        if (item.contains("redop") && item["redop"].is_string())
            row.redop = item["redop"].get<std::string>();
        if (item.contains("root") && item["root"].is_string())
            row.root = text::parseInt(text::trim(item["root"].get_ref<const std::string&>()));
        else if (item.contains("root") && item["root"].is_number_integer())
            row.root = item["root"].get<std::int64_t>();
        if (item.contains("out_of_place"))
            placeOf(item["out_of_place"], row.outOfPlace);
        if (item.contains("in_place"))
            placeOf(item["in_place"], row.inPlace);
        r->rows.push_back(std::move(row));
        ++index;
    }
    if (doc.contains("config") && doc["config"].is_object() && doc["config"].contains("devices") &&
        doc["config"]["devices"].is_array()) {
        std::set<std::int64_t> ranks;
        for (const auto& d : doc["config"]["devices"])
            if (d.is_object() && d.contains("rank") && d["rank"].is_number_integer())
                ranks.insert(d["rank"].get<std::int64_t>());
        if (!ranks.empty())
            r->nranks = static_cast<int>(ranks.size());
    }
    if (doc.contains("average_bus_bandwidth")) {
        r->avgBusbw = num(doc["average_bus_bandwidth"], "bandwidth");
        r->complete = true;
    }
    if (doc.contains("out_of_bounds"))
        if (const auto n = num(doc["out_of_bounds"], "count"))
            r->outOfBounds = static_cast<std::int64_t>(*n);
    return std::unique_ptr<ImportResult>(std::move(r));
}

bool startsJsonObject(std::string_view head) {
    const auto t = text::trim(head);
    return !t.empty() && t.front() == '{';
}

double probeNcclTests(std::string_view head, const std::string&) {
    if (!text::looksLikeText(head))
        return 0.0;
    if (startsJsonObject(head)) // -J output; Chrome traces have none of these keys
        return head.find("\"minimum_bytes\"") != head.npos || head.find("\"bus_bw\"") != head.npos
                   ? 0.9
                   : 0.0;
    if (head.find("# nThread ") != head.npos || head.find("#  Rank ") != head.npos)
        return 0.9;
    // A column header line: "#       size         count      type ..."
    const auto s = head.find("size");
    if (s != head.npos && head.find("count", s) != head.npos &&
        head.find("busbw", s) != head.npos && head.find("algbw", s) != head.npos)
        return 0.9;
    // A table pasted from its units line: "#  (B)  (elements)  (us)  (GB/s)  (GB/s) …"
    const auto units = head.find("(B)");
    if (units != head.npos && head.find("(elements)", units) != head.npos &&
        head.find("(GB/s)", units) != head.npos)
        return 0.85;
    return 0.0;
}

} // namespace

nlohmann::ordered_json NcclTestsResult::summary() const {
    nlohmann::ordered_json out;
    out["path"] = path;
    out["format"] = format;
    // The log's warnings come first in the file's summary, not inside "log" (see NcclLogData).
    auto logSummary = log ? log->nestedSummary(out) : nlohmann::ordered_json();
    auto rs = nlohmann::ordered_json::array();
    for (const auto& r : rows) {
        nlohmann::ordered_json j;
        j["size"] = r.size;
        j["count"] = r.count;
        j["type"] = r.type;
        j["redop"] =
            r.redop.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.redop);
        j["root"] = r.root ? nlohmann::ordered_json(*r.root) : nlohmann::ordered_json(nullptr);
        const auto outP = place(r.outOfPlace, "out_"), inP = place(r.inPlace, "in_");
        for (const auto& [k, v] : outP.items())
            j[k] = v;
        for (const auto& [k, v] : inP.items())
            j[k] = v;
        rs.push_back(std::move(j));
    }
    out["rows"] = std::move(rs);
    if (nranks)
        out["nranks"] = *nranks;
    out["complete"] = complete;
    if (!test.empty())
        out["test"] = test;
    if (avgBusbw)
        out["avg_busbw"] = *avgBusbw;
    if (outOfBounds)
        out["out_of_bounds"] = *outOfBounds;
    out["skipped_lines"] = skippedLines;
    out["bad_rows"] = badRows;
    if (log)
        out["log"] = std::move(logSummary);
    return out;
}

std::variant<std::unique_ptr<ImportResult>, ImportError> parseNcclText(ByteSource& source,
                                                                       const ImportControl& c) {
    if (startsJsonObject(source.head(4096)))
        return parseJson(source);
    LineReader reader(source, c);
    NcclLogParser logParser;
    auto tests = std::make_unique<NcclTestsResult>();
    TableReader table(*tests);
    WatchdogLineReader watchdog;
    std::uint64_t lines = 0, binaryLines = 0;
    while (auto raw = reader.next()) {
        ++lines;
        if (raw->find('\0') != std::string_view::npos) {
            // Shared log files can hold a few binary bytes; a file of them is not a log.
            if (++binaryLines > 16 && binaryLines * 2 > lines)
                return reader.errorHere("binary data (NUL bytes): not a text log or table");
            logParser.data().garbledLines++;
            continue;
        }
        // PyTorch's watchdog timeouts, wherever they are in the log (see below).
        if (watchdog.feed(*raw, reader.lineNumber()))
            continue;
        const auto line = stripPrefixes(*raw);
        auto rest = text::trim(stripPrefixes(logParser.feed(line, reader.lineNumber())));
        if (rest.empty())
            continue;
        if (const auto hash = imlHeaderCommentAt(rest); hash != std::string_view::npos)
            rest.remove_prefix(hash);
        const bool bareFooter = text::startsWith(rest, "Out of bounds values") ||
                                text::startsWith(rest, "Avg bus bandwidth");
        std::string err = rest.front() == '#' ? table.comment(rest)
                          : bareFooter        ? table.commentBody(rest)
                                              : table.data(rest, reader.lineNumber());
        if (err.empty())
            continue;
        // With NCCL INFO lines interleaved (a shared stdout), a garbled row is expected
        // damage: skip and count it. In a plain table it means a corrupted file.
        if (logParser.data().ncclLines == 0)
            return reader.errorHere(std::move(err));
        tests->badRows++;
    }
    if (reader.error())
        return *reader.error();
    logParser.finish();
    auto& log = logParser.data();
    log.complete = reader.lastLineTerminated();
    const auto markCut = [&](ImportResult& r) {
        r.endsMidLine = !reader.lastLineTerminated();
        r.endLine = reader.lineNumber();
        r.endByte = reader.lineOffset();
    };
    if (table.pending()) // the file ends inside a row: keep the rows read, flag the cut
        tests->complete = false;
    // The "# nThread" / "#  Rank" header alone already says nccl-tests (a run cut early).
    const bool hasTable = table.hasLayout() || !tests->params.empty() || !tests->rankLines.empty();
    if (!hasTable && watchdog.found()) {
        // A hang's log: the watchdog's timeouts are what it is about, the NCCL lines around
        // them are kept with it. The probes see only the first 64 KiB, so a long NCCL log
        // with the timeouts at its end arrives here as an NCCL log.
        auto r = watchdog.take();
        r->format = "pytorch-watchdog";
        r->lines = lines;
        if (log.ncclLines > 0 || !log.warnings.empty())
            r->log = std::move(log);
        markCut(*r);
        return std::unique_ptr<ImportResult>(std::move(r));
    }
    if (!hasTable && log.ncclLines == 0) {
        ImportError e;
        e.path = source.path();
        e.line = reader.lineNumber();
        e.byteOffset = reader.lineOffset();
        e.message = "neither an nccl-tests table (\"#  size  count  type …\") nor NCCL "
                    "INFO/WARN lines (\"host:pid:tid [dev] NCCL INFO …\") found";
        return e;
    }
    if (!hasTable) {
        auto r = std::make_unique<NcclLogResult>();
        r->format = "nccl-log";
        r->log = std::move(log);
        markCut(*r);
        return std::unique_ptr<ImportResult>(std::move(r));
    }
    // Distinct rank numbers: a script running several tests repeats the "#  Rank" lines.
    std::set<std::int64_t> ranks;
    for (const auto& l : tests->rankLines) {
        const auto toks = text::splitWhitespace(l);
        if (toks.size() >= 2)
            if (const auto n = text::parseInt(toks[1]))
                ranks.insert(*n);
    }
    if (!ranks.empty())
        tests->nranks = static_cast<int>(ranks.size());
    if (log.ncclLines > 0) {
        tests->format = "nccl-tests+nccl-log";
        if (!tests->nranks && log.nranks)
            tests->nranks = log.nranks;
        tests->log = std::move(log);
    } else {
        tests->format = "nccl-tests";
    }
    markCut(*tests);
    return std::unique_ptr<ImportResult>(std::move(tests));
}

Importer ncclTestsImporter() {
    return Importer{"nccl-tests", probeNcclTests, parseNcclText};
}

} // namespace wb
