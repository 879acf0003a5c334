// The Chrome/Kineto importer against real files. Expected counts were counted independently
// with a small Python script (json.load with parse_float=Decimal so ts/dur keep their text):
// events = len(traceEvents); kernels = X events with cat "kernel"/"Kernel"; comm_kernels =
// those whose name matches ^(void )?nccl(Dev)?Kernel; span = max(ts + dur) - min(ts) over
// every event with a ts except M; unclosed = B left on a per-(pid, tid) stack at the end.
#include "import/chrome_trace_result.h"
#include "import/import_registry.h"
#include "import/importers.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <map>
#include <set>

using namespace wb;

namespace {

const QString kData = QStringLiteral(WB_TEST_DATA "/import/");

using Parsed = std::variant<std::unique_ptr<ImportResult>, ImportError>;

Parsed parseSource(ByteSource& source, const ImportControl& control = {}) {
    return chromeTraceImporter().parse(source, control);
}

Parsed parseText(std::string text, std::string name = "memory") {
    auto source = ByteSource::fromMemory(std::move(text), std::move(name));
    return parseSource(*source);
}

Parsed parseFile(const QString& path) {
    auto opened = ByteSource::open(path.toStdString());
    if (auto* err = std::get_if<ImportError>(&opened))
        return *err;
    return parseSource(*std::get<std::unique_ptr<ByteSource>>(opened));
}

const ChromeTraceResult* traceOf(const Parsed& parsed) {
    if (auto* err = std::get_if<ImportError>(&parsed)) {
        qWarning("import failed: %s", err->describe().c_str());
        return nullptr;
    }
    return dynamic_cast<const ChromeTraceResult*>(
        std::get<std::unique_ptr<ImportResult>>(parsed).get());
}

std::string decompressed(const QString& path) {
    auto opened = ByteSource::open(path.toStdString());
    auto text = std::get<std::unique_ptr<ByteSource>>(opened)->readAll();
    return std::get<std::string>(text);
}

// The track of (pid, tid), or -1.
int trackOf(const TraceStore& s, const std::string& pid, const std::string& tid) {
    for (std::size_t i = 0; i < s.tracks().size(); ++i) {
        const TraceTrack& t = s.tracks()[i];
        if (s.processes()[t.process].pid == pid && t.tid == tid)
            return static_cast<int>(i);
    }
    return -1;
}

std::map<std::string, int> collectives(const TraceStore& s,
                                       std::set<std::string>* algos = nullptr) {
    std::map<std::string, int> out;
    for (const auto& e : s.events()) {
        if (e.kind != EventKind::CommKernel)
            continue;
        const KernelInfo& k = s.kernels()[e.kernel];
        ++out[std::string(s.strings().text(k.collective))];
        if (algos)
            algos->insert(std::string(s.strings().text(k.algorithm)) + "/" +
                          std::string(s.strings().text(k.protocol)));
    }
    return out;
}

} // namespace

class TestTraceImport : public QObject {
    Q_OBJECT
private slots:
    // ---- always run: small copies in tests/data/import ----

    void oldSchemaKinetoWithStringTids() {
        // 2022 Kineto: cat "Kernel", string tids ("PyTorch Profiler"), integer µs.
        // Python: events 54, kernels 4, comm 0, span 2163583 µs, distributedInfo.rank 1.
        const Parsed parsed = parseFile(kData + "hta_old_kineto_inference_rank_1.json.gz");
        const auto* r = traceOf(parsed);
        QVERIFY(r);
        QCOMPARE(r->format, std::string("kineto"));
        QCOMPARE(r->eventCount, std::uint64_t(54));
        QCOMPARE(r->kernelCount, std::uint64_t(4));
        QCOMPARE(r->commKernelCount, std::uint64_t(0));
        QCOMPARE(r->rank.value(), 1L);
        QCOMPARE(r->rankSource, std::string("distributedInfo"));
        const TraceStore& s = r->store;
        QCOMPARE(s.maxNs() - s.minNs(), INT64_C(2163583000));
        // String pid and tid (Python: pid "Spans", tid "PyTorch Profiler").
        QVERIFY(trackOf(s, "Spans", "PyTorch Profiler") >= 0);
        // The first kernel's args (Python: grid [64,1,1], 16 registers, occupancy 5 %).
        const int gpu = trackOf(s, "0", "7");
        QVERIFY(gpu >= 0);
        const TraceTrack& t = s.tracks()[static_cast<std::size_t>(gpu)];
        QCOMPARE(t.name, std::string("stream 7")); // from the thread_name M event
        QCOMPARE(t.sortIndex, std::int64_t(7));
        int kernels = 0;
        const KernelInfo* first = nullptr;
        for (std::uint32_t i = t.begin; i < t.end; ++i) {
            const StoredEvent& e = s.events()[i];
            if (e.kind == EventKind::Kernel) {
                ++kernels;
                if (!first)
                    first = &s.kernels()[e.kernel];
            }
        }
        QCOMPARE(kernels, 4);
        QVERIFY(first);
        QCOMPARE(first->grid[0], 64);
        QCOMPARE(first->block[0], 128);
        QCOMPARE(first->registersPerThread, 16);
        QCOMPARE(first->sharedMemory, 0);
        QCOMPARE(first->occupancyPct, 5.0f);
        const auto j = r->summary();
        for (const char* key :
             {"path", "format", "events", "kernels", "comm_kernels", "ranks", "span_us"})
            QVERIFY2(j.contains(key), key);
        QCOMPARE(j["span_us"].get<double>(), 2163583.0);
    }

    void unsignedIdsAboveInt64() {
        // HTA's fixture: "Comms Id": 10159970886766084423 (> 2^63) and a bare NCCL name.
        const Parsed parsed = parseFile(kData + "hta_fixture_uint64_comms_id.json.gz");
        const auto* r = traceOf(parsed);
        QVERIFY(r);
        QCOMPARE(r->eventCount, std::uint64_t(2));
        QCOMPARE(r->kernelCount, std::uint64_t(1));
        QCOMPARE(r->commKernelCount, std::uint64_t(1));
        QCOMPARE(collectives(r->store), (std::map<std::string, int>{{"AllReduce", 1}}));
    }

    void catapultFlowsWithStringIds() {
        // Python: 10 events; flow ids "8780d402" s→t→f and "8780d403" s→f: 3 links.
        const Parsed parsed = parseFile(kData + "catapult_flow_simple.json");
        const auto* r = traceOf(parsed);
        QVERIFY(r);
        QCOMPARE(r->format, std::string("chrome"));
        QCOMPARE(r->eventCount, std::uint64_t(10));
        QCOMPARE(r->store.flowPoints().size(), std::size_t(5));
        QCOMPARE(r->store.flowLinks().size(), std::size_t(3));
        QCOMPARE(r->store.danglingFlowPoints(), std::size_t(0));
        QCOMPARE(r->store.maxNs() - r->store.minNs(), INT64_C(3731000));
    }

    void catapultBareArrayCounters() {
        // Bare array; Python: 12 events, 2 B/E pairs, 8 C samples in 2 instances (id 123, b).
        const Parsed parsed = parseFile(kData + "catapult_instance_counters.json");
        const auto* r = traceOf(parsed);
        QVERIFY(r);
        QCOMPARE(r->eventCount, std::uint64_t(12));
        QCOMPARE(r->store.events().size(), std::size_t(2));
        QCOMPARE(r->store.counters().size(), std::size_t(8));
        std::set<std::uint32_t> series;
        for (const auto& c : r->store.counters())
            series.insert(c.series);
        QCOMPARE(series.size(), std::size_t(2));
        QCOMPARE(r->unclosedSlices, std::uint64_t(0));
    }

    void beginEndAsyncAndUnclosed() {
        const std::string text = R"([
            {"ph": "B", "name": "outer", "pid": 1, "tid": "main", "ts": 0},
            {"ph": "B", "name": "inner", "pid": 1, "tid": "main", "ts": 1.5},
            {"ph": "E", "pid": 1, "tid": "main", "ts": 2.25},
            {"ph": "E", "pid": 1, "tid": "other", "ts": 3},
            {"ph": "B", "name": "never closed", "pid": 1, "tid": "main", "ts": 4},
            {"ph": "b", "cat": "c", "id": "0x1", "name": "req", "pid": 1, "tid": 1, "ts": 5},
            {"ph": "n", "cat": "c", "id": "0x1", "name": "mark", "pid": 1, "tid": 1, "ts": 6},
            {"ph": "e", "cat": "c", "id": "0x1", "name": "req", "pid": 1, "tid": 1, "ts": 7},
            {"ph": "i", "name": "now", "pid": 1, "tid": 1, "ts": 8, "s": "g"},
            {"ph": "s", "id": 18446744073709551615, "pid": 1, "tid": 1, "ts": 9},
            {"ph": "f", "id": 18446744073709551615, "bp": "e", "pid": 2, "tid": 1, "ts": 10},
            {"ph": "f", "id": 42, "pid": 2, "tid": 1, "ts": 10.001},
            {"ph": "M", "name": "thread_name", "pid": 1, "tid": "main", "args": {"name": "Main"}}
        ])";
        const Parsed parsed = parseText(text);
        const auto* r = traceOf(parsed);
        QVERIFY(r);
        QCOMPARE(r->eventCount, std::uint64_t(13));
        QCOMPARE(r->unclosedSlices, std::uint64_t(2)); // outer and "never closed"
        QCOMPARE(r->unmatchedEnds, std::uint64_t(1));
        QCOMPARE(r->unmatchedAsync, std::uint64_t(0));
        const TraceStore& s = r->store;
        const int main = trackOf(s, "1", "main");
        QVERIFY(main >= 0);
        QCOMPARE(s.tracks()[static_cast<std::size_t>(main)].name, std::string("Main"));
        std::map<std::string, const StoredEvent*> byName;
        for (const auto& e : s.events())
            byName[std::string(s.strings().text(e.name))] = &e;
        QCOMPARE(byName.at("inner")->durNs, INT64_C(750));
        QCOMPARE(byName.at("outer")->durNs, INT64_C(10001)); // open: drawn to the trace end
        QCOMPARE(byName.at("outer")->flags, StoredEvent::kUnclosed);
        QCOMPARE(byName.at("never closed")->durNs, INT64_C(6001));
        QCOMPARE(byName.at("req")->durNs, INT64_C(2000));
        QCOMPARE(byName.at("req")->phase, 'b');
        QCOMPARE(byName.at("mark")->phase, 'n');
        QCOMPARE(byName.at("now")->phase, 'i');
        QCOMPARE(s.flowLinks().size(), std::size_t(1));   // the uint64 id pair
        QCOMPARE(s.danglingFlowPoints(), std::size_t(1)); // id 42: an f with no s
        // Drawing index: what overlaps [1.6 µs, 2 µs) on the main track starts with outer.
        const auto [from, to] = s.overlapping(static_cast<std::uint32_t>(main), 1600, 2000);
        QCOMPARE(to - from, 2u);
        QCOMPARE(std::string(s.strings().text(s.events()[from].name)), std::string("outer"));
    }

    void wrongTypesNameTheEventAndField() {
        const Parsed parsed = parseText(R"({"traceEvents": [{"ph": "X", "ts": 1, "dur": 2},
                           {"ph": "X", "ts": "abc", "dur": 2}]})");
        const auto* err = std::get_if<ImportError>(&parsed);
        QVERIFY(err);
        QVERIFY2(err->message.find("traceEvents[1]") != std::string::npos, err->message.c_str());
        QVERIFY2(err->message.find("\"ts\"") != std::string::npos, err->message.c_str());
        QVERIFY2(err->message.find("must be a number") != std::string::npos, err->message.c_str());
        QVERIFY(err->byteOffset > 40);

        const Parsed notObject = parseText(R"({"traceEvents": [1]})");
        QVERIFY(std::holds_alternative<ImportError>(notObject));
        const Parsed noEvents = parseText(R"({"schemaVersion": 1})");
        QVERIFY(std::holds_alternative<ImportError>(noEvents));
        const Parsed empty = parseText("");
        QVERIFY(std::holds_alternative<ImportError>(empty));
    }

    void truncatedCopiesFailWithTheirByteOffset() {
        const std::string whole = decompressed(kData + "catapult_flow_simple.json");
        const std::size_t last = whole.find_last_of("}]");
        int failures = 0;
        for (std::size_t cut = 0; cut <= last; ++cut) {
            const Parsed parsed = parseText(whole.substr(0, cut));
            const auto* err = std::get_if<ImportError>(&parsed);
            QVERIFY2(err, qPrintable(QString("a copy cut at byte %1 was accepted").arg(cut)));
            QVERIFY(err->byteOffset <= cut);
            QVERIFY(!err->message.empty());
            ++failures;
        }
        QCOMPARE(failures, int(last + 1));
        const Parsed cut = parseText(whole.substr(0, whole.find("\"ts\": 3002")));
        const auto* err = std::get_if<ImportError>(&cut);
        QVERIFY(err);
        QVERIFY2(err->message.find("expected") != std::string::npos, err->message.c_str());
    }

    void corruptedCopiesNeverCrash() {
        // Every byte position overwritten with a few troublesome bytes: each copy either
        // imports or fails with a message; nothing crashes or hangs.
        const std::string whole = decompressed(kData + "hta_old_kineto_inference_rank_1.json.gz");
        int errors = 0;
        for (std::size_t at = 0; at < whole.size(); at += 3) {
            for (const char bad : {'\0', '"', '{', ']', 'x', '9'}) {
                std::string copy = whole;
                copy[at] = bad;
                const Parsed parsed = parseText(copy);
                if (const auto* err = std::get_if<ImportError>(&parsed)) {
                    QVERIFY(!err->message.empty());
                    QVERIFY(err->byteOffset <= copy.size());
                    ++errors;
                }
            }
        }
        QVERIFY(errors > 0);
    }

    void truncatedGzipFails() {
        QFile in(kData + "hta_old_kineto_inference_rank_1.json.gz");
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray bytes = in.readAll();
        QTemporaryDir dir;
        const QString path = dir.filePath("cut.json.gz");
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(bytes.left(bytes.size() / 2));
        out.close();
        const Parsed parsed = parseFile(path);
        const auto* err = std::get_if<ImportError>(&parsed);
        QVERIFY(err);
        QVERIFY2(err->message.find("truncated") != std::string::npos, err->message.c_str());
        QCOMPARE(err->path, path.toStdString());
    }

    void progressAndCancel() {
        std::string text = "[";
        for (int i = 0; i < 60000; ++i)
            text += std::string(i ? "," : "") + R"({"ph":"X","name":"k","pid":0,"tid":0,"ts":)" +
                    std::to_string(i) + R"(,"dur":1})";
        text += "]";
        QVERIFY(text.size() > 2u << 20); // several 1 MiB chunks
        int calls = 0;
        ImportControl control;
        control.progress = [&](std::uint64_t done, std::uint64_t total) {
            QVERIFY(done <= total);
            ++calls;
        };
        auto source = ByteSource::fromMemory(text);
        const Parsed parsed = parseSource(*source, control);
        QVERIFY(traceOf(parsed));
        QCOMPARE(traceOf(parsed)->eventCount, std::uint64_t(60000));
        QVERIFY(calls >= 3);

        ImportControl cancel;
        int polls = 0;
        cancel.cancelled = [&] { return ++polls > 1; };
        auto again = ByteSource::fromMemory(text);
        const Parsed stopped = parseSource(*again, cancel);
        const auto* err = std::get_if<ImportError>(&stopped);
        QVERIFY(err);
        QCOMPARE(err->message, std::string("cancelled"));
    }

    void probe() {
        const Importer imp = chromeTraceImporter();
        QVERIFY(imp.probe(R"({"schemaVersion": 1, "traceEvents": [)", "a.json") > 0.9);
        QVERIFY(imp.probe("[\n  {\"name\": \"a\", \"ph\": \"B\"", "a.json") > 0.8);
        QVERIFY(imp.probe("==PROF== Connected to process", "a.csv") == 0.0);
        QVERIFY(imp.probe("host:1:2 [0] NCCL INFO Bootstrap", "a.log") == 0.0);
    }

    // ---- real files from public projects (tests/data/README.md says where from) ----

    void htaSampledRanksAreTwoRanks() {
        // Python: rank-0 4855 events / 1154 kernels / 10 NCCL SendRecv; rank-1 4720 / 1104 / 10.
        struct Expect {
            const char* file;
            std::uint64_t events, kernels, comm;
            long rank;
        };
        std::set<long> ranks;
        for (const Expect& x : {Expect{"hta_sampled_rank-0.json.gz", 4855, 1154, 10, 0},
                                Expect{"hta_sampled_rank-1.json.gz", 4720, 1104, 10, 1}}) {
            const auto parsed = importFile((kData + x.file).toStdString());
            const auto* r = traceOf(parsed);
            QVERIFY(r);
            QCOMPARE(r->format, std::string("kineto"));
            QCOMPARE(r->eventCount, x.events);
            QCOMPARE(r->kernelCount, x.kernels);
            QCOMPARE(r->commKernelCount, x.comm);
            QCOMPARE(r->rank.value(), x.rank);
            std::set<std::string> algos;
            QCOMPARE(collectives(r->store, &algos), (std::map<std::string, int>{{"SendRecv", 10}}));
            QCOMPARE(algos, (std::set<std::string>{"RING/SIMPLE"}));
            ranks.insert(*r->rank);
        }
        QCOMPARE(ranks.size(), std::size_t(2));
    }

    void nsResolutionKeepsSubMicrosecondDurations() {
        // Python (Decimal) on the 20 ms window: the first kernel with a non-whole-ns-multiple
        // dur is CatArrayBatchedCopy... at ts 1712195495505582.988, dur 4.928, pid 0, tid 7.
        // Totals: 3903 events, 51 kernels, span 35920.492 µs.
        const Parsed parsed = parseFile(kData + "hta_ns_resolution_rank-0_window.pt.trace.json.gz");
        const auto* r = traceOf(parsed);
        QVERIFY(r);
        QCOMPARE(r->eventCount, std::uint64_t(3903));
        QCOMPARE(r->kernelCount, std::uint64_t(51));
        QCOMPARE(r->store.maxNs() - r->store.minNs(), INT64_C(35920492));
        const TraceStore& s = r->store;
        const int gpu = trackOf(s, "0", "7");
        QVERIFY(gpu >= 0);
        const auto [from, to] =
            s.overlapping(static_cast<std::uint32_t>(gpu), INT64_C(1712195495505582988),
                          INT64_C(1712195495505582989));
        bool found = false;
        for (std::uint32_t i = from; i < to; ++i) {
            const StoredEvent& e = s.events()[i];
            if (e.startNs == INT64_C(1712195495505582988) && e.kind == EventKind::Kernel) {
                QCOMPARE(e.durNs, INT64_C(4928));
                found = true;
            }
        }
        QVERIFY(found);
    }

    void oldSchema2021ClassifiesKernels() {
        // 2021 TensorBoard-plugin input: computeProperties, cat "Kernel", tids "stream 7".
        // Python: 340 events, 30 kernels, span 14103 µs.
        const Parsed parsed = parseFile(kData + "kineto_tbplugin_gpu_metrics_input_2021.json.gz");
        const auto* r = traceOf(parsed);
        QVERIFY(r);
        QCOMPARE(r->format, std::string("kineto"));
        QCOMPARE(r->eventCount, std::uint64_t(340));
        QCOMPARE(r->kernelCount, std::uint64_t(30));
        int kernels = 0;
        for (const auto& e : r->store.events())
            kernels += e.kind == EventKind::Kernel ? 1 : 0;
        QCOMPARE(kernels, 30);
        QVERIFY(trackOf(r->store, "1", "stream 7") >= 0 || trackOf(r->store, "0", "stream 7") >= 0);
    }

    void ncclKernelsInOldTrace() {
        // Python on the window (ProfilerStep#4's first 113 ms): 5960 events, 340 kernels,
        // NCCL: AllReduce_RING_LL 1, Broadcast_RING_LL 2.
        const Parsed parsed = parseFile(kData + "hta_nccl_data_rank0_window.json.gz");
        const auto* r = traceOf(parsed);
        QVERIFY(r);
        QCOMPARE(r->eventCount, std::uint64_t(5960));
        QCOMPARE(r->kernelCount, std::uint64_t(340));
        QCOMPARE(r->commKernelCount, std::uint64_t(3));
        std::set<std::string> algos;
        QCOMPARE(collectives(r->store, &algos),
                 (std::map<std::string, int>{{"AllReduce", 1}, {"Broadcast", 2}}));
        QCOMPARE(algos, (std::set<std::string>{"RING/LL"}));
    }

    void oldNcclKernelNamesAreCommunication() {
        // PyTorch 1.8-era DDP rank (2021 categories) with NCCL 2.7's kernel names: one
        // broadcast, a ring and a tree all-reduce among 7 kernels (written for the test).
        const Parsed parsed = parseFile(kData + "kineto_2021_ddp_nccl2.7_kernel_names_rank-0.json");
        const auto* r = traceOf(parsed);
        QVERIFY(r);
        QCOMPARE(r->kernelCount, std::uint64_t(7));
        QCOMPARE(r->commKernelCount, std::uint64_t(3));
        std::set<std::string> algos;
        QCOMPARE(collectives(r->store, &algos),
                 (std::map<std::string, int>{{"AllReduce", 2}, {"Broadcast", 1}}));
        QCOMPARE(algos, (std::set<std::string>{"RING/LL", "TREE/LL"}));
        QVERIFY(r->unanalysedDevice.empty());
    }

    void nonCudaDeviceEventsAreNamed() {
        // MTIA-like rank (written for the test): 4 mtia_ccp_events and a gpu_user_annotation
        // on the "MTIA 0" rows, no CUDA kernel.
        const Parsed parsed = parseFile(kData + "kineto_mtia_like_rank-0.json");
        const auto* r = traceOf(parsed);
        QVERIFY(r);
        QCOMPARE(r->kernelCount, std::uint64_t(0));
        QCOMPARE(r->unanalysedDevice.size(), std::size_t(2));
        QCOMPARE(r->unanalysedDevice[0],
                 (UnanalysedDeviceEvents{"gpu_user_annotation", "MTIA", 1}));
        QCOMPARE(r->unanalysedDevice[1], (UnanalysedDeviceEvents{"mtia_ccp_events", "MTIA", 4}));
        const auto j = r->summary();
        QCOMPARE(j["unanalysed_device_events"].get<int>(), 5);
        QCOMPARE(j["notes"][1].get<std::string>(),
                 std::string("4 device events of category mtia_ccp_events on device type MTIA "
                             "were found but not analysed: Warpboard's analyses read CUDA/ROCm "
                             "kernels, and this trace has none"));
    }

    void deviceCategoriesWithoutKernels_data() {
        QTest::addColumn<QString>("events");
        QTest::addColumn<QString>("category");
        QTest::addColumn<QString>("device");
        // Kernels filtered out of the profile: only the annotations on the GPU row remain.
        QTest::newRow("gpu_user_annotation only")
            << R"({"ph": "X", "cat": "gpu_user_annotation", "name": "step", "pid": 0, "tid": 7,
                 "ts": 1, "dur": 5})"
            << "gpu_user_annotation"
            << "GPU";
        // A category no tool we know writes, on a row Kineto labels as a device.
        QTest::newRow("unknown category on a device")
            << R"({"ph": "M", "name": "process_labels", "pid": 3, "args": {"labels": "XPU 3"}},
                 {"ph": "X", "cat": "xpu_kernel_v2", "name": "gemm", "pid": 3, "tid": 1,
                  "ts": 1, "dur": 5})"
            << "xpu_kernel_v2"
            << "XPU";
    }

    void deviceCategoriesWithoutKernels() {
        QFETCH(QString, events);
        QFETCH(QString, category);
        QFETCH(QString, device);
        const Parsed parsed = parseText("{\"traceEvents\": [" + events.toStdString() + "]}");
        const auto* r = traceOf(parsed);
        QVERIFY(r);
        QCOMPARE(r->unanalysedDevice.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(r->unanalysedDevice[0].category), category);
        QCOMPARE(QString::fromStdString(r->unanalysedDevice[0].deviceType), device);
        QCOMPARE(r->unanalysedNotes().size(), std::size_t(1));
    }

    void cudaTracesHaveNothingUnanalysed() {
        // The bundled CUDA/ROCm and browser traces (a Chrome "GPU Process" is not a device):
        // their summaries keep their shape.
        for (const char* file :
             {"hta_old_kineto_inference_rank_1.json.gz", "hta_sampled_rank-0.json.gz",
              "hta_nccl_data_rank0_window.json.gz",
              "hta_ns_resolution_rank-0_window.pt.trace.json.gz",
              "kineto_tbplugin_gpu_metrics_input_2021.json.gz", "catapult_flow.json.gz",
              "catapult_x_event_trace.json.gz", "catapult_main_thread_has_unclosed_slices.json.gz",
              "hta_fixture_uint64_comms_id.json.gz"}) {
            const Parsed parsed = parseFile(kData + file);
            const auto* r = traceOf(parsed);
            QVERIFY2(r, file);
            QVERIFY2(r->unanalysedDevice.empty(), file);
            QVERIFY2(!r->summary().contains("notes"), file);
        }
    }

    void executionTraceIsNamed() {
        // PyTorch's execution trace (schema first, then "nodes"): the registry sends it here
        // and the error says what it is and what to open instead.
        const auto result = importFile((kData + "pytorch_simple_add_et.json").toStdString());
        const auto* e = std::get_if<ImportError>(&result);
        QVERIFY(e);
        QVERIFY2(e->message.find("this is a PyTorch execution trace (the operator graph, schema "
                                 "1.1.1-chakra.0.0.4), not a profiler trace") == 0,
                 e->message.c_str());
        QVERIFY2(e->message.find("Kineto") != std::string::npos, e->message.c_str());
        QVERIFY(e->byteOffset > 0);
        // The 2022 schema, and "nodes" before "schema": still named.
        for (const char* text : {R"({"schema": "1.0.1", "pid": 7, "nodes": [{"id": 1}]})",
                                 R"({"nodes": [], "schema": "1.0.2-chakra.0.0.4"})"}) {
            const Parsed p = parseText(text);
            const auto* err = std::get_if<ImportError>(&p);
            QVERIFY(err);
            QVERIFY2(err->message.find("PyTorch execution trace") != std::string::npos,
                     err->message.c_str());
        }
    }

    void catapultFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qulonglong>("events");
        QTest::addColumn<qulonglong>("unclosed");
        QTest::addColumn<qlonglong>("spanNs");
        // Python counts (see the header comment).
        QTest::newRow("unclosed") << "catapult_main_thread_has_unclosed_slices.json.gz" << 3386ull
                                  << 4ull << 5051809000ll;
        QTest::newRow("flow") << "catapult_flow.json.gz" << 5017ull << 3ull << 8591811000ll;
        QTest::newRow("x events") << "catapult_x_event_trace.json.gz" << 4027ull << 0ull
                                  << 1652495000ll;
        QTest::newRow("async") << "catapult_async_begin_end.json" << 35ull << 0ull << 900000ll;
        QTest::newRow("nestable") << "catapult_nestable_async.json" << 20ull << 0ull << 190000ll;
        QTest::newRow("ns") << "catapult_nanoseconds.json" << 16ull << 0ull << 3021ll;
        QTest::newRow("simple") << "catapult_simple_trace.json" << 37ull << 0ull << 62000ll;
    }

    void catapultFiles() {
        QFETCH(QString, file);
        QFETCH(qulonglong, events);
        QFETCH(qulonglong, unclosed);
        QFETCH(qlonglong, spanNs);
        const Parsed parsed = parseFile(kData + file);
        const auto* r = traceOf(parsed);
        QVERIFY(r);
        QCOMPARE(r->format, std::string("chrome"));
        QCOMPARE(r->eventCount, std::uint64_t(events));
        QCOMPARE(r->unclosedSlices, std::uint64_t(unclosed));
        QCOMPARE(r->store.maxNs() - r->store.minNs(), std::int64_t(spanNs));
    }

    void corpusTruncatedCopiesFail() {
        for (const char* file :
             {"hta_sampled_rank-0.json.gz", "kineto_tbplugin_gpu_metrics_input_2021.json.gz",
              "catapult_flow.json.gz"}) {
            const std::string whole = decompressed(kData + file);
            for (const double fraction : {0.1, 0.5, 0.9, 0.999}) {
                const auto cut =
                    static_cast<std::size_t>(static_cast<double>(whole.size()) * fraction);
                const Parsed parsed = parseText(whole.substr(0, cut), file);
                const auto* err = std::get_if<ImportError>(&parsed);
                QVERIFY2(err, file);
                QVERIFY(err->byteOffset <= cut);
                QVERIFY(err->byteOffset + 64 >= cut); // found at the end, not somewhere else
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestTraceImport)
#include "test_trace_import.moc"
