// The recordings shipped in resources/traces: the modeled per-GPU staircases are exactly what
// their model writes (so they can never drift from the model or pass for a measurement), and
// the measured <scenario-id>.json files say where they were measured, name a catalogue GPU
// and replay in their scenario under the parameters they ran at — and only there.
// Regenerate the modeled files after a model change: WB_UPDATE_RECORDINGS=1 ./test_recordings
#include "engine/embedded_traces.h"
#include "engine/recording_set.h"
#include "engine/registry.h"
#include "gpu/gpu_recording_input.h"
#include "gpu/staircase_recording.h"
#include "live/live_recorder.h"
#include "trace/trace_json.h"

#include <QtTest>
#include <algorithm>

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

    void measuredRecordingsSayWhereAndReplayOnlyThere() {
        int shipped = 0;
        for (const std::string& id : recordableScenarios()) {
            const Trace* t = ScenarioInputs::shipped().recordings.recordingFor(id);
            if (!t)
                continue; // not every scenario has a measurement yet
            ++shipped;
            const Provenance& p = t->provenance;
            QVERIFY2(p.source == TraceSource::Recorded, id.c_str());
            QVERIFY2(!p.device.empty() && !p.date.empty() && !p.computeCapability.empty(),
                     id.c_str());
            // The driver as nvidia-smi names it ("580.159.04"), not the CUDA version.
            QVERIFY2(std::count(p.driverVersion.begin(), p.driverVersion.end(), '.') == 2,
                     (id + ": driver " + p.driverVersion).c_str());
            QVERIFY2(describeProvenance(p).rfind("measured on " + p.device, 0) == 0, id.c_str());
            QCOMPARE(t->metadata.at("scenario"), id);
            QVERIFY2(gpuRecordingInput(*t), (id + ": no catalogue GPU for " + p.device).c_str());

            // Under the parameters it ran at the scenario replays it; at the defaults it says
            // which values would (unless the defaults are those values).
            const Scenario& s = *findScenario(id);
            auto params = paramsReplaying(s, *t, s.defaultParams());
            QVERIFY2(params, id.c_str());
            if (id == "silicon-mapping")
                QVERIFY(!params->set("registers-per-thread", "32")); // 8 blocks per SM, as ran
            QVERIFY2(s.build(*params).provenance.rfind("RECORDED: measured on " + p.device, 0) == 0,
                     id.c_str());
            // The defaults select the H100, so a measurement of the H200 shows the model
            // there and names the values that replay it.
            const Story atDefaults = s.build(s.defaultParams());
            const auto inputs = *s.recordingInputs(*t);
            const bool gpuInput = std::any_of(inputs.begin(), inputs.end(),
                                              [](const auto& in) { return in.param == "gpu"; });
            if (gpuInput)
                QVERIFY2(atDefaults.provenance.rfind("MODELED on CPU", 0) == 0 &&
                             atDefaults.provenance.find(
                                 "replays when GPU is NVIDIA H200 SXM 141 GB") != std::string::npos,
                         (id + ": " + atDefaults.provenance).c_str());
        }
        QVERIFY(shipped >= 6);
    }
};

QTEST_APPLESS_MAIN(TestRecordings)
#include "test_recordings.moc"
