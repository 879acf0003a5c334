// `warpboard analyze` as a user runs it: the readable report, --json (parsed, keys and the
// hand-worked figures of tests/data/analysis/two_steps_rank-0.json, see
// tests/scenarios/test_trace_analysis.cpp), --csv (one file per table, headers with units,
// row counts), --range (figures change as worked out), agreement with `import --summary` on
// a generated job, and a file that cannot be read (exit 2, the rest analysed).
#include "cli_runner.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {
using Result = wb::test::CliResult;
using wb::test::runWarpboard;

const QString kTwo = QStringLiteral(WB_TEST_DATA "/analysis/two_steps_rank-0.json");

QJsonObject anJson(const Result& r) {
    return QJsonDocument::fromJson(r.out).object();
}

QStringList anLines(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
}
} // namespace

class TestAnalyzeCli : public QObject {
    Q_OBJECT
private slots:
    void text() {
        const Result r = runWarpboard({"analyze", kTwo});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        for (const char* heading :
             {"warpboard analyze: 1 rank (0)", "Per rank", "Per ProfilerStep", "Temporal breakdown",
              "Idle time per stream", "GPU time by kernel type", "Top kernels", "Kernel launches",
              "Launch outliers", "Straggler candidates", "Triage verdict: none"})
            QVERIFY2(out.contains(heading), heading);
        QVERIFY(out.contains("compute (µs)"));
        QVERIFY(out.contains("ProfilerStep#2"));
        QVERIFY(out.contains("short kernel, long launch"));
        // The per-rank row: window 250.0, compute 97.0, comm 70.0, exposed 25.0, overlap 64.3.
        QVERIFY2(out.contains(QRegularExpression(
                     "\\n\\s*0\\s+250\\.0\\s+97\\.0\\s+70\\.0\\s+25\\.0\\s+64\\.3\\s+123\\.0")),
                 qPrintable(out));
    }

    void json() {
        const Result r = runWarpboard({"analyze", kTwo, "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject o = anJson(r);
        QCOMPARE(o.keys().size(), 9);
        for (const char* key :
             {"ranks", "per_rank", "temporal_breakdown", "idle_breakdown", "kernel_breakdown",
              "launch_stats", "stragglers", "triage", "files"})
            QVERIFY2(o.contains(key), key);
        QCOMPARE(o["ranks"].toArray().size(), 1);
        const QJsonObject rank = o["per_rank"].toArray()[0].toObject();
        QCOMPARE(rank["compute_us"].toDouble(), 97.0);
        QCOMPARE(rank["exposed_comm_us"].toDouble(), 25.0);
        QCOMPARE(rank["idle_us"].toDouble(), 123.0);
        const QJsonArray steps = rank["steps"].toArray();
        QCOMPARE(steps.size(), 2);
        QCOMPARE(steps[0].toObject()["step"].toString(), QString("ProfilerStep#1"));
        QCOMPARE(steps[0].toObject()["step_us"].toDouble(), 100.0);
        QCOMPARE(steps[1].toObject()["compute_us"].toDouble(), 32.0);
        const QJsonObject temporal = o["temporal_breakdown"].toArray()[0].toObject();
        QCOMPARE(temporal["non_compute_us"].toDouble(), 30.0);
        QCOMPARE(temporal["idle_pct"].toDouble(), 49.2);
        QCOMPARE(o["idle_breakdown"].toArray().size(), 2);
        const QJsonObject kb = o["kernel_breakdown"].toObject();
        QCOMPARE(kb["by_type"].toArray()[1].toObject()["total_us"].toDouble(), 70.0);
        QCOMPARE(kb["top_kernels"].toArray()[0].toObject()["count"].toInt(), 3);
        const QJsonObject ls = o["launch_stats"].toObject();
        QCOMPARE(ls["matched_kernels"].toInt(), 6);
        QCOMPARE(ls["outlier_counts"].toObject()["long_delay"].toInt(), 1);
        QCOMPARE(ls["thresholds"].toObject()["long_launch_us"].toDouble(), 50.0);
        QCOMPARE(ls["outliers"].toArray().size(), 2);
        QCOMPARE(o["triage"].toObject()["verdict"].toString(), QString("none"));
        QCOMPARE(o["files"].toArray().size(), 1);
    }

    void csv() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString out = dir.filePath("tables");
        const Result r = runWarpboard({"analyze", kTwo, "--csv", out});
        QCOMPARE(r.code, 0);
        const QStringList names = {"per_rank",          "per_step",        "temporal_breakdown",
                                   "idle_breakdown",    "kernel_types",    "top_kernels",
                                   "launch_per_kernel", "launch_outliers", "stragglers"};
        const QList<int> rows = {1, 2, 1, 2, 3, 5, 3, 2, 0};
        for (int i = 0; i < names.size(); ++i) {
            const QStringList lines = anLines(out + "/" + names[i] + ".csv");
            QVERIFY2(!lines.isEmpty(), qPrintable(names[i]));
            QCOMPARE(lines.size() - 1, rows[i]);
        }
        QCOMPARE(anLines(out + "/per_rank.csv")[0],
                 QString("rank,window_us,compute_us,comm_us,exposed_comm_us,overlap_pct,idle_us,"
                         "wait_us,collectives,steps"));
        QVERIFY(
            anLines(out + "/per_rank.csv")[1].startsWith("0,250,97,70,25,64.28571429,123,0,2,2"));
    }

    void range() {
        const Result r = runWarpboard({"analyze", kTwo, "--json", "--range", "1030", "1060"});
        QCOMPARE(r.code, 0);
        const QJsonObject o = anJson(r);
        QCOMPARE(o["range"].toObject()["start_us"].toDouble(), 1030.0);
        const QJsonObject rank = o["per_rank"].toArray()[0].toObject();
        QCOMPARE(rank["window_us"].toDouble(), 30.0);
        QCOMPARE(rank["compute_us"].toDouble(), 25.0);
        QCOMPARE(rank["overlap_pct"].toDouble(), 100.0);
        QCOMPARE(rank["steps"].toArray().size(), 1);
        const Result bad = runWarpboard({"analyze", kTwo, "--range", "10"});
        QCOMPARE(bad.code, 2);
        const Result backwards = runWarpboard({"analyze", kTwo, "--range", "20", "10"});
        QCOMPARE(backwards.code, 2);
    }

    void agreesWithImportSummary() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const Result gen = runWarpboard(
            {"import", "--generate", "straggler", "--out", dir.path(), "--ranks", "4"});
        QCOMPARE(gen.code, 0);
        const Result sum = runWarpboard({"import", dir.path(), "--summary", "--json"});
        const Result an = runWarpboard({"analyze", dir.path(), "--json"});
        QCOMPARE(sum.code, 0);
        QCOMPARE(an.code, 0);
        const QJsonArray a = anJson(sum)["per_rank"].toArray();
        const QJsonArray b = anJson(an)["per_rank"].toArray();
        QCOMPARE(a.size(), 4);
        QCOMPARE(b.size(), 4);
        for (int i = 0; i < 4; ++i)
            for (const char* key : {"compute_us", "comm_us", "wait_us", "overlap_pct", "idle_us"})
                QCOMPARE(b[i].toObject()[key].toDouble(), a[i].toObject()[key].toDouble());
        const QJsonObject triage = anJson(an)["triage"].toObject();
        QCOMPARE(triage["verdict"].toString(), anJson(sum)["verdict"].toString());
        QCOMPARE(anJson(an)["stragglers"].toObject()["candidates"].toArray().size(), 1);
    }

    void unreadableFile() {
        const Result r =
            runWarpboard({"analyze", kTwo, QStringLiteral(WB_TEST_DATA "/no_such_file.json")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.contains("Per rank"));
        QVERIFY(r.err.contains("no_such_file.json"));
        const Result none = runWarpboard({"analyze"});
        QCOMPARE(none.code, 2);
    }
};

QTEST_GUILESS_MAIN(TestAnalyzeCli)
#include "test_analyze_cli.moc"
