// `warpboard import` as a user runs it: one JSON object on stdout, exit 2 with
// "FILE: byte N: message" for a file it cannot read, usage errors with exit 2.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {
struct Result {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

Result runWarpboard(const QStringList& args) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // No display at all: import must not need one.
    env.remove("QT_QPA_PLATFORM");
    env.remove("DISPLAY");
    env.remove("WAYLAND_DISPLAY");
    p.setProcessEnvironment(env);
    p.start(WARPBOARD_BIN, args);
    if (!p.waitForFinished(120000))
        return {};
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

const QString kData = QStringLiteral(WB_TEST_DATA "/import/");
const QString kCorpus = QStringLiteral(WB_SOURCE_DIR "/../shared/corpus/");
} // namespace

class TestImportCli : public QObject {
    Q_OBJECT
private slots:
    void summaryJson() {
        const Result r = runWarpboard({"import", kData + "hta_old_kineto_inference_rank_1.json.gz",
                                       kData + "catapult_flow_simple.json", "--summary", "--json"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonArray files = o["files"].toArray();
        QCOMPARE(files.size(), 2);
        const QJsonObject kineto = files[0].toObject();
        // Counted with Python over the JSON (see tests/kernels/test_trace_import.cpp).
        QCOMPARE(kineto["format"].toString(), QString("kineto"));
        QCOMPARE(kineto["events"].toInt(), 54);
        QCOMPARE(kineto["kernels"].toInt(), 4);
        QCOMPARE(kineto["comm_kernels"].toInt(), 0);
        QCOMPARE(kineto["span_us"].toDouble(), 2163583.0);
        QVERIFY(kineto.contains("ranks"));
        QVERIFY(kineto["path"].toString().endsWith("hta_old_kineto_inference_rank_1.json.gz"));
        const QJsonObject chrome = files[1].toObject();
        QCOMPARE(chrome["format"].toString(), QString("chrome"));
        QCOMPARE(chrome["events"].toInt(), 10);
        // rank 1 from distributedInfo; the catapult file takes the lowest free rank, 0.
        QCOMPARE(o["ranks"].toInt(), 2);
        QCOMPARE(chrome["rank"].toInt(), 0);
    }

    void htaSampledRanks() {
        if (!QFile::exists(kCorpus + "README.md"))
            QSKIP("the shared corpus (../shared/corpus) is not present");
        const Result r = runWarpboard(
            {"import", kCorpus + "kineto_trace/hta_sampled_rank-0.json.gz",
             kCorpus + "kineto_trace/hta_sampled_rank-1.json.gz", "--summary", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["ranks"].toInt(), 2);
        const QJsonArray files = o["files"].toArray();
        QCOMPARE(files.size(), 2);
        QCOMPARE(files[0].toObject()["events"].toInt(), 4855);
        QCOMPARE(files[0].toObject()["kernels"].toInt(), 1154);
        QCOMPARE(files[0].toObject()["comm_kernels"].toInt(), 10);
        QCOMPARE(files[1].toObject()["events"].toInt(), 4720);
        QCOMPARE(files[1].toObject()["kernels"].toInt(), 1104);
        QCOMPARE(files[1].toObject()["comm_kernels"].toInt(), 10);
    }

    void truncatedFileIsAnError() {
        QFile in(kData + "catapult_flow_simple.json");
        QVERIFY(in.open(QIODevice::ReadOnly));
        QTemporaryDir dir;
        const QString path = dir.filePath("cut.json");
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(in.readAll().left(1000));
        out.close();
        const Result r = runWarpboard({"import", path, "--summary", "--json"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.startsWith((path + ": byte ").toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains("expected"), r.err.constData());

        QFile gzIn(kData + "hta_old_kineto_inference_rank_1.json.gz");
        QVERIFY(gzIn.open(QIODevice::ReadOnly));
        const QString gz = dir.filePath("cut.json.gz");
        QFile gzOut(gz);
        QVERIFY(gzOut.open(QIODevice::WriteOnly));
        gzOut.write(gzIn.readAll().left(800));
        gzOut.close();
        const Result g = runWarpboard({"import", gz, "--json"});
        QCOMPARE(g.code, 2);
        QVERIFY2(g.err.contains("truncated"), g.err.constData());
    }

    void cutLineFormatsAreErrors() {
        // nccl-tests output cut in the middle of a row: exit 2 naming the line, not a
        // smaller table; the whole file still imports.
        QFile in(kData + "aws_2x_p5_h100_efa_allreduce_srun.txt");
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray all = in.readAll();
        QTemporaryDir dir;
        const QString path = dir.filePath("cut.txt");
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(all.left(all.size() - 40)); // inside the last row
        out.close();
        const Result r = runWarpboard({"import", path, "--summary", "--json"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains(": line ") && r.err.contains("truncated"), r.err.constData());
        const Result whole =
            runWarpboard({"import", kData + "aws_2x_p5_h100_efa_allreduce_srun.txt", "--json"});
        QCOMPARE(whole.code, 0);
    }

    void usageErrors() {
        const Result none = runWarpboard({"import"});
        QCOMPARE(none.code, 2);
        QVERIFY(none.err.contains("usage: warpboard import"));
        const Result bad = runWarpboard({"import", kData + "catapult_flow_simple.json", "--bogus"});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.contains("--bogus"));
        const Result missing = runWarpboard({"import", "/nonexistent/trace.json"});
        QCOMPARE(missing.code, 2);
        QVERIFY(missing.err.contains("/nonexistent/trace.json"));
    }
};

QTEST_APPLESS_MAIN(TestImportCli)
#include "test_import_cli.moc"
