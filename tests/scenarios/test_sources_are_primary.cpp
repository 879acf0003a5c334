// Sources on screen are primary: a paper with its section or table, a vendor document, a
// specification. Never the project's internal design file (FACTS.md), never a bare "§n" with
// no document named, never a C++ class name. Every registered scenario at its default
// parameters (every step's frames at rest and mid-play, the whiteboard, the checks, the
// answer card, the source list) and every `warpboard calc` model's JSON at its default
// arguments are held to it.
#include "calc/calc_models.h"
#include "engine/registry.h"

#include <QtTest>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <variant>
#include <vector>

using namespace wb;

namespace {

// One string the user can read, and where it sits ("occupancy, step 3 \"...\", facts source").
struct Text {
    std::string where;
    std::string text;
};

class Collector {
public:
    explicit Collector(std::vector<Text>& out)
        : out_(out) {}
    void add(const std::string& where, const std::string& s) {
        if (!s.empty())
            out_.push_back({where, s});
    }
    void frame(const std::string& w, const Frame& frame) {
        std::visit([&](const auto& f) { visit(w, f); }, frame);
    }

private:
    void visit(const std::string& w, const FactsFrame& f) {
        add(w + " facts title", f.title);
        for (const FactRow& r : f.rows) {
            add(w + " facts label", r.label);
            add(w + " facts value", r.value);
            add(w + " facts source", r.source);
        }
    }
    void visit(const std::string& w, const ChartFrame& f) {
        add(w + " chart title", f.title);
        add(w + " chart x axis", f.x.title);
        add(w + " chart y axis", f.y.title);
        add(w + " chart footnote", f.footnote);
        for (const ChartSeries& s : f.series)
            add(w + " chart series", s.name);
        for (const ChartMarker& m : f.markers) {
            add(w + " chart marker", m.label);
            add(w + " chart marker tip", m.tooltip);
        }
    }
    void visit(const std::string& w, const BarChartFrame& f) {
        add(w + " bars title", f.title);
        add(w + " bars caption", f.caption);
        add(w + " bars axis", f.axisTitle);
        for (const std::string& s : f.series)
            add(w + " bars series", s);
        for (const BarCategory& c : f.categories) {
            add(w + " bars label", c.label);
            add(w + " bars tip", c.tip);
            for (const BarSegment& s : c.segments)
                add(w + " bars segment tip", s.tip);
        }
        for (const BarReference& r : f.references)
            add(w + " bars reference", r.label);
    }
    void visit(const std::string& w, const LadderFrame& f) {
        add(w + " ladder title", f.title);
        add(w + " ladder gauge", f.gaugeLabel);
        add(w + " ladder gauge source", f.gaugeSource);
        for (const LadderLevel& l : f.levels) {
            add(w + " ladder level", l.name);
            add(w + " ladder capacity", l.capacity);
            add(w + " ladder source", l.source);
            add(w + " ladder tip", l.tip);
            add(w + " ladder latency", l.latencyLabel);
            add(w + " ladder bandwidth", l.bandwidthLabel);
        }
    }
    void visit(const std::string& w, const IssueTimelineFrame& f) {
        add(w + " issue title", f.title);
        add(w + " issue caption", f.caption);
    }
    void visit(const std::string& w, const ClusterMapFrame& f) {
        add(w + " map title", f.title);
        add(w + " map layout", f.layoutName);
        add(w + " map caption", f.caption);
        for (const std::string& c : f.consequences)
            add(w + " map consequence", c);
    }
    void visit(const std::string& w, const ScheduleFrame& f) {
        add(w + " schedule title", f.title);
        add(w + " schedule caption", f.caption);
        for (const std::string& c : f.categories)
            add(w + " schedule category", c);
        for (const ScheduleRow& r : f.rows) {
            add(w + " schedule row", r.label);
            for (const ScheduleBar& b : r.bars) {
                add(w + " schedule bar", b.label);
                add(w + " schedule bar tip", b.tip);
            }
        }
    }
    void visit(const std::string& w, const TimelineFrame& f) {
        add(w + " timeline title", f.title);
        add(w + " timeline caption", f.caption);
        for (const TimelineLane& l : f.lanes)
            add(w + " timeline lane", l.label);
    }
    void visit(const std::string& w, const CommGraphFrame& f) {
        add(w + " graph title", f.title);
        add(w + " graph caption", f.caption);
        for (const CommGraphNode& n : f.nodes) {
            add(w + " graph node", n.label);
            add(w + " graph node tip", n.tip);
        }
        for (const CommGraphEdge& e : f.edges)
            add(w + " graph edge tip", e.tip);
    }
    void visit(const std::string& w, const TopologyFrame& f) {
        add(w + " topology title", f.title);
        add(w + " topology caption", f.caption);
        for (const std::string& c : f.flowClasses)
            add(w + " topology legend", c);
        for (const TopologyNode& n : f.nodes) {
            add(w + " topology node", n.label);
            add(w + " topology node tip", n.tip);
            for (const TopologyGpu& g : n.gpus)
                add(w + " topology gpu tip", g.tip);
        }
        for (const TopologyLeaf& l : f.leaves)
            add(w + " topology leaf tip", l.tip);
        for (const TopologyFlow& fl : f.flows)
            add(w + " topology flow tip", fl.tip);
    }
    void visit(const std::string& w, const FabricFrame& f) {
        add(w + " fabric title", f.title);
        add(w + " fabric counters", f.counters);
        add(w + " fabric caption", f.caption);
        for (const FabricFrameNode& n : f.nodes)
            add(w + " fabric node tip", n.tip);
        for (const FabricFrameLink& l : f.links)
            add(w + " fabric link tip", l.tip);
        for (const FabricFrameFlow& fl : f.flows) {
            add(w + " fabric flow", fl.label);
            add(w + " fabric flow tip", fl.tip);
        }
    }
    void visit(const std::string& w, const NodeTopologyFrame& f) {
        add(w + " node title", f.title);
        add(w + " node caption", f.caption);
        for (const std::string& c : f.routeClasses)
            add(w + " node legend", c);
        for (const NodeHost& h : f.hosts)
            add(w + " node host tip", h.tip);
        for (const NodePart& p : f.parts) {
            add(w + " node part", p.label);
            add(w + " node part tip", p.tip);
        }
        for (const NodeLink& l : f.links)
            add(w + " node link tip", l.tip);
        for (const NodeRoute& r : f.routes) {
            add(w + " node route tip", r.tip);
            for (const NodeRouteMark& m : r.marks)
                add(w + " node route mark tip", m.tip);
        }
    }
    void visit(const std::string& w, const MemoryAccessFrame& f) {
        add(w + " access title", f.title);
        for (const LaneAccess& l : f.lanes)
            add(w + " access lane tip", l.tip);
    }
    void visit(const std::string& w, const SmGridFrame& f) {
        add(w + " sm grid title", f.title);
        for (const SmState& s : f.sms)
            add(w + " sm tip", s.tip);
    }
    void visit(const std::string& w, const WarpFrame& f) {
        add(w + " warp title", f.title);
        for (const WarpLane& l : f.lanes)
            add(w + " warp lane tip", l.tip);
    }
    void visit(const std::string& w, const ThreadMapFrame& f) {
        add(w + " thread map title", f.title);
        add(w + " thread map note", f.note);
    }
    void visit(const std::string&, const RingFrame&) {} // numbers and a phase name only

    std::vector<Text>& out_;
};

std::vector<Text> scenarioTexts(const Scenario& s) {
    std::vector<Text> out;
    Collector c(out);
    const std::string id = s.id();
    c.add(id + " title", s.title());
    c.add(id + " question", s.question());
    c.add(id + " answer", s.answer());
    for (const SourceRef& r : s.sources())
        c.add(id + " sources", r.label);
    for (const ParamSpec& p : s.parameters()) {
        c.add(id + " parameter label", p.label);
        c.add(id + " parameter help", p.help);
    }
    const Story story = s.build(s.defaultParams());
    c.add(id + " provenance", story.provenance);
    c.add(id + " whiteboard question", story.whiteboard.question);
    for (const WhiteboardPoint& p : story.whiteboard.points) {
        c.add(id + " whiteboard point", p.text);
        c.add(id + " whiteboard source", p.source);
    }
    for (const CheckQuestion& q : story.checks) {
        c.add(id + " check question", q.question);
        c.add(id + " check working", q.working);
    }
    for (const Step& step : story.steps) {
        const std::string w = id + ", step \"" + step.title + "\"";
        c.add(w + " title", step.title);
        c.add(w + " narration", step.narration);
        for (double t : {0.0, 0.5, 1.0})
            for (const Frame& f : step.frames(t).items)
                c.frame(w, f);
    }
    return out;
}

void jsonTexts(const std::string& where, const nlohmann::ordered_json& j, std::vector<Text>& out) {
    if (j.is_string())
        out.push_back({where, j.get<std::string>()});
    else if (j.is_object())
        for (const auto& [k, v] : j.items())
            jsonTexts(where + "." + k, v, out);
    else if (j.is_array())
        for (std::size_t i = 0; i < j.size(); ++i)
            jsonTexts(where + "[" + std::to_string(i) + "]", j[i], out);
}

// What a primary source never looks like, with the words around it; "" when `text` is fine.
std::string problem(const std::string& text) {
    const auto around = [&](std::size_t at) {
        std::size_t from = at > 60 ? at - 60 : 0;
        while (from > 0 && (static_cast<unsigned char>(text[from]) & 0xC0) == 0x80)
            --from; // not inside a UTF-8 character
        return ": \"…" + text.substr(from, 140) + "…\"";
    };
    if (const std::size_t at = text.find("FACTS"); at != std::string::npos)
        return "cites the internal FACTS file" + around(at);
    std::smatch m;
    // "§" follows the document it is a section of: "(§11)" names none.
    static const std::regex bareSection(R"((^|\(\s*)§)");
    if (std::regex_search(text, m, bareSection))
        return "cites a section without naming the document" +
               around(static_cast<std::size_t>(m.position(0)));
    // A class name: CamelCase ending in Model, Simulator, Sim or Calculator, alone or with ::.
    static const std::regex className(
        R"(\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*(?:Model|Simulator|Sim|Calculator)(?:::|\b))");
    if (std::regex_search(text, m, className))
        return "names a class (" + m.str() + ")" + around(static_cast<std::size_t>(m.position(0)));
    static const std::regex qualified(R"(\b[A-Z]\w*::[a-z]\w*)");
    if (std::regex_search(text, m, qualified))
        return "names a C++ member (" + m.str() + ")" +
               around(static_cast<std::size_t>(m.position(0)));
    return {};
}

} // namespace

class TestSourcesArePrimary : public QObject {
    Q_OBJECT
private slots:
    void recognisesWhatIsNotASource() {
        QVERIFY(problem("Llama 3 §3.3.4, Table 5").empty());
        QVERIFY(problem("ZeRO §3.1, §5").empty());
        QVERIFY(problem("Hopper Tuning Guide §1.4.3").empty());
        QVERIFY(problem("derived: 54 × 24 h / 419 (Llama 3 §3.3.4)").empty());
        QVERIFY(!problem("ZeRO §3.1 (FACTS §6)").empty());
        QVERIFY(!problem("FACTS.md section 11").empty());
        QVERIFY(!problem("kernels was executing (§11)").empty());
        QVERIFY(!problem("ClusterFailureModel::fail").empty());
        QVERIFY(!problem("toy router (MoeRoutingSim), this run").empty());
        QVERIFY(!problem("FailureSimulator").empty());
        QVERIFY(problem("Model states per GPU").empty());
        QVERIFY(problem("CUDA Occupancy Calculator (Nsight Compute)").empty());
    }

    void scenarioWords_data() {
        QTest::addColumn<QString>("id");
        for (const auto& s : allScenarios())
            QTest::newRow(s->id().c_str()) << QString::fromStdString(s->id());
    }
    void scenarioWords() {
        QFETCH(QString, id);
        const Scenario* s = findScenario(id.toStdString());
        QVERIFY(s);
        std::set<std::string> misses; // a frame drawn at three moments repeats its words
        for (const Text& t : scenarioTexts(*s))
            if (const std::string p = problem(t.text); !p.empty())
                misses.insert(t.where + " " + p);
        if (misses.empty())
            return;
        std::string all;
        for (const std::string& m : misses)
            all += "\n  " + m;
        QFAIL(
            qPrintable(QString::fromStdString(std::to_string(misses.size()) + " findings:" + all)));
    }

    void calcOutputs_data() {
        QTest::addColumn<QString>("id");
        for (const CalcModel& m : calcModels())
            QTest::newRow(m.id.c_str()) << QString::fromStdString(m.id);
    }
    void calcOutputs() {
        QFETCH(QString, id);
        const CalcModel* m = findCalcModel(id.toStdString());
        QVERIFY(m);
        std::vector<Text> texts{{"summary", m->summary}};
        for (const ParamSpec& p : m->arguments) {
            texts.push_back({"argument " + p.name, p.label});
            texts.push_back({"argument " + p.name + " help", p.help});
        }
        try {
            jsonTexts("json", m->run(Params(m->arguments)), texts);
        } catch (const CalcError&) {
            // The defaults name a combination the model rejects: its words are the error.
        }
        std::string all;
        for (const Text& t : texts)
            if (const std::string p = problem(t.text); !p.empty())
                all += "\n  " + t.where + " " + p;
        if (!all.empty())
            QFAIL(qPrintable(QString::fromStdString(m->id + ":" + all)));
    }
};

QTEST_MAIN(TestSourcesArePrimary)
#include "test_sources_are_primary.moc"
