// `warpboard analyze --compare BEFORE AFTER` as a user runs it, on hand-written two-rank traces
// whose differences are known (a kernel removed, one doubled, an operator slower): the text
// table, --json, --csv, per-rank averages, and the errors. Also `warpboard import` on several
// cores: the same bytes on stdout and stderr with one worker and with several.
#include "cli_runner.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {
using Result = wb::test::CliResult;
using wb::test::runWarpboard;

const QString kGemm = QStringLiteral("void gemm<128, 64>(float const*, float*)");

// A Kineto trace of one rank: `kernels` on GPU stream 7 and `ops` on the Python thread, each
// "name:duration_us", laid one after another.
QByteArray cmpTrace(int rank, const QStringList& kernels, const QStringList& ops) {
    QByteArray out = "{\"schemaVersion\": 1, \"distributedInfo\": {\"backend\": \"nccl\", "
                     "\"rank\": " +
                     QByteArray::number(rank) + "}, \"traceEvents\": [\n";
    double ts = 1000.0;
    bool first = true;
    const auto add = [&](const QString& item, bool gpu) {
        const qsizetype colon = item.lastIndexOf(':');
        const double dur = item.mid(colon + 1).toDouble();
        out += first ? "" : ",\n";
        first = false;
        out += "{\"ph\": \"X\", \"cat\": \"" + QByteArray(gpu ? "kernel" : "cpu_op") +
               "\", \"name\": \"" + item.left(colon).toUtf8() +
               "\", \"pid\": " + (gpu ? "0" : "100") + ", \"tid\": " + (gpu ? "7" : "100") +
               ", \"ts\": " + QByteArray::number(ts, 'f', 3) +
               ", \"dur\": " + QByteArray::number(dur, 'f', 3) + "}";
        ts += dur + 10.0;
    };
    for (const auto& k : kernels)
        add(k, true);
    for (const auto& o : ops)
        add(o, false);
    return out + "\n]}\n";
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// before/: two ranks, each gemm ×2 (100 µs), softmax 50 µs, aten::mm 300 µs.
// after/:  two ranks, each gemm ×4 (100 µs), no softmax, aten::mm 200 µs.
// one/:    one rank as in after/.
bool writeRuns(const QString& root) {
    const QStringList beforeKernels = {kGemm + ":100", kGemm + ":100", "softmax:50"};
    const QStringList afterKernels = {kGemm + ":100", kGemm + ":100", kGemm + ":100",
                                      kGemm + ":100"};
    bool ok = QDir(root).mkpath("before") && QDir(root).mkpath("after") && QDir(root).mkpath("one");
    for (int r = 0; r < 2; ++r) {
        const QString name = QString("/rank-%1.json").arg(r);
        ok = ok && writeFile(root + "/before" + name, cmpTrace(r, beforeKernels, {"aten::mm:300"}));
        ok = ok && writeFile(root + "/after" + name, cmpTrace(r, afterKernels, {"aten::mm:200"}));
    }
    return ok && writeFile(root + "/one/rank-0.json", cmpTrace(0, afterKernels, {"aten::mm:200"}));
}

QJsonObject itemNamed(const QJsonArray& items, const QString& name) {
    for (const auto& v : items)
        if (v.toObject()["name"].toString() == name)
            return v.toObject();
    return {};
}
} // namespace

class TestAnalyzeCompareCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        QVERIFY(writeRuns(m_dir.path()));
    }

    void json() {
        const Result r = runWarpboard(
            {"analyze", "--compare", m_dir.path() + "/before", m_dir.path() + "/after", "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["before"].toObject()["ranks"].toInt(), 2);
        QCOMPARE(o["before"].toObject()["files"].toArray().size(), 2);
        QVERIFY(o["before"].toObject()["files"][0].toString().endsWith("before/rank-0.json"));
        QCOMPARE(o["after"].toObject()["ranks"].toInt(), 2);
        QCOMPARE(o["basis"].toString(), QString("sum"));
        const QJsonArray kernels = o["kernels"].toArray();
        QCOMPARE(kernels.size(), 2);
        // By impact: gemm +400 µs over two ranks first, softmax −100 µs second.
        const QJsonObject gemm = kernels[0].toObject();
        QCOMPARE(gemm["name"].toString(), kGemm);
        QCOMPARE(gemm["status"].toString(), QString("changed"));
        QCOMPARE(gemm["before_count"].toInt(), 4);
        QCOMPARE(gemm["after_count"].toInt(), 8);
        QCOMPARE(gemm["delta_count"].toInt(), 4);
        QCOMPARE(gemm["before_us"].toDouble(), 400.0);
        QCOMPARE(gemm["after_us"].toDouble(), 800.0);
        QCOMPARE(gemm["delta_us"].toDouble(), 400.0);
        const QJsonObject softmax = kernels[1].toObject();
        QCOMPARE(softmax["name"].toString(), QString("softmax"));
        QCOMPARE(softmax["status"].toString(), QString("removed"));
        QCOMPARE(softmax["delta_us"].toDouble(), -100.0);
        const QJsonObject mm = itemNamed(o["operators"].toArray(), "aten::mm");
        QCOMPARE(mm["status"].toString(), QString("changed"));
        QCOMPARE(mm["delta_us"].toDouble(), -200.0);
        const QJsonObject totals = o["totals"].toObject()["kernels"].toObject();
        QCOMPARE(totals["changed"].toInt(), 1);
        QCOMPARE(totals["removed"].toInt(), 1);
        QCOMPARE(totals["added"].toInt(), 0);
        QCOMPARE(totals["before_us"].toDouble(), 500.0);
        QCOMPARE(totals["after_us"].toDouble(), 800.0);
    }

    // The text report: a header that says how figures are made, aligned columns, units and
    // signs (a true minus sign), the totals row.
    void text() {
        const Result r = runWarpboard(
            {"analyze", "--compare", m_dir.path() + "/before", m_dir.path() + "/after"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains("sums over 2 ranks"), qPrintable(out));
        QVERIFY(out.contains("Kernels: 1 changed, 0 added, 1 removed, 0 unchanged"));
        QVERIFY(out.contains("Operators: 1 changed, 0 added, 0 removed, 0 unchanged"));
        const QStringList lines = out.split('\n');
        qsizetype header = -1, gemm = -1, softmax = -1, total = -1;
        for (qsizetype i = 0; i < lines.size(); ++i) {
            if (header < 0 && lines[i].contains("Δ total") && lines[i].contains("status"))
                header = i;
            if (gemm < 0 && lines[i].endsWith(kGemm))
                gemm = i;
            if (softmax < 0 && lines[i].endsWith("softmax"))
                softmax = i;
            if (total < 0 && lines[i].trimmed().startsWith("total"))
                total = i;
        }
        QVERIFY(header >= 0 && gemm == header + 1 && softmax == header + 2 && total > softmax);
        QVERIFY2(lines[gemm].contains("+400 µs") && lines[gemm].contains("+100 %"),
                 qPrintable(lines[gemm]));
        QVERIFY2(lines[softmax].contains(QString::fromUtf8("\u2212100 µs")),
                 qPrintable(lines[softmax]));
        QVERIFY2(lines[total].contains("+300 µs"), qPrintable(lines[total]));
        // Right-aligned: every row's "Δ total" cell ends in the same column as the header's.
        const qsizetype end = lines[header].indexOf("Δ total") + QString("Δ total").size();
        QVERIFY2(lines[gemm].mid(0, end).endsWith("+400 µs"), qPrintable(lines[gemm]));
        QVERIFY2(lines[softmax].mid(0, end).endsWith(QString::fromUtf8("\u2212100 µs")),
                 qPrintable(lines[softmax]));
    }

    // 2 ranks before, 1 after: per-rank averages, so the doubled gemm is +200 µs per rank.
    void perRankAverages() {
        const Result r = runWarpboard({"analyze", "--compare", m_dir.path() + "/before",
                                       m_dir.path() + "/one/rank-0.json", "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["basis"].toString(), QString("per-rank average"));
        QCOMPARE(o["after"].toObject()["ranks"].toInt(), 1);
        const QJsonObject gemm = itemNamed(o["kernels"].toArray(), kGemm);
        QCOMPARE(gemm["before_count"].toInt(), 2);
        QCOMPARE(gemm["after_count"].toInt(), 4);
        QCOMPARE(gemm["delta_us"].toDouble(), 200.0);
        const Result t =
            runWarpboard({"analyze", "--compare", m_dir.path() + "/before", m_dir.path() + "/one"});
        QVERIFY(QString::fromUtf8(t.out).contains("per-rank averages (2 ranks before, 1 after)"));
    }

    void csv() {
        const QString dir = m_dir.path() + "/csv";
        const Result r = runWarpboard({"analyze", "--compare", m_dir.path() + "/before",
                                       m_dir.path() + "/after", "--csv", dir});
        QVERIFY2(r.code == 0, r.err.constData());
        QFile kernels(dir + "/kernels.csv");
        QVERIFY(kernels.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = kernels.readAll().split('\n');
        QCOMPARE(lines[0], QByteArray("name,status,before_count,after_count,delta_count,"
                                      "before_us,after_us,delta_us"));
        // The name holds commas: quoted.
        QCOMPARE(lines[1], "\"" + kGemm.toUtf8() + "\",changed,4,8,4,400.0,800.0,400.0");
        QCOMPARE(lines[2], QByteArray("softmax,removed,2,0,-2,100.0,0.0,-100.0"));
        QVERIFY(QFile::exists(dir + "/operators.csv"));
    }

    // Every file must read: a missing one, a non-trace file, one path only.
    void errors() {
        Result r = runWarpboard(
            {"analyze", "--compare", m_dir.path() + "/before", m_dir.path() + "/nowhere.json"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains("nowhere.json"), r.err.constData());

        r = runWarpboard({"analyze", "--compare", m_dir.path() + "/before",
                          QStringLiteral(WB_TEST_DATA "/import/ncu_rtx5070_saxpy.csv")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("not a trace"), r.err.constData());

        r = runWarpboard({"analyze", "--compare", m_dir.path() + "/before"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("BEFORE and AFTER"), r.err.constData());

        r = runWarpboard({"analyze", "--compare", m_dir.path() + "/before", m_dir.path() + "/after",
                          "--top", "x"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--top"), r.err.constData());
    }

    // `import` reads files on every core; the output is byte-for-byte the one-worker output,
    // errors included (the test data folder has files that do not read), in any run.
    void importSameOnAnyNumberOfWorkers() {
        const QString data = QStringLiteral(WB_TEST_DATA "/import");
        const QStringList args = {"import",
                                  data,
                                  m_dir.path() + "/before",
                                  m_dir.path() + "/nowhere.json",
                                  data + "/hta_sampled_rank-1.json.gz",
                                  "--summary",
                                  "--json"};
        const Result one = runWarpboard(QStringList(args) << "--jobs"
                                                          << "1");
        QVERIFY(!one.out.isEmpty());
        QVERIFY(one.err.contains("nowhere.json"));
        for (const char* jobs : {"2", "4", "16"}) {
            for (int run = 0; run < 2; ++run) {
                const Result many = runWarpboard(QStringList(args) << "--jobs" << jobs);
                QCOMPARE(many.code, one.code);
                QCOMPARE(many.out, one.out);
                QCOMPARE(many.err, one.err);
            }
        }
        const Result defaults = runWarpboard(args); // one worker per core
        QCOMPARE(defaults.out, one.out);
        QCOMPARE(defaults.err, one.err);
        const Result text = runWarpboard({"import", data, "--jobs=3"});
        QCOMPARE(text.out, runWarpboard({"import", data, "--jobs", "1"}).out);
        QCOMPARE(runWarpboard({"import", data, "--jobs", "0"}).code, 2);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestAnalyzeCompareCli)
#include "test_analyze_compare_cli.moc"
