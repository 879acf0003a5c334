// The recordings shipped in resources/traces are exactly what their model writes, so a
// modeled "recording" can never drift from the model or pass for a measurement.
// Regenerate after a model change: WB_UPDATE_RECORDINGS=1 ./test_recordings
#include "engine/embedded_traces.h"
#include "gpu/staircase_recording.h"
#include "trace/trace_json.h"

#include <QtTest>

using namespace wb;

class TestRecordings : public QObject {
    Q_OBJECT
private slots:
    void shippedStaircasesMatchTheModel() {
        const bool update = qEnvironmentVariableIsSet("WB_UPDATE_RECORDINGS");
        for (const auto& gpu : HardwareCatalogue::builtin().gpus()) {
            const Trace model = modeledPointerChase(MemoryLadder(gpu));
            const std::string name = pointerChaseFileName(gpu.id);
            if (update) {
                const std::string path = std::string(WB_SOURCE_DIR) + "/resources/traces/" + name;
                QVERIFY(!writeTraceFile(model, path));
                continue;
            }
            const auto it = embeddedTraces().find(name);
            QVERIFY2(it != embeddedTraces().end(), name.c_str());
            QVERIFY2(it->second == traceToJson(model),
                     qPrintable(QString::fromStdString(name) +
                                " differs from the model: regenerate with WB_UPDATE_RECORDINGS=1"));
            const auto shipped = shippedPointerChase(gpu.id);
            QVERIFY(shipped);
            QVERIFY(shipped->provenance.source == TraceSource::Modeled);
            QVERIFY(describeProvenance(shipped->provenance).find("modeled on CPU") == 0);
            QVERIFY(describeProvenance(shipped->provenance).find("measured") == std::string::npos);
        }
    }
};

QTEST_APPLESS_MAIN(TestRecordings)
#include "test_recordings.moc"
