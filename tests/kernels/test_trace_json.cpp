// The trace format is Warpboard's record of evidence: it must round-trip exactly, reject
// what JSON cannot hold, and explain every malformed input by position or JSON path.
#include "trace/trace_json.h"

#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <fstream>
#include <limits>

namespace {

wb::Trace sampleTrace() {
    wb::Trace t;
    t.kind = "roofline-probe";
    t.provenance.source = wb::TraceSource::Recorded;
    t.provenance.device = "NVIDIA H100 80GB HBM3";
    t.provenance.computeCapability = "9.0";
    t.provenance.driverVersion = "12.4";
    t.provenance.runtimeVersion = "12.4";
    t.provenance.date = "2026-11-30T14:05:00Z";
    t.provenance.command = "warpboard probe --kind roofline";
    t.provenance.host = "gpu-node-7";
    t.provenance.notes = "quotes \" slashes / tilde ~ and µs";
    t.metadata = {{"clock", "locked"}, {"a/b~c", "escaped key"}};
    wb::TraceSeries s;
    s.name = "achieved";
    s.xUnit = "FLOP/B";
    s.yUnit = "TFLOP/s";
    // Values chosen to expose lossy printing: thirds, tiny, huge, negative zero, integers.
    s.x = {0.1, 1.0 / 3.0, 2.0, 1e-300, 123456789.0};
    s.y = {3.0, 2.0 / 3.0, -0.0, 1.7976931348623157e308, 5e-324};
    t.series.push_back(s);
    wb::TraceEvent e;
    e.name = "gemm";
    e.category = "kernel";
    e.track = 2;
    e.startNs = 1'700'000'000'000'000'123;
    e.durationNs = 987'654'321;
    e.values = {{"tflops", 612.25}, {"occupancy", 0.875}};
    t.events.push_back(e);
    return t;
}

std::string toText(const wb::Trace& t) {
    return wb::traceToJson(t);
}

// Expects failure and returns the error, failing the test if the text parsed.
wb::TraceError parseError(const std::string& text) {
    auto r = wb::traceFromJson(text);
    if (auto* e = std::get_if<wb::TraceError>(&r))
        return *e;
    return {"<parsed successfully>", 0, "<none>"};
}

// Failure text for QVERIFY2, which evaluates its message even when the check passes.
std::string why(const std::variant<wb::Trace, wb::TraceError>& r) {
    const auto* e = std::get_if<wb::TraceError>(&r);
    return e != nullptr ? e->message : std::string();
}

bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

// A valid trace text with one replacement applied, so each malformed case differs from a
// known-good document in exactly one place.
std::string validWith(const std::string& from, const std::string& to) {
    std::string text = toText(sampleTrace());
    const auto at = text.find(from);
    if (at == std::string::npos)
        return "<replacement not found: " + from + ">";
    return text.replace(at, from.size(), to);
}

} // namespace

class TestTraceJson : public QObject {
    Q_OBJECT

private slots:
    void roundTripIsExact() {
        const wb::Trace original = sampleTrace();
        const std::string text = toText(original);
        QVERIFY(!text.empty());
        auto parsed = wb::traceFromJson(text);
        QVERIFY2(std::holds_alternative<wb::Trace>(parsed), why(parsed).c_str());
        const wb::Trace& back = std::get<wb::Trace>(parsed);
        QVERIFY(back == original);
        QCOMPARE(toText(back), text);
        // Bit-identical doubles, including the sign of zero that operator== ignores.
        for (std::size_t i = 0; i < original.series[0].y.size(); ++i) {
            QCOMPARE(std::signbit(back.series[0].y[i]), std::signbit(original.series[0].y[i]));
            QCOMPARE(back.series[0].x[i], original.series[0].x[i]);
        }
    }

    void int64NanosecondsAreExact() {
        const wb::Trace back = std::get<wb::Trace>(wb::traceFromJson(toText(sampleTrace())));
        QCOMPARE(back.events[0].startNs, std::int64_t{1'700'000'000'000'000'123});
        QVERIFY(contains(toText(sampleTrace()), "1700000000000000123"));

        wb::Trace t = sampleTrace();
        t.events[0].startNs = std::numeric_limits<std::int64_t>::min();
        t.events[0].durationNs = std::numeric_limits<std::int64_t>::max();
        const wb::Trace extremes = std::get<wb::Trace>(wb::traceFromJson(toText(t)));
        QCOMPARE(extremes.events[0].startNs, std::numeric_limits<std::int64_t>::min());
        QCOMPARE(extremes.events[0].durationNs, std::numeric_limits<std::int64_t>::max());
    }

    void outputIsStableAndOrdered() {
        const std::string text = toText(sampleTrace());
        QVERIFY(text.rfind("{\n  \"formatVersion\": 1,\n  \"kind\": ", 0) == 0);
        QVERIFY(text.back() == '\n');
        QVERIFY(text.find("\"provenance\"") < text.find("\"series\""));
        QVERIFY(text.find("\"a/b~c\"") < text.find("\"clock\""));
    }

    void minimalDocumentUsesDefaults() {
        auto r = wb::traceFromJson(
            R"({"formatVersion": 1, "kind": "k", "provenance": {"source": "modeled"}})");
        QVERIFY2(std::holds_alternative<wb::Trace>(r), why(r).c_str());
        const wb::Trace& t = std::get<wb::Trace>(r);
        QVERIFY(t.provenance.source == wb::TraceSource::Modeled);
        QVERIFY(t.series.empty() && t.events.empty() && t.metadata.empty());
    }

    void truncatedJsonGivesLineAndColumn() {
        const std::string text = "{\n  \"formatVersion\": 1,\n  \"kind\": ";
        const wb::TraceError e = parseError(text);
        QCOMPARE(e.byteOffset, text.size());
        QVERIFY2(e.message.rfind("line 3, column 11 (byte 34): ", 0) == 0, e.message.c_str());
        QVERIFY2(contains(e.message, "unexpected end of input"), e.message.c_str());
        QVERIFY(e.path.empty());
    }

    void everyTruncationIsReportedInBounds() {
        const std::string text = toText(sampleTrace());
        const std::size_t end = text.rfind('}');
        for (std::size_t n = 0; n < end; ++n) {
            const wb::TraceError e = parseError(text.substr(0, n));
            QVERIFY2(e.message.rfind("line ", 0) == 0, e.message.c_str());
            QVERIFY(e.byteOffset <= n);
        }
    }

    void deepNestingDoesNotCrash() {
        const std::string deep(100'000, '[');
        QVERIFY(parseError(deep).message.rfind("line 1, column 100001", 0) == 0);
        const std::string balanced =
            R"({"formatVersion": 1, "kind": )" + deep + std::string(100'000, ']') + "}";
        const wb::TraceError e = parseError(balanced);
        QCOMPARE(e.path, std::string("/kind"));
        QCOMPARE(e.byteOffset, std::size_t{29});
    }

    void syntaxErrorPointsAtTheBadByte() {
        const std::string text = "{\n  \"kind\": tru\n}";
        const wb::TraceError e = parseError(text);
        QVERIFY2(e.message.rfind("line 2, column ", 0) == 0, e.message.c_str());
        QCOMPARE(text.substr(0, e.byteOffset).find('\n'), std::size_t{1});
    }

    void emptyInputIsAnError() {
        const wb::TraceError e = parseError("");
        QVERIFY2(e.message.rfind("line 1, column 1 (byte 0): ", 0) == 0, e.message.c_str());
    }

    void wrongTypeGivesJsonPath() {
        const std::string text = validWith("123456789.0", "\"oops\"");
        const wb::TraceError e = parseError(text);
        QCOMPARE(e.path, std::string("/series/0/x/4"));
        QVERIFY2(e.message.rfind("/series/0/x/4: expected a finite number, got a string", 0) == 0,
                 e.message.c_str());
        QCOMPARE(text.substr(e.byteOffset, 6), std::string("\"oops\""));
        QVERIFY2(contains(e.message, "(line "), e.message.c_str());
    }

    void nullInSeriesIsRejected() {
        const wb::TraceError e = parseError(validWith("2.0,", "null,"));
        QCOMPARE(e.path, std::string("/series/0/x/2"));
        QVERIFY2(contains(e.message, "expected a finite number, got null"), e.message.c_str());
    }

    void overflowingNumberIsRejected() {
        const std::string text = validWith("2.0,", "1e999,");
        const wb::TraceError e = parseError(text);
        QVERIFY2(e.message.rfind("line ", 0) == 0, e.message.c_str());
        QVERIFY2(contains(e.message, "number overflow parsing '1e999'"), e.message.c_str());
        QCOMPARE(text.substr(e.byteOffset - 4, 5), std::string("1e999"));
    }

    void nanLiteralIsASyntaxError() {
        const wb::TraceError e = parseError(validWith("2.0,", "NaN,"));
        QVERIFY2(e.message.rfind("line ", 0) == 0, e.message.c_str());
    }

    void unknownSourceListsAllowedValues() {
        const std::string text = validWith("\"recorded\"", "\"simulated\"");
        const wb::TraceError e = parseError(text);
        QCOMPARE(e.path, std::string("/provenance/source"));
        QVERIFY2(contains(e.message, "unknown source \"simulated\""), e.message.c_str());
        QVERIFY2(contains(e.message, "live, recorded, imported, modeled"), e.message.c_str());
        QCOMPARE(text.substr(e.byteOffset, 11), std::string("\"simulated\""));
    }

    void lengthMismatchIsRejected() {
        wb::Trace t = sampleTrace();
        t.series[0].y.pop_back();
        auto written = wb::traceToJsonChecked(t);
        QVERIFY(std::holds_alternative<wb::TraceError>(written));
        QVERIFY(wb::traceToJson(t).empty());

        const std::string text = R"({"formatVersion": 1, "kind": "k",
            "provenance": {"source": "live"},
            "series": [{"name": "s", "x": [1, 2, 3], "y": [1, 2]}]})";
        const wb::TraceError e = parseError(text);
        QCOMPARE(e.path, std::string("/series/0"));
        QVERIFY2(contains(e.message, "x has 3 values but y has 2"), e.message.c_str());
        QVERIFY2(contains(e.message, "line 3"), e.message.c_str());
        QCOMPARE(text.substr(e.byteOffset, 9), std::string("{\"name\": "));
    }

    void nonFiniteValuesCannotBeWritten() {
        wb::Trace t = sampleTrace();
        t.series[0].y[1] = std::numeric_limits<double>::quiet_NaN();
        auto r = wb::traceToJsonChecked(t);
        QVERIFY(std::holds_alternative<wb::TraceError>(r));
        const auto& e = std::get<wb::TraceError>(r);
        QCOMPARE(e.path, std::string("/series/0/y/1"));
        QVERIFY2(contains(e.message, "NaN"), e.message.c_str());

        t = sampleTrace();
        t.events[0].values["tflops"] = std::numeric_limits<double>::infinity();
        const auto e2 = wb::validateTrace(t);
        QVERIFY(e2.has_value());
        QCOMPARE(e2->path, std::string("/events/0/values/tflops"));
        QVERIFY(contains(e2->message, "infinity"));
    }

    void unsupportedFormatVersion() {
        const std::string text = validWith("\"formatVersion\": 1", "\"formatVersion\": 2");
        const wb::TraceError e = parseError(text);
        QCOMPARE(e.path, std::string("/formatVersion"));
        QVERIFY2(contains(e.message, "unsupported format version 2"), e.message.c_str());
        QVERIFY2(contains(e.message, "line 2, column 20"), e.message.c_str());

        wb::Trace t = sampleTrace();
        t.formatVersion = 3;
        QVERIFY(wb::validateTrace(t).has_value());
    }

    void missingAndUnknownKeys() {
        wb::TraceError e = parseError(R"({"formatVersion": 1, "provenance": {"source": "live"}})");
        QVERIFY2(contains(e.message, "missing required key \"kind\""), e.message.c_str());

        e = parseError(validWith("\"series\":", "\"sereis\":"));
        QCOMPARE(e.path, std::string("/sereis"));
        QVERIFY2(contains(e.message, "unknown key; expected one of"), e.message.c_str());

        e = parseError("[1, 2]");
        QVERIFY2(contains(e.message, "expected an object, got an array"), e.message.c_str());
    }

    void integersMustBeIntegers() {
        wb::TraceError e = parseError(validWith("1700000000000000123", "1.5"));
        QCOMPARE(e.path, std::string("/events/0/startNs"));
        QVERIFY2(contains(e.message, "expected an integer"), e.message.c_str());

        e = parseError(validWith("1700000000000000123", "9223372036854775808"));
        QVERIFY2(contains(e.message, "fits in 64 bits"), e.message.c_str());

        e = parseError(validWith("987654321", "-1"));
        QCOMPARE(e.path, std::string("/events/0/durationNs"));
    }

    void escapedKeysLocateCorrectly() {
        const std::string text = validWith("\"escaped key\"", "42");
        const wb::TraceError e = parseError(text);
        QCOMPARE(e.path, std::string("/metadata/a~1b~0c"));
        QCOMPARE(text.substr(e.byteOffset, 2), std::string("42"));
    }

    void invalidUtf8CannotBeWritten() {
        wb::Trace t = sampleTrace();
        t.series[0].name = "bad \xC3\x28";
        const auto e = wb::validateTrace(t);
        QVERIFY(e.has_value());
        QCOMPARE(e->path, std::string("/series/0/name"));
        QVERIFY(wb::traceToJson(t).empty());
    }

    void describesProvenance() {
        wb::Provenance p = sampleTrace().provenance;
        p.source = wb::TraceSource::Live;
        QCOMPARE(
            wb::describeProvenance(p),
            std::string("measured on NVIDIA H100 80GB HBM3 (driver 12.4, CUDA 12.4), 2026-11-30"));
        p.source = wb::TraceSource::Recorded;
        QVERIFY(contains(wb::describeProvenance(p), "measured on NVIDIA H100"));
        QVERIFY(contains(wb::describeProvenance(p), "recording"));
        p.source = wb::TraceSource::Imported;
        QVERIFY(wb::describeProvenance(p).rfind("imported", 0) == 0);

        p.source = wb::TraceSource::Modeled;
        const std::string modeled = wb::describeProvenance(p);
        QVERIFY2(modeled.rfind("modeled on CPU", 0) == 0, modeled.c_str());
        QVERIFY2(!contains(modeled, "measured"), modeled.c_str());
        QCOMPARE(wb::describeProvenance(wb::Provenance{}), std::string("modeled on CPU"));

        wb::Provenance bare;
        bare.source = wb::TraceSource::Live;
        QCOMPARE(wb::describeProvenance(bare), std::string("measured on an unknown device"));
    }

    void sourceNamesRoundTrip() {
        for (auto s : {wb::TraceSource::Live, wb::TraceSource::Recorded, wb::TraceSource::Imported,
                       wb::TraceSource::Modeled})
            QVERIFY(wb::traceSourceFromString(wb::toString(s)) == s);
        QVERIFY(!wb::traceSourceFromString("Live").has_value());
    }

    void fileRoundTrip() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("probe.json").toStdString();
        const wb::Trace original = sampleTrace();
        const auto writeError = wb::writeTraceFile(original, path);
        QVERIFY2(!writeError, writeError ? writeError->message.c_str() : "");
        auto r = wb::readTraceFile(path);
        QVERIFY2(std::holds_alternative<wb::Trace>(r), why(r).c_str());
        QVERIFY(std::get<wb::Trace>(r) == original);
        QVERIFY(!QFile::exists(QString::fromStdString(path + ".tmp")));

        QFile onDisk(QString::fromStdString(path));
        QVERIFY(onDisk.open(QIODevice::ReadOnly));
        QCOMPARE(onDisk.readAll().toStdString(), toText(original));
    }

    void fileErrorsAreClear() {
        QTemporaryDir dir;
        const std::string missing = dir.filePath("nope.json").toStdString();
        auto r = wb::readTraceFile(missing);
        QVERIFY(std::holds_alternative<wb::TraceError>(r));
        QCOMPARE(std::get<wb::TraceError>(r).message, missing + ": file not found");

        r = wb::readTraceFile(dir.path().toStdString());
        QVERIFY(contains(std::get<wb::TraceError>(r).message, "is a folder"));

        const std::string broken = dir.filePath("broken.json").toStdString();
        std::ofstream(broken) << "{\"formatVersion\": 1,";
        r = wb::readTraceFile(broken);
        const std::string message = std::get<wb::TraceError>(r).message;
        QVERIFY2(message.rfind(broken + ": line 1, column 21 (byte 20): ", 0) == 0,
                 message.c_str());

        wb::Trace bad = sampleTrace();
        bad.series[0].x[0] = std::numeric_limits<double>::infinity();
        const std::string target = dir.filePath("bad.json").toStdString();
        const auto e = wb::writeTraceFile(bad, target);
        QVERIFY(e.has_value());
        QVERIFY2(contains(e->message, "/series/0/x/0"), e->message.c_str());
        QVERIFY(!QFile::exists(QString::fromStdString(target)));

        const auto noFolder = wb::writeTraceFile(sampleTrace(), missing + "/deeper/t.json");
        QVERIFY(noFolder.has_value());
        QVERIFY2(contains(noFolder->message, "does not exist"), noFolder->message.c_str());
    }

    void shippedFixtureLoads() {
        // WB_SOURCE_DIR rather than WB_TEST_DATA: the latter resolves per test folder
        // (tests/kernels/data), while shared fixtures live in tests/data.
        auto r = wb::readTraceFile(WB_SOURCE_DIR "/tests/data/traces/minimal_modeled.json");
        QVERIFY2(std::holds_alternative<wb::Trace>(r), why(r).c_str());
        const wb::Trace& t = std::get<wb::Trace>(r);
        QCOMPARE(t.kind, std::string("roofline-probe"));
        QCOMPARE(wb::describeProvenance(t.provenance), std::string("modeled on CPU, 2026-11-30"));
        QCOMPARE(t.series.size(), std::size_t{1});
    }
};

QTEST_APPLESS_MAIN(TestTraceJson)
#include "test_trace_json.moc"
