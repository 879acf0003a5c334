// Job summaries (scenarios/summary): the analyses split into a per-rank and a cross-rank part
// give the figures of the whole (`warpboard analyze`, `import --summary`), however the ranks
// are grouped into processes; the summary of generated rank files (a known straggler) names
// it and agrees with analyseTraces; the *.wbsum.json reader round-trips and says where a bad
// file is wrong; the share of files is balanced; a launcher starting a build without MPI is
// refused.
#include "analysis/gpu_launches.h"
#include "analysis/profiler_steps.h"
#include "analysis/trace_analysis.h"
#include "import/file_hash.h"
#include "imported_trace_helper.h"
#include "summary/job_summarizer.h"
#include "summary/job_summary.h"
#include "summary/summarize_command.h"
#include "summary/summary_analysis.h"
#include "summary/summary_wire.h"
#include "triage/kineto_trace_generator.h"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <map>
#include <sstream>

using namespace wb;

namespace {

constexpr int kJsRanks = 8;
constexpr int kJsStraggler = 5;

TraceGeneratorConfig stragglerJob() {
    TraceGeneratorConfig cfg;
    cfg.triageCase = TriageCase::Straggler;
    cfg.ranks = kJsRanks;
    cfg.stragglerRank = kJsStraggler;
    cfg.seed = 7;
    return cfg;
}

// Rank r is written to a file whose name sorts in the reverse order, so a summary that took
// ranks from the argument position would name the wrong one.
QStringList writeJob(const QTemporaryDir& dir, const TraceGeneratorConfig& cfg) {
    QStringList paths;
    const auto texts = generateKinetoTraces(cfg);
    for (std::size_t r = 0; r < texts.size(); ++r) {
        const QString path =
            dir.filePath(QString("trace-%1.json").arg(texts.size() - 1 - r, 3, 10, QChar('0')));
        std::ofstream(path.toStdString(), std::ios::binary) << texts[r];
        paths << path;
    }
    return paths;
}

std::string readAll(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void expectSummaryError(const std::string& text, const char* mustContain) {
    try {
        parseJobSummary(text, "job.wbsum.json");
        QFAIL(qPrintable(QString("no error, expected one with '%1'").arg(mustContain)));
    } catch (const JobSummaryError& e) {
        const std::string what = e.what();
        QVERIFY2(what.find(mustContain) != std::string::npos, e.what());
        QVERIFY2(what.rfind("job.wbsum.json: ", 0) == 0, e.what());
    }
}

} // namespace

class TestJobSummary : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string m_summaryPath;

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        writeJob(m_dir, stragglerJob());
        m_summaryPath = m_dir.filePath("job.wbsum").toStdString();
    }

    // measure + merge + figures equals breakdownRanks whatever the grouping of ranks into
    // processes (one each, halves, uneven, in reverse), because the merge is associative.
    void splitAnalysesEqualTheWhole() {
        const auto traces = generateImportedTraces(stragglerJob());
        const auto inputs = test::rankInputs(traces);
        std::vector<StepAssignment> steps;
        std::vector<RankStepMeasures> measures;
        for (const RankInput& in : inputs) {
            steps.push_back(assignSteps(*in.store, launchOfEvents(*in.store), {}));
            measures.push_back(measureRankSteps(in, steps.back(), {}));
        }
        const std::vector<RankBreakdown> whole = breakdownRanks(inputs, steps, {});
        const std::vector<std::vector<std::size_t>> groupings{
            {1, 2, 3, 4, 5, 6, 7}, {4}, {1, 6}, {}};
        for (const std::vector<std::size_t>& cuts : groupings) {
            std::vector<JobShortestCalls> partials(cuts.size() + 1);
            std::size_t group = 0;
            for (std::size_t i = 0; i < measures.size(); ++i) {
                while (group < cuts.size() && i >= cuts[group])
                    ++group;
                partials[group].add(measures[i]);
            }
            JobShortestCalls merged;
            for (auto it = partials.rbegin(); it != partials.rend(); ++it) // any order
                merged.merge(decodeShortestCalls(encodeShortestCalls(*it)));
            for (std::size_t i = 0; i < measures.size(); ++i) {
                const RankBreakdown b = breakdownRank(measures[i], inputs[i].rank, merged);
                QVERIFY(b.whole == whole[i].whole); // exactly, every field
                QCOMPARE(b.steps.size(), whole[i].steps.size());
                for (std::size_t k = 0; k < b.steps.size(); ++k) {
                    QVERIFY(b.steps[k].figures == whole[i].steps[k].figures);
                    QCOMPARE(b.steps[k].step.number, whole[i].steps[k].step.number);
                    QCOMPARE(b.steps[k].stepUs, whole[i].steps[k].stepUs);
                }
            }
        }
        // The waits are not all zero: the straggler makes the others wait.
        QVERIFY(whole[0].whole.waitUs > 0.0);
    }

    // A kind one rank never ran is unmatched for everyone, merged in either order.
    void unmatchedKindIsEmptyAfterMerge() {
        RankMeasures a, b;
        a.calls = {{"AllReduce", {5, 7}}, {"Broadcast", {3}}};
        b.calls = {{"AllReduce", {4, 9, 1}}};
        ShortestCalls ab, ba;
        ab.add(a);
        ab.add(b);
        ba.add(b);
        ba.add(a);
        QVERIFY(ab == ba);
        QVERIFY(ab.byKind.at("AllReduce") == (std::vector<std::int64_t>{4, 7}));
        QVERIFY(ab.byKind.at("Broadcast").empty());
        a.active = true;
        // a's wait: (5 − 4) + (7 − 7) = 1 ns; Broadcast counts nothing.
        QCOMPARE(rankFigures(a, 0, ab).waitUs, 0.001);
    }

    // The summary of the files agrees with analyseTraces over the same traces: the triage's
    // verdict and per-rank figures, the straggler candidates, each step's figures.
    void summaryAgreesWithAnalyze() {
        SingleProcess one;
        const JobSummary s = summarizeJob(
            {.inputs = {m_dir.path().toStdString()}, .out = m_summaryPath, .toolVersion = "t"},
            one);
        const auto traces = generateImportedTraces(stragglerJob());
        const TraceAnalysis a = analyseTraces(test::rankInputs(traces), {}, kJsRanks);
        QCOMPARE(s.ranks.size(), std::size_t{kJsRanks});
        QCOMPARE(s.verdict, std::string("straggler"));
        QCOMPARE(s.verdict, a.triage.verdict);
        QVERIFY(s.stragglerRank == std::optional<long>(kJsStraggler));
        QCOMPARE(s.evidence, a.triage.evidence);
        QVERIFY(s.stragglerCandidates == a.stragglers.candidates);
        QVERIFY(s.stragglerEvidence == a.stragglers.evidence);
        QVERIFY(s.stragglerCandidates == std::vector<long>{kJsStraggler});
        QCOMPARE(s.worldSize, long{kJsRanks});
        QVERIFY(s.failed.empty());
        for (std::size_t r = 0; r < s.ranks.size(); ++r) {
            const JobSummaryRank& got = s.ranks[r];
            QCOMPARE(got.whole.rank, static_cast<long>(r));
            QCOMPARE(got.rankSource, std::string("distributedInfo"));
            QVERIFY(
                got.file.ends_with(QString("trace-%1.json")
                                       .arg(kJsRanks - 1 - static_cast<int>(r), 3, 10, QChar('0'))
                                       .toStdString()));
            QVERIFY(got.whole == a.perRank[r].whole);
            QCOMPARE(got.steps.size(), a.perRank[r].steps.size());
            QCOMPARE(got.steps.size(), std::size_t{3}); // the generator's ProfilerSteps
            for (std::size_t k = 0; k < got.steps.size(); ++k) {
                QCOMPARE(got.steps[k].number, a.perRank[r].steps[k].step.number);
                QVERIFY(got.steps[k].figures == a.perRank[r].steps[k].figures);
            }
            QCOMPARE(got.candidate, static_cast<long>(r) == kJsStraggler);
            QVERIFY(!got.topKernels.empty());
            QVERIFY(got.topKernels.size() <= kJobSummaryTopKernels);
            // The rank's own kernel table, computed independently from its trace.
            const KernelBreakdown own = kernelBreakdown({test::rankInputs(traces)[r]}, {});
            QCOMPARE(got.topKernels.front().name, own.top.front().name);
            QCOMPARE(got.topKernels.front().totalUs, own.top.front().stats.totalUs);
        }
        QCOMPARE(s.provenance["files"].size(), std::size_t{kJsRanks});
    }

    // What the app shows for a summary (summary_analysis.h) is what analyseTraces finds in the
    // traces themselves: per-rank and per-step figures, temporal breakdown, straggler table,
    // the triage's verdict and the measures its rules compared.
    void analysisFromSummaryAgreesWithAnalyze() {
        SingleProcess one;
        const JobSummary s = summarizeJob(
            {.inputs = {m_dir.path().toStdString()}, .out = m_summaryPath, .toolVersion = "t"},
            one);
        const TraceAnalysis got = analysisFromSummary(s);
        const auto traces = generateImportedTraces(stragglerJob());
        const TraceAnalysis want = analyseTraces(test::rankInputs(traces), {}, kJsRanks);
        QVERIFY(got.fromSummary);
        QVERIFY(!want.fromSummary);
        QVERIFY(got.ranks == want.ranks);
        QCOMPARE(got.perRank.size(), want.perRank.size());
        for (std::size_t r = 0; r < got.perRank.size(); ++r) {
            QVERIFY(got.perRank[r].whole == want.perRank[r].whole);
            QCOMPARE(got.perRank[r].steps.size(), want.perRank[r].steps.size());
            for (std::size_t k = 0; k < got.perRank[r].steps.size(); ++k) {
                const StepFigures& g = got.perRank[r].steps[k];
                const StepFigures& w = want.perRank[r].steps[k];
                QCOMPARE(g.step.number, w.step.number);
                QCOMPARE(g.stepUs, w.stepUs);
                QVERIFY(g.figures == w.figures);
            }
            const TemporalBreakdown& gt = got.temporal[r];
            const TemporalBreakdown& wt = want.temporal[r];
            QCOMPARE(gt.rank, wt.rank);
            QCOMPARE(gt.windowUs, wt.windowUs);
            QCOMPARE(gt.idleUs, wt.idleUs);
            QCOMPARE(gt.computeUs, wt.computeUs);
            QCOMPARE(gt.nonComputePct, wt.nonComputePct);
        }
        QCOMPARE(got.stragglers.ranks.size(), want.stragglers.ranks.size());
        for (std::size_t r = 0; r < got.stragglers.ranks.size(); ++r) {
            const RankStragglerRow& g = got.stragglers.ranks[r];
            const RankStragglerRow& w = want.stragglers.ranks[r];
            QCOMPARE(g.rank, w.rank);
            QCOMPARE(g.medianComputeUs, w.medianComputeUs);
            QCOMPARE(g.robustZ, w.robustZ);
            QCOMPARE(g.waitUs, w.waitUs);
            QCOMPARE(g.candidate, w.candidate);
        }
        QCOMPARE(got.stragglers.medianComputeUs, want.stragglers.medianComputeUs);
        QCOMPARE(got.stragglers.thresholdUs, want.stragglers.thresholdUs);
        QVERIFY(got.stragglers.candidates == std::vector<long>{kJsStraggler});
        QVERIFY(got.stragglers.evidence == want.stragglers.evidence);
        QCOMPARE(got.triage.verdict, std::string("straggler"));
        QVERIFY(got.triage.stragglerRank == want.triage.stragglerRank);
        QCOMPARE(got.triage.evidence, want.triage.evidence);
        QCOMPARE(got.triage.measures.heaviestRank, long{kJsStraggler});
        QCOMPARE(got.triage.measures.heaviestComputeUs, want.triage.measures.heaviestComputeUs);
        QCOMPARE(got.triage.measures.othersWaitUs, want.triage.measures.othersWaitUs);
        QCOMPARE(got.triage.measures.medianWindowUs, want.triage.measures.medianWindowUs);
        // Not in a summary: empty, not zeros that look measured.
        QVERIFY(got.idle.empty());
        QVERIFY(got.launches.perKernel.empty());
        QVERIFY(got.kernels.top.empty());
    }

    void roundTripsThroughJson() {
        SingleProcess one;
        SummarizeRequest request{
            .inputs = {m_dir.path().toStdString()}, .out = m_summaryPath, .toolVersion = "t"};
        std::ostringstream log;
        QCOMPARE(runSummarizeJob(request, one, log), 0);
        QVERIFY2(log.str().find("verdict straggler (rank 5)") != std::string::npos,
                 log.str().c_str());
        const JobSummary read = readJobSummary(m_summaryPath);
        QVERIFY(!std::ifstream(m_summaryPath + ".partial")); // renamed, not left behind
        JobSummary again = summarizeJob(request, one);
        again.provenance = read.provenance; // dates and timings differ between runs
        QVERIFY(read == again);
        QCOMPARE(jobSummaryJson(read).dump(), jobSummaryJson(again).dump());
    }

    void badFilesSayWhere() {
        const std::string text = readAll(QString::fromStdString(m_summaryPath));
        QVERIFY(text.size() > 1000);
        // Cut in the middle: the position of the end.
        expectSummaryError(text.substr(0, text.size() / 2), "line 1, column ");
        expectSummaryError("{\n  \"format\": \"warpboard-job-summary\",\n  oops",
                           "line 3, column 3");
        // A number too large for a double is a syntax error with its position too.
        expectSummaryError("{\"format\": 1e999}", "line 1, column 1");
        auto doc = nlohmann::ordered_json::parse(text);
        auto wrong = doc;
        wrong["per_rank"][2]["compute_us"] = "fast";
        expectSummaryError(wrong.dump(), "/per_rank/2/compute_us: expected a number, found string");
        wrong = doc;
        wrong["rank_details"][1]["steps"][0][1] = "slow";
        expectSummaryError(wrong.dump(), "/rank_details/1/steps/0/1 (step_us): expected a finite "
                                         "number, found string");
        wrong = doc;
        wrong["rank_details"][1]["steps"][0].erase(0);
        expectSummaryError(wrong.dump(), "/rank_details/1/steps/0: expected a row of 11 values");
        wrong = doc;
        wrong["rank_details"][0].erase("file");
        expectSummaryError(wrong.dump(), "/rank_details/0: missing \"file\"");
        wrong = doc;
        wrong["rank_details"][0]["candidate"] = 1;
        expectSummaryError(wrong.dump(), "/rank_details/0/candidate: expected true or false");
        wrong = doc;
        wrong["format"] = "chrome";
        expectSummaryError(wrong.dump(), "/format: not a job summary");
        wrong = doc;
        wrong["version"] = 99;
        expectSummaryError(wrong.dump(), "/version: version 99");
        wrong = doc;
        wrong["per_rank"].erase(wrong["per_rank"].size() - 1);
        expectSummaryError(wrong.dump(), "/rank_details: 8 ranks, but per_rank has 7");
        expectSummaryError("[1, 2]", "expected a job summary object, found array");
        try {
            readJobSummary(m_dir.filePath("missing.wbsum.json").toStdString());
            QFAIL("no error for a missing file");
        } catch (const JobSummaryError& e) {
            QVERIFY(std::string(e.what()).starts_with("cannot open '"));
        }
    }

    // A file that does not read is reported with its reason; the others are summarised.
    void failedFileIsReportedAndTheRestSummarised() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QStringList paths = writeJob(dir, stragglerJob());
        const std::string cut = readAll(paths[3]);
        std::ofstream(paths[3].toStdString(), std::ios::binary | std::ios::trunc)
            << cut.substr(0, cut.size() / 2);
        SingleProcess one;
        std::ostringstream log;
        const std::string out = dir.filePath("job.wbsum.json").toStdString();
        QCOMPARE(runSummarizeJob({.inputs = {dir.path().toStdString(), "/nonexistent/x.json"},
                                  .out = out,
                                  .toolVersion = "t"},
                                 one, log),
                 2);
        const JobSummary s = readJobSummary(out);
        QCOMPARE(s.ranks.size(), std::size_t{kJsRanks - 1});
        QCOMPARE(s.failed.size(), std::size_t{2});
        QCOMPARE(s.failed[0].path, std::string("/nonexistent/x.json"));
        QCOMPARE(s.failed[1].path, paths[3].toStdString());
        QVERIFY2(s.failed[1].reason.find("byte") != std::string::npos, s.failed[1].reason.c_str());
        // paths[3] held rank 3.
        for (const JobSummaryRank& r : s.ranks)
            QVERIFY(r.whole.rank != 3);
        QVERIFY(log.str().find(s.failed[1].reason) != std::string::npos);
    }

    // A trace without ProfilerStep annotations is one step (number -1) holding all its work:
    // two kernels [10, 15) and [20, 25) µs, so compute 10 µs, window 15 µs, idle 5 µs.
    void traceWithoutStepsIsOneStep() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const char* kernel = R"({"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7,
            "ts": %1, "dur": 5, "args": {"device": 0, "stream": 7}})";
        std::ofstream(dir.filePath("rank-0.json").toStdString())
            << R"({"traceEvents": [)" << QString(kernel).arg(10).toStdString() << ", "
            << QString(kernel).arg(20).toStdString() << "]}";
        SingleProcess one;
        const JobSummary s = summarizeJob(
            {.inputs = {dir.path().toStdString()}, .out = "x", .toolVersion = "t"}, one);
        QCOMPARE(s.ranks.size(), std::size_t{1});
        const JobSummaryRank& r = s.ranks[0];
        QCOMPARE(r.whole.computeUs, 10.0);
        QCOMPARE(r.whole.windowUs, 15.0);
        QCOMPARE(r.whole.idleUs, 5.0);
        QCOMPARE(r.rankSource, std::string("file name"));
        QCOMPARE(r.steps.size(), std::size_t{1});
        QCOMPARE(r.steps[0].number, -1L);
        QVERIFY(r.steps[0].figures == r.whole);
        QCOMPARE(s.verdict, std::string("none"));
    }

    // The provenance's hash is FNV-1a 64: the published test vectors ("", "a", "foobar").
    void fileHashIsFnv1a64() {
        QCOMPARE(fnv1a64(""), std::uint64_t{0xcbf29ce484222325ULL});
        QCOMPARE(fnv1a64("a"), std::uint64_t{0xaf63dc4c8601ec8cULL});
        QCOMPARE(fnv1a64("foobar"), std::uint64_t{0x85944171f73967e8ULL});
        QCOMPARE(fnv1a64("bar", fnv1a64("foo")), fnv1a64("foobar")); // chunks chain
        QTemporaryDir dir; // not the job's folder: a .txt there would be read as a rank file
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("foobar.txt");
        std::ofstream(path.toStdString(), std::ios::binary) << "foobar";
        QVERIFY(fileFnv1a64(path.toStdString()) == std::optional<std::string>("85944171f73967e8"));
        QVERIFY(!fileFnv1a64(dir.filePath("absent").toStdString()));
    }

    void filesAreBalancedBySize() {
        // Largest first to the least loaded: 10 → p0, 9 → p1, 8 → p1 (9 < 10), 5 → p0 (15/17),
        // 1 → p0, 1 → p0 (17/17), the last 1 → p1, which holds fewer files: 17/18.
        const std::vector<std::uint64_t> bytes{1, 10, 8, 1, 9, 5, 1};
        const std::vector<int> reader = balanceFiles(bytes, 2);
        std::uint64_t load[2] = {0, 0};
        for (std::size_t i = 0; i < bytes.size(); ++i)
            load[reader[i]] += bytes[i];
        QCOMPARE(reader[1], 0);
        QCOMPARE(reader[4], 1);
        QCOMPARE(reader[2], 1);
        QCOMPARE(reader[5], 0);
        QCOMPARE(load[0] + load[1], std::uint64_t{35});
        QCOMPARE(load[0], std::uint64_t{17});
        // Equal (empty) files spread by count.
        const std::vector<int> empty = balanceFiles(std::vector<std::uint64_t>(8, 0), 4);
        std::map<int, int> per;
        for (const int p : empty)
            ++per[p];
        QCOMPARE(per.size(), std::size_t{4});
        for (const auto& [p, n] : per)
            QCOMPARE(n, 2);
    }

    void launcherWithoutMpiIsRefused() {
        const std::map<std::string, std::string> fakeEnv{{"OMPI_COMM_WORLD_SIZE", "4"}};
        const auto env = [&fakeEnv](const char* name) -> const char* {
            const auto it = fakeEnv.find(name);
            return it == fakeEnv.end() ? nullptr : it->second.c_str();
        };
        QVERIFY(launcherWorldSize(env) == std::optional<long>(4));
        QVERIFY(!launcherWorldSize([](const char*) -> const char* { return nullptr; }));
        QVERIFY(launcherWorldSize([](const char* n) -> const char* {
                    return std::string(n) == "PMI_SIZE" ? "16" : nullptr;
                }) == std::optional<long>(16));
        SingleProcess one;
        std::ostringstream out, err;
        const std::string path = m_dir.filePath("never.wbsum.json").toStdString();
        QCOMPARE(runSummarizeCommand({m_dir.path().toStdString(), "--out", path}, one,
                                     {.version = "t", .withMpi = false}, env, out, err),
                 2);
        QVERIFY2(err.str().find("built without MPI") != std::string::npos, err.str().c_str());
        QVERIFY(!std::ifstream(path));
        // Usage mistakes.
        std::ostringstream err2;
        QCOMPARE(runSummarizeCommand(
                     {m_dir.path().toStdString(), "--out"}, one, {.version = "t", .withMpi = false},
                     [](const char*) -> const char* { return nullptr; }, out, err2),
                 2);
        QVERIFY2(err2.str().find("--out needs a value") != std::string::npos, err2.str().c_str());
    }
};

QTEST_APPLESS_MAIN(TestJobSummary)
#include "test_job_summary.moc"
