#include "import/nccl_log_importer.h"

#include "import/importers.h"
#include "import/nccl_ring_rebuild.h"
#include "import/nccl_tests_importer.h"
#include "import/text_scan.h"

#include <algorithm>
#include <cctype>

namespace wb {

namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool isAlpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

struct Header {
    std::size_t start = 0; // where "host:pid:tid" begins
    std::string_view host, pid, level, msg;
    std::string_view location; // "misc/ibvwrap.cc:268" before "NCCL WARN" (NCCL 2.5–2.8)
};

// Finds the first "NCCL <LEVEL> " marker at or after `from`, at the line start or after a
// space; returns where "NCCL" begins.
std::size_t findMarker(std::string_view line, std::size_t from, std::string_view& level) {
    std::size_t pos = from;
    while ((pos = line.find("NCCL ", pos)) != std::string_view::npos) {
        // After a space (NCCL's own header), at the line start or after a tag's ':', ']' or
        // '>' (a bare "NCCL WARN" behind a launcher's prefix).
        if (pos > 0 && std::string_view(" \t:]>").find(line[pos - 1]) == std::string_view::npos) {
            pos += 5;
            continue;
        }
        const auto rest = line.substr(pos + 5);
        for (std::string_view l : {"INFO", "WARN", "TRACE", "ABORT"}) {
            if (text::startsWith(rest, l) && (rest.size() == l.size() || rest[l.size()] == ' ')) {
                level = l;
                return pos;
            }
        }
        pos += 5;
    }
    return std::string_view::npos;
}

// "file.cc:268": NCCL's WARN source location.
bool isSourceLocation(std::string_view tok) {
    const auto colon = tok.rfind(':');
    return colon != std::string_view::npos && colon > 0 && colon + 1 < tok.size() &&
           tok.find_first_not_of("0123456789", colon + 1) == std::string_view::npos &&
           tok.find('.') < colon;
}

// Walks back from the marker over "host:pid:tid [dev]" (and a WARN's "file:line" between
// them); nullopt when that shape is absent.
std::optional<Header> headerBefore(std::string_view line, std::size_t marker) {
    std::size_t i = marker;
    if (i < 2 || line[i - 1] != ' ')
        return std::nullopt;
    --i;
    std::string_view location;
    if (line[i - 1] != ']') {
        std::size_t t = i;
        while (t > 0 && line[t - 1] != ' ')
            --t;
        location = line.substr(t, i - t);
        if (t < 2 || !isSourceLocation(location))
            return std::nullopt;
        i = t - 1;
    }
    if (i == 0 || line[i - 1] != ']')
        return std::nullopt;
    --i;
    const std::size_t devEnd = i;
    while (i > 0 && isDigit(line[i - 1]))
        --i;
    if (i == devEnd || i == 0 || line[i - 1] != '[')
        return std::nullopt;
    --i;
    if (i == 0 || line[i - 1] != ' ')
        return std::nullopt;
    --i;
    const std::size_t tidEnd = i;
    while (i > 0 && isDigit(line[i - 1]))
        --i;
    if (i == tidEnd || i == 0 || line[i - 1] != ':')
        return std::nullopt;
    --i;
    const std::size_t pidEnd = i;
    while (i > 0 && isDigit(line[i - 1]))
        --i;
    if (i == pidEnd || i == 0 || line[i - 1] != ':')
        return std::nullopt;
    Header h;
    h.location = location;
    h.pid = line.substr(i, pidEnd - i);
    --i;
    const std::size_t hostEnd = i;
    while (i > 0 && line[i - 1] != ' ' && line[i - 1] != ':' && line[i - 1] != '>' &&
           line[i - 1] != ']' && line[i - 1] != '\t')
        --i;
    if (i == hostEnd)
        return std::nullopt;
    h.start = i;
    h.host = line.substr(i, hostEnd - i);
    return h;
}

// "host:pid:tid [dev]" at the start (after launcher prefixes): a log line, whatever follows.
bool startsWithHeader(std::string_view line) {
    const auto toks = text::splitWhitespace(line.substr(0, 256));
    if (toks.size() < 2 || toks[1].size() < 3 || toks[1].front() != '[' || toks[1].back() != ']')
        return false;
    const auto a = toks[0].rfind(':');
    if (a == std::string_view::npos || a == 0)
        return false;
    const auto b = toks[0].rfind(':', a - 1);
    if (b == std::string_view::npos)
        return false;
    const auto digits = [](std::string_view s) {
        return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
    };
    return digits(toks[0].substr(a + 1)) && digits(toks[0].substr(b + 1, a - b - 1)) &&
           digits(toks[1].substr(1, toks[1].size() - 2));
}

std::optional<int> toInt(std::string_view s) {
    const auto v = text::parseInt(text::trim(s));
    if (!v || *v < -1 || *v > 1'000'000)
        return std::nullopt;
    return static_cast<int>(*v);
}

// "3[3]" or "3[17000]" or "3" → 3
std::optional<int> rankOf(std::string_view tok) {
    const auto b = tok.find('[');
    return toInt(tok.substr(0, b));
}

std::string transportKind(std::string_view via) {
    // Keep the family and the mechanism; drop device indices and the read/pointer detail.
    const auto first = via.substr(0, via.find(' '));
    std::vector<std::string_view> parts;
    std::size_t p = 0;
    while (p <= first.size()) {
        const auto s = first.find('/', p);
        parts.push_back(
            first.substr(p, s == std::string_view::npos ? std::string_view::npos : s - p));
        if (s == std::string_view::npos)
            break;
        p = s + 1;
    }
    std::string kind(parts[0]);
    if (kind == "SHM")
        return kind;
    if (parts.size() > 1)
        kind.append("/").append(parts[1]);
    if (parts[0] == "NET" && via.find("GDRDMA") != std::string_view::npos)
        kind.append("/GDRDMA");
    return kind;
}

nlohmann::ordered_json optInt(const std::optional<int>& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

} // namespace

std::string_view NcclLogParser::feed(std::string_view line, std::uint64_t lineNo) {
    std::string_view level;
    std::size_t marker = findMarker(line, 0, level);
    if (marker == std::string_view::npos) {
        // A header without a level is a line cut by another writer.
        if (startsWithHeader(line)) {
            m_data.garbledLines++;
            return {};
        }
        // PyTorch's "NCCL error in: …ProcessGroupNCCL.cpp:1269, unhandled system error" is
        // application text, but it is the error the user is looking for.
        if (line.find("NCCL error") != std::string_view::npos)
            addWarning(lineNo, "error", text::trim(line));
        return line;
    }
    auto header = headerBefore(line, marker);
    if (!header) {
        // "NCCL WARN …" behind a prefix NCCL did not write (a launcher's, a logger's) is
        // still a warning; any other level without its header is a cut line.
        if (level == "WARN") {
            m_data.ncclLines++;
            m_data.warnLines++;
            addWarning(lineNo, level, text::trim(line.substr(marker + 5 + level.size())));
            return {};
        }
        if (marker == 0 || line[marker - 1] != ' ')
            return line; // "NCCL INFO …" without a header: text, as it always was
        m_data.garbledLines++;
        return {};
    }
    // Interrupted table rows end in a number: "…-1mew0:64904:…". Split at a known host; a
    // host never seen at a line start loses its leading digits instead.
    std::string_view before = line.substr(0, header->start);
    if (!m_hosts.count(header->host)) {
        bool split = false;
        for (const auto& known : m_hosts) {
            if (header->host.size() > known.size() &&
                header->host.substr(header->host.size() - known.size()) == known) {
                const std::size_t cut = header->host.size() - known.size();
                header->start += cut;
                header->host.remove_prefix(cut);
                split = true;
                break;
            }
        }
        if (!split && !text::trim(before).empty()) {
            std::size_t k = 0;
            while (k < header->host.size() && !isAlpha(header->host[k]))
                ++k;
            if (k > 0 && k < header->host.size()) {
                header->start += k;
                header->host.remove_prefix(k);
            }
        }
        const auto pre = text::trim(before);
        if (pre.empty() || pre.back() == ':' || pre.back() == '>' || pre.back() == ']')
            m_hosts.emplace(header->host);
        before = line.substr(0, header->start);
    }
    std::string_view msg = line.substr(marker + 5 + level.size());
    if (!msg.empty() && msg.front() == ' ')
        msg.remove_prefix(1);
    // Two writers on one line: the first message is cut, the second may be whole.
    std::string_view level2;
    const std::size_t marker2 = findMarker(msg, 0, level2);
    if (marker2 != std::string_view::npos) {
        if (const auto h2 = headerBefore(msg, marker2)) {
            m_data.garbledLines++;
            feed(msg.substr(h2->start), lineNo);
            return before;
        }
    }
    msg = text::trim(msg);
    if (level == "WARN" || level == "ABORT") {
        // The source location NCCL 2.5–2.8 print before the level says where it failed.
        std::string where(header->location);
        addWarning(lineNo, level, where.empty() ? std::string(msg) : where.append(" ").append(msg));
    }
    message(header->host, header->pid, level, msg);
    return before;
}

void NcclLogParser::addWarning(std::uint64_t lineNo, std::string_view level,
                               std::string_view text) {
    if (m_data.warnings.size() < NcclLogData::kMaxWarnings)
        m_data.warnings.push_back({lineNo, std::string(level), std::string(text)});
}

void NcclLogParser::message(std::string_view host, std::string_view pid, std::string_view level,
                            std::string_view msg) {
    m_data.ncclLines++;
    if (level == "WARN")
        m_data.warnLines++;
    bool ok = true;
    if (msg.find("comm 0x") != std::string_view::npos &&
        msg.find(" rank ") != std::string_view::npos) {
        ok = commLine(host, pid, msg);
    } else if (text::startsWith(msg, "Channel ")) {
        ok = channelLine(msg.substr(8), false);
    } else if (text::startsWith(msg, "Ring ")) {
        ok = channelLine(msg.substr(5), true);
    } else if (text::startsWith(msg, "Trees ")) {
        ok = treesLine(msg.substr(6));
    } else if (text::startsWith(msg, "Tree ")) {
        ok = treeLine(msg.substr(5));
    } else if (text::startsWith(msg, "NVLS multicast support is ")) {
        const bool no = msg.find("not available") != std::string_view::npos;
        // Several devices: available only when every device says so.
        m_data.nvlsAvailable = m_data.nvlsAvailable.value_or(true) && !no;
    } else if (text::startsWith(msg, "Using network ")) {
        m_data.network = std::string(msg.substr(14));
    } else if (text::startsWith(msg, "NET/IB : Using ") ||
               text::startsWith(msg, "NET/IB: Using ")) {
        m_data.netDevices = std::string(msg.substr(msg.find("Using ") + 6));
    } else if (text::startsWith(msg, "NET/Socket : Using ")) {
        if (m_data.netDevices.empty())
            m_data.netDevices = std::string(msg.substr(19));
    } else if (text::startsWith(msg, "NCCL version ")) {
        m_data.version = std::string(text::trim(msg.substr(13)));
    } else if (msg.find(" channels") != std::string_view::npos &&
               msg.find("coll channels") != std::string_view::npos) {
        const auto toks = text::splitWhitespace(msg);
        for (std::size_t i = 0; i + 2 < toks.size(); ++i) {
            const auto n = toInt(toks[i]);
            if (!n || !text::startsWith(toks[i + 2], "channels"))
                continue;
            if (toks[i + 1] == "coll")
                m_data.collChannels = *n;
            else if (toks[i + 1] == "nvls")
                m_data.nvlsChannels = *n;
            else if (toks[i + 1] == "p2p" && !m_data.p2pChannels)
                m_data.p2pChannels = *n;
        }
    } else if (const auto colon = msg.find(": opCount "); colon != std::string_view::npos) {
        m_data.collectives[std::string(msg.substr(0, colon))]++;
        if (const auto nr = msg.find("[nranks="); nr != std::string_view::npos) {
            const auto end = msg.find(']', nr);
            if (const auto n = toInt(msg.substr(nr + 8, end - nr - 8)))
                m_collNranks = std::max(m_collNranks.value_or(0), *n);
        }
    }
    if (!ok)
        m_data.garbledLines++;
}

bool NcclLogParser::commLine(std::string_view host, std::string_view pid, std::string_view msg) {
    const auto toks = text::splitWhitespace(msg.substr(msg.find("comm 0x")));
    NcclComm c;
    c.host = std::string(host);
    c.pid = std::string(pid);
    c.comm = std::string(toks[1]);
    for (std::size_t i = 2; i + 1 < toks.size(); ++i) {
        const auto k = toks[i];
        const auto v = toks[i + 1];
        if (k == "rank") {
            const auto r = toInt(v);
            if (!r)
                return false;
            c.rank = *r;
        } else if (k == "nranks" || k == "nRanks") {
            const auto n = toInt(v);
            if (!n || *n <= 0)
                return false;
            c.nranks = *n;
        } else if (k == "cudaDev") {
            c.cudaDev = toInt(v).value_or(-1);
        } else if (k == "busId") {
            c.busId = std::string(v);
        } else if (k == "commId") {
            c.commId = std::string(v);
        } else if (k == "nNodes") {
            c.nNodes = toInt(v).value_or(-1);
        } else if (k == "localRanks") {
            c.localRanks = toInt(v).value_or(-1);
        }
    }
    if (c.rank < 0)
        return false;
    for (auto& e : m_data.comms) {
        if (e.host == c.host && e.pid == c.pid && e.comm == c.comm) {
            // Later lines (nRanks/nNodes, Destroy) add to what Init START said.
            if (c.nranks > 0)
                e.nranks = c.nranks;
            if (c.cudaDev >= 0)
                e.cudaDev = c.cudaDev;
            if (!c.busId.empty())
                e.busId = c.busId;
            if (!c.commId.empty())
                e.commId = c.commId;
            if (c.nNodes >= 0)
                e.nNodes = c.nNodes;
            if (c.localRanks >= 0)
                e.localRanks = c.localRanks;
            return true;
        }
    }
    m_data.comms.push_back(std::move(c));
    return true;
}

bool NcclLogParser::channelLine(std::string_view msg, bool oldRing) {
    // "00/24 :    0   1" (ring order) | "00/0 : 1[1] -> 0[0] via P2P/IPC" (edge)
    const auto colon = msg.find(" : ");
    if (colon == std::string_view::npos)
        return true; // another "Channel …" message; not ours
    const auto id = msg.substr(0, colon);
    const auto slash = id.find('/');
    const auto channel = toInt(id.substr(0, slash));
    if (!channel)
        return true;
    const auto rest = msg.substr(colon + 3);
    const auto via = rest.find(" via ");
    if (rest.find("->") != std::string_view::npos) {
        if (via == std::string_view::npos) {
            // ≤2.8 also print each rank's neighbours: "Ring 00 : 7 -> 1 -> 3" (prev, rank, next).
            const auto hops = text::splitWhitespace(rest);
            if (oldRing && hops.size() == 5 && hops[1] == "->" && hops[3] == "->") {
                const auto prev = rankOf(hops[0]), self = rankOf(hops[2]), next = rankOf(hops[4]);
                if (!prev || !self || !next)
                    return false;
                m_ringLinks[*channel].emplace_back(*prev, *self);
                m_ringLinks[*channel].emplace_back(*self, *next);
            }
            return true; // e.g. per-peer "Channel 00 : 0[0] -> 1[1] [send]" without transport
        }
        const auto toks = text::splitWhitespace(rest.substr(0, via));
        if (toks.size() < 3 || toks[1] != "->")
            return false;
        const auto from = rankOf(toks[0]);
        const auto to = rankOf(toks[2]);
        if (!from || !to)
            return false;
        NcclEdge e;
        e.channel = *channel;
        e.from = *from;
        e.to = *to;
        e.via = std::string(text::trim(rest.substr(via + 5)));
        if (e.via.empty())
            return false;
        e.transport = transportKind(e.via);
        if (oldRing) // these logs print no ring order: finish() follows the edges instead
            m_ringLinks[e.channel].emplace_back(e.from, e.to);
        if (m_edgeSeen.emplace(e.channel, e.from, e.to, e.via).second)
            m_data.edges.push_back(std::move(e));
        return true;
    }
    const auto toks = text::splitWhitespace(rest);
    NcclRing ring;
    ring.channel = *channel;
    for (auto t : toks) {
        const auto r = toInt(t);
        if (!r)
            return oldRing ? false : true; // not a ring-order line
        ring.ranks.push_back(*r);
    }
    if (ring.ranks.empty())
        return false;
    if (slash != std::string_view::npos)
        if (const auto total = toInt(id.substr(slash + 1)))
            m_data.channels = std::max(m_data.channels, *total);
    if (m_ringSeen.emplace(ring.channel, ring.ranks).second)
        m_data.rings.push_back(std::move(ring));
    return true;
}

bool NcclLogParser::addTree(int channel, std::string_view up, std::string_view rank,
                            std::string_view down) {
    if (!toInt(up) || !toInt(rank) || down.empty())
        return false; // a cut line
    NcclTree t;
    t.channel = channel;
    t.rank = toInt(rank).value_or(-1);
    t.parent = toInt(up).value_or(-1);
    std::size_t p = 0;
    while (p <= down.size()) {
        const auto s = down.find('/', p);
        if (const auto c = toInt(down.substr(p, s == std::string_view::npos ? down.npos : s - p));
            c && *c >= 0)
            t.children.push_back(*c);
        if (s == std::string_view::npos)
            break;
        p = s + 1;
    }
    if (t.rank < 0)
        return false;
    if (m_treeSeen.emplace(t.channel, t.rank, t.parent, t.children).second)
        m_data.trees.push_back(std::move(t));
    return true;
}

bool NcclLogParser::treesLine(std::string_view msg) {
    // 2.7+: "[0] 1/-1/-1->0->-1" = children->rank->parent; older: "[0] 4->5->6/-1/-1".
    const auto toks = text::splitWhitespace(msg);
    if (toks.size() % 2 != 0)
        return false;
    for (std::size_t i = 0; i + 1 < toks.size(); i += 2) {
        const auto ch = toks[i];
        if (ch.size() < 3 || ch.front() != '[' || ch.back() != ']')
            return false;
        const auto channel = toInt(ch.substr(1, ch.size() - 2));
        // 2.5–2.6 print the up and down trees: "1/-1/-1->0->-1|-1->0->1/-1/-1"; the first
        // half has the 2.7+ shape.
        const auto spec = toks[i + 1].substr(0, toks[i + 1].find('|'));
        const auto a = spec.find("->");
        const auto b = a == spec.npos ? spec.npos : spec.find("->", a + 2);
        if (!channel || b == spec.npos)
            return false;
        const auto p0 = spec.substr(0, a), p1 = spec.substr(a + 2, b - a - 2),
                   p2 = spec.substr(b + 2);
        const bool ok = p0.find('/') != spec.npos ? addTree(*channel, p2, p1, p0)
                                                  : addTree(*channel, p0, p1, p2);
        if (!ok)
            return false;
    }
    return true;
}

bool NcclLogParser::treeLine(std::string_view msg) {
    // Graph search dump: "0 : -1 -> 0 -> 1/-1/-1" = parent -> rank -> children.
    const auto colon = msg.find(" : ");
    if (colon == std::string_view::npos)
        return true;
    const auto channel = toInt(msg.substr(0, colon));
    const auto toks = text::splitWhitespace(msg.substr(colon + 3));
    if (!channel)
        return true;
    if (toks.size() != 5 || toks[1] != "->" || toks[3] != "->")
        return false;
    return addTree(*channel, toks[0], toks[2], toks[4]);
}

void NcclLogParser::rebuildRings() {
    // Only for logs that print no ring order at all (NCCL ≤2.6): newer ones print the order
    // of every channel, and their "Ring NN : prev -> rank -> next" lines add nothing.
    if (!m_data.rings.empty())
        return;
    for (const auto& [channel, links] : m_ringLinks) {
        auto rebuilt = rebuildNcclRing(channel, links);
        if (auto* problem = std::get_if<std::string>(&rebuilt)) {
            m_data.ringProblems.push_back(std::move(*problem));
            continue;
        }
        auto& ring = std::get<NcclRing>(rebuilt);
        if (m_ringSeen.emplace(ring.channel, ring.ranks).second)
            m_data.rings.push_back(std::move(ring));
    }
}

void NcclLogParser::finish() {
    rebuildRings();
    auto& d = m_data;
    std::stable_sort(d.rings.begin(), d.rings.end(),
                     [](const NcclRing& a, const NcclRing& b) { return a.channel < b.channel; });
    std::stable_sort(d.trees.begin(), d.trees.end(), [](const NcclTree& a, const NcclTree& b) {
        return std::pair(a.channel, a.rank) < std::pair(b.channel, b.rank);
    });
    if (d.channels == 0) {
        std::set<int> ch;
        for (const auto& r : d.rings)
            ch.insert(r.channel);
        d.channels = static_cast<int>(ch.size());
    }
    int fromComm = 0;
    for (const auto& c : d.comms)
        fromComm = std::max(fromComm, c.nranks);
    if (fromComm > 0) {
        d.nranks = fromComm;
        d.nranksSource = "comm";
        return;
    }
    if (m_collNranks) {
        d.nranks = m_collNranks;
        d.nranksSource = "coll";
        return;
    }
    // No nranks line: the highest rank the log mentions anywhere, plus one.
    int top = -1;
    for (const auto& c : d.comms)
        top = std::max(top, c.rank);
    for (const auto& r : d.rings)
        for (int x : r.ranks)
            top = std::max(top, x);
    for (const auto& e : d.edges)
        top = std::max({top, e.from, e.to});
    for (const auto& t : d.trees) {
        top = std::max({top, t.rank, t.parent});
        for (int c : t.children)
            top = std::max(top, c);
    }
    if (top >= 0) {
        d.nranks = top + 1;
        d.nranksSource = "inferred";
    }
}

nlohmann::ordered_json NcclLogData::summary() const {
    nlohmann::ordered_json out;
    // Warnings first: they are why people open a log (absent when there are none).
    if (!warnings.empty()) {
        auto ws = nlohmann::ordered_json::array();
        for (const auto& w : warnings)
            ws.push_back({{"line", w.line}, {"level", w.level}, {"text", w.text}});
        out["warnings"] = std::move(ws);
    }
    out["nranks"] = optInt(nranks);
    out["nranks_source"] = nranksSource;
    out["channels"] = channels;
    auto rs = nlohmann::ordered_json::array();
    for (const auto& r : rings)
        rs.push_back(r.ranks);
    out["rings"] = std::move(rs);
    if (!ringProblems.empty())
        out["ring_problems"] = ringProblems;
    auto ts = nlohmann::ordered_json::array();
    for (const auto& t : trees)
        ts.push_back({{"channel", t.channel},
                      {"rank", t.rank},
                      {"parent", t.parent},
                      {"children", t.children}});
    out["trees"] = std::move(ts);
    nlohmann::ordered_json tr = nlohmann::ordered_json::object();
    for (const auto& e : edges)
        tr[e.transport] = tr.value(e.transport, 0) + 1;
    out["transports"] = std::move(tr);
    out["edges"] = edges.size();
    auto cs = nlohmann::ordered_json::array();
    for (const auto& c : comms) {
        nlohmann::ordered_json j;
        j["host"] = c.host;
        j["comm"] = c.comm;
        j["rank"] = c.rank;
        j["nranks"] = c.nranks;
        j["cuda_dev"] = c.cudaDev;
        j["bus_id"] = c.busId;
        if (!c.commId.empty())
            j["comm_id"] = c.commId;
        if (c.nNodes >= 0)
            j["nnodes"] = c.nNodes;
        cs.push_back(std::move(j));
    }
    out["communicators"] = std::move(cs);
    out["nvls_available"] =
        nvlsAvailable ? nlohmann::ordered_json(*nvlsAvailable) : nlohmann::ordered_json(nullptr);
    out["nvls_channels"] = optInt(nvlsChannels);
    out["coll_channels"] = optInt(collChannels);
    out["network"] = network;
    out["net_devices"] = netDevices;
    out["nccl_version"] = version;
    out["collectives"] = collectives;
    out["nccl_lines"] = ncclLines;
    out["warn_lines"] = warnLines;
    out["garbled_lines"] = garbledLines;
    out["complete"] = complete;
    return out;
}

nlohmann::ordered_json NcclLogData::nestedSummary(nlohmann::ordered_json& file) const {
    auto out = summary();
    if (out.contains("warnings")) {
        file["warnings"] = std::move(out["warnings"]);
        out.erase("warnings");
    }
    return out;
}

nlohmann::ordered_json NcclLogResult::summary() const {
    nlohmann::ordered_json out;
    out["path"] = path;
    out["format"] = format;
    const auto body = log.summary(); // a named object: items() must not outlive it
    for (const auto& [k, v] : body.items())
        out[k] = v;
    return out;
}

namespace {

double probeNcclLog(std::string_view head, const std::string&) {
    if (!text::looksLikeText(head))
        return 0.0;
    // Count well-formed NCCL lines among the first lines.
    int good = 0, lines = 0;
    std::size_t p = 0;
    while (p < head.size() && lines < 2000) {
        const auto e = head.find('\n', p);
        const auto line = head.substr(p, e == head.npos ? head.npos : e - p);
        std::string_view level;
        const auto m = findMarker(line, 0, level);
        if (m != std::string_view::npos && headerBefore(line, m))
            ++good;
        ++lines;
        if (e == head.npos)
            break;
        p = e + 1;
    }
    if (good == 0)
        return 0.0;
    return good >= 3 ? 0.85 : 0.6;
}

} // namespace

Importer ncclLogImporter() {
    return Importer{"nccl-log", probeNcclLog, parseNcclText};
}

} // namespace wb
