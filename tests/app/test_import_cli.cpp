// `warpboard import` as a user runs it: one JSON object on stdout, exit 2 with
// "FILE: byte N: message" for a file it cannot read (the files that read are still
// summarised), folders standing for their profiler files, usage errors with exit 2.
#include "cli_runner.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {
using Result = wb::test::CliResult;
using wb::test::runWarpboard;

const QString kData = QStringLiteral(WB_TEST_DATA "/import/");

// Writes `bytes` to `path` (a temporary file the test makes); false when it cannot.
bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}
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
        const Result r =
            runWarpboard({"import", kData + "hta_sampled_rank-0.json.gz",
                          kData + "hta_sampled_rank-1.json.gz", "--summary", "--json"});
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

    // NCCL 2.7's kernel names (ncclAllReduceRingLLKernel_sum_f32(ncclColl), ...) are
    // communication: 60 + 250 + 40 µs of it, 120 µs under the compute (430 µs).
    void oldNcclKernelNamesAreCommunication() {
        const Result r = runWarpboard(
            {"import", kData + "kineto_2021_ddp_nccl2.7_kernel_names_rank-0.json", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonObject file = o["files"].toArray()[0].toObject();
        QCOMPARE(file["comm_kernels"].toInt(), 3);
        QCOMPARE(file["comm_us"].toDouble(), 350.0);
        QCOMPARE(file["compute_us"].toDouble(), 430.0);
        QVERIFY2(file["overlap_pct"].toDouble() > 0.0, r.out.constData());
    }

    // An MTIA-like trace: the summary says what it found and did not analyse.
    void nonCudaDeviceEventsAreNamed() {
        const Result r = runWarpboard({"import", kData + "kineto_mtia_like_rank-0.json"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("4 device events of category mtia_ccp_events on device type "
                                "MTIA were found but not analysed"),
                 r.out.constData());
        // The triage does not claim it read compute and found no NCCL kernels.
        const Result s =
            runWarpboard({"import", kData + "kineto_mtia_like_rank-0.json", "--summary", "--json"});
        QCOMPARE(s.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(s.out).object();
        QCOMPARE(o["verdict"].toString(), QString("none"));
        QVERIFY2(o["evidence"].toString().startsWith("no CUDA or ROCm kernels"), s.out.constData());
    }

    // A PyTorch execution trace is named, not "not a format Warpboard reads".
    void executionTraceIsNamed() {
        const Result r = runWarpboard({"import", kData + "pytorch_simple_add_et.json"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("this is a PyTorch execution trace"), r.err.constData());
        QVERIFY2(!r.err.contains("not a format"), r.err.constData());
    }

    // The slowdown triage on HTA's sampled pair (copied into tests/data/import): two ranks
    // of 128; rank 1 computes 29 % more, but rank 0 waits only 17 ms more than it — not a
    // straggler holding the collectives (see tests/scenarios/test_triage.cpp): "none".
    void triageOnHtaPair() {
        const Result r =
            runWarpboard({"import", kData + "hta_sampled_rank-1.json.gz",
                          kData + "hta_sampled_rank-0.json.gz", "--summary", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["ranks"].toInt(), 2);
        QCOMPARE(o["verdict"].toString(), QString("none"));
        QVERIFY(o.contains("straggler_rank") && o["straggler_rank"].isNull());
        QVERIFY(o["evidence"].toString().contains("rank 1 computes"));
        // distributedInfo says world_size 128: the evidence names the missing ranks.
        QVERIFY2(o["evidence"].toString().contains("only 2 of 128 ranks"),
                 qPrintable(o["evidence"].toString()));
        const QJsonArray perRank = o["per_rank"].toArray();
        QCOMPARE(perRank.size(), 2);
        QCOMPARE(perRank[0].toObject()["rank"].toInt(), 0);
        QCOMPARE(perRank[1].toObject()["rank"].toInt(), 1);
        // Files keep the order given (rank 1 first) and carry their own rank's figures.
        const QJsonArray files = o["files"].toArray();
        QCOMPARE(files[0].toObject()["rank"].toInt(), 1);
        for (const char* key : {"compute_us", "comm_us", "wait_us", "overlap_pct", "idle_us"}) {
            QVERIFY2(perRank[1].toObject()[key].isDouble(), key);
            QCOMPARE(files[0].toObject()[key].toDouble(), perRank[1].toObject()[key].toDouble());
            QCOMPARE(files[1].toObject()[key].toDouble(), perRank[0].toObject()[key].toDouble());
        }
        // Rank 0: 10 SendRecv kernels, 396 199 µs in all (Python over the JSON), no two at once.
        QCOMPARE(perRank[0].toObject()["comm_us"].toDouble(), 396199.0);
        QVERIFY(perRank[1].toObject()["compute_us"].toDouble() >
                1.2 * perRank[0].toObject()["compute_us"].toDouble());
        QVERIFY(perRank[0].toObject()["wait_us"].toDouble() >
                perRank[1].toObject()["wait_us"].toDouble());
        const Result plain = runWarpboard(
            {"import", kData + "hta_sampled_rank-0.json.gz", kData + "hta_sampled_rank-1.json.gz"});
        QCOMPARE(plain.code, 0);
        QVERIFY2(plain.out.contains("\nverdict: none: "), plain.out.constData());
    }

    // Generated lesson traces written by `import --generate`, read back by `import`: the
    // verdict names the case, and the straggler's rank.
    void triageOnGeneratedFiles_data() {
        QTest::addColumn<QString>("kase");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<int>("ranks");
        QTest::addRow("healthy") << "healthy"
                                 << "none" << 4;
        QTest::addRow("straggler") << "straggler"
                                   << "straggler" << 4;
        QTest::addRow("fabric") << "fabric"
                                << "fabric" << 8;
        QTest::addRow("overlap") << "overlap"
                                 << "overlap" << 2;
    }
    void triageOnGeneratedFiles() {
        QFETCH(QString, kase);
        QFETCH(QString, expected);
        QFETCH(int, ranks);
        QTemporaryDir dir;
        QStringList genArgs = {"import",  "--generate",           kase,     "--out", dir.path(),
                               "--ranks", QString::number(ranks), "--seed", "3"};
        if (kase == "straggler")
            genArgs << "--straggler-rank"
                    << "2";
        const Result gen = runWarpboard(genArgs);
        QCOMPARE(gen.code, 0);
        QStringList args = {"import"};
        for (int r = ranks - 1; r >= 0; --r)
            args << dir.filePath(QString("rank-%1.json").arg(r));
        args << "--summary"
             << "--json";
        const Result r = runWarpboard(args);
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["ranks"].toInt(), ranks);
        QCOMPARE(o["verdict"].toString(), expected);
        QCOMPARE(o["files"].toArray().size(), ranks);
        const QJsonArray perRank = o["per_rank"].toArray();
        QCOMPARE(perRank.size(), ranks);
        if (expected == "straggler") {
            QCOMPARE(o["straggler_rank"].toInt(-1), 2);
            // The straggler waits least; everyone else waits longer.
            for (int k = 0; k < ranks; ++k)
                if (k != 2)
                    QVERIFY(perRank[k].toObject()["wait_us"].toDouble() >
                            perRank[2].toObject()["wait_us"].toDouble());
        } else {
            QVERIFY(o["straggler_rank"].isNull());
        }
        if (expected == "overlap")
            QVERIFY(perRank[0].toObject()["overlap_pct"].toDouble() < 1.0);
        else
            QVERIFY(perRank[0].toObject()["overlap_pct"].toDouble() > 15.0);
        QVERIFY(!o["evidence"].toString().isEmpty());
        // Every rank of the job is in the set (world_size = ranks): no partial-set note.
        QVERIFY(!o["evidence"].toString().contains("ranks in the set"));
    }

    void generateUsageErrors() {
        QTemporaryDir dir;
        const Result bad = runWarpboard({"import", "--generate", "slow", "--out", dir.path()});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.contains("healthy, straggler, fabric or overlap"));
        const Result noOut = runWarpboard({"import", "--generate", "fabric"});
        QCOMPARE(noOut.code, 2);
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

    void missingFileSaysNoSuchFileEverywhere() {
        // `warpboard import PATH` and `warpboard PATH` use the same words, exit 2.
        const QByteArray said = "cannot open '/missing/file.json': no such file\n";
        const Result imported = runWarpboard({"import", "/missing/file.json"});
        QCOMPARE(imported.code, 2);
        QVERIFY(imported.out.isEmpty());
        QCOMPARE(imported.err, said);
        const Result opened = runWarpboard({"/missing/file.json"});
        QCOMPARE(opened.code, 2);
        QCOMPARE(opened.err, said);
        const Result exported = runWarpboard({"export", "roofline", "--step", "1", "--out", "x.png",
                                              "--import", "/missing/file.json"});
        QCOMPARE(exported.code, 2);
        QVERIFY2(exported.err.contains(said.trimmed()), exported.err.constData());
    }

    void aFolderOpensItsProfilerFiles() {
        QTemporaryDir dir;
        const QString folder = dir.filePath("run");
        QVERIFY(QDir().mkpath(folder + "/older"));
        // Named so that name order differs from the order of the copies.
        QVERIFY(QFile::copy(kData + "ncu_rtx5070_gemm_tiled.csv", folder + "/b-tiled.csv"));
        QVERIFY(QFile::copy(kData + "ncu_rtx5070_gemm_naive.csv", folder + "/a-naive.csv"));
        QVERIFY(QFile::copy(kData + "ncu_rtx5070_saxpy.csv", folder + "/older/saxpy.csv"));
        QVERIFY(writeFile(folder + "/notes.md", "not a profile"));

        const Result r = runWarpboard({"import", folder, "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonArray files = QJsonDocument::fromJson(r.out).object()["files"].toArray();
        QCOMPARE(files.size(), 2); // not notes.md, not the subfolder's file
        QVERIFY(files[0].toObject()["path"].toString().endsWith("/a-naive.csv"));
        QVERIFY(files[1].toObject()["path"].toString().endsWith("/b-tiled.csv"));

        // `warpboard FOLDER` (no display: a PNG of the lesson) and `export --import FOLDER`.
        const Result gui = runWarpboard({folder}, true, dir.path());
        QVERIFY2(gui.code == 0, gui.err.constData());
        QCOMPARE(QDir(dir.path()).entryList({"warpboard-roofline-step*.png"}).size(), 1);
        const Result exported = runWarpboard({"export", "roofline", "--step", "1", "--out",
                                              dir.filePath("e.png"), "--import", folder});
        QVERIFY2(exported.code == 0, exported.err.constData());

        // A folder with none: its own message, exit 2, from every command.
        const QString none = dir.filePath("empty");
        QVERIFY(QDir().mkpath(none));
        const QByteArray said = "no profiler files in '" + none.toUtf8() + "'\n";
        const Result empty = runWarpboard({"import", none});
        QCOMPARE(empty.code, 2);
        QCOMPARE(empty.err, said);
        const Result emptyGui = runWarpboard({none}, true, dir.path());
        QCOMPARE(emptyGui.code, 2);
        QCOMPARE(emptyGui.err, said);
    }

    void emptyFilesAreNotUnknownFormats() {
        QTemporaryDir dir;
        const QString empty = dir.filePath("x.json");
        const QString emptyGz = dir.filePath("x.json.gz");
        const QString nothingInside = dir.filePath("y.json.gz");
        QVERIFY(writeFile(empty, {}));
        QVERIFY(writeFile(emptyGz, {}));
        // `gzip < /dev/null`: a valid gzip stream whose content is nothing.
        QVERIFY(writeFile(nothingInside,
                          QByteArray::fromHex("1f8b08000000000002ff03000000000000000000")));
        const Result r = runWarpboard({"import", empty, emptyGz, nothingInside});
        QCOMPARE(r.code, 2);
        QCOMPARE(QString::fromUtf8(r.err).split('\n', Qt::SkipEmptyParts),
                 QStringList({"'" + empty + "' is empty (0 bytes)",
                              "'" + emptyGz + "' is empty (0 bytes, not even a gzip header)",
                              "'" + nothingInside +
                                  "' is an empty gzip file: it decompresses to nothing"}));
        QVERIFY(!r.err.contains("not a format"));
    }

    void goodFilesAreSummarisedAndTheOthersListed() {
        QTemporaryDir dir;
        const QString cut = dir.filePath("cut.json");
        QVERIFY(writeFile(cut, "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1"));
        const QString good = kData + "ncu_rtx5070_saxpy.csv";
        const QStringList paths{good, "/missing/b.json", cut};

        const Result json = runWarpboard(QStringList{"import"} + paths + QStringList{"--json"});
        QCOMPARE(json.code, 2);
        const QJsonArray files = QJsonDocument::fromJson(json.out).object()["files"].toArray();
        QCOMPARE(files.size(), 1);
        QCOMPARE(files[0].toObject()["path"].toString(), good);
        const QStringList errors = QString::fromUtf8(json.err).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(errors.size(), 2);
        QCOMPARE(errors[0], QString("cannot open '/missing/b.json': no such file"));
        QVERIFY2(errors[1].startsWith(cut + ": byte "), qPrintable(errors[1]));

        const Result text = runWarpboard(QStringList{"import"} + paths + QStringList{"--summary"});
        QCOMPARE(text.code, 2);
        QVERIFY2(text.out.startsWith((good + ": ncu-csv").toUtf8()), text.out.constData());
        QCOMPARE(text.err, json.err);

        // `warpboard a b c`: the lesson drawn from the good one, then the others listed.
        const Result gui = runWarpboard(paths, true, dir.path());
        QCOMPARE(gui.code, 2);
        QCOMPARE(QDir(dir.path()).entryList({"warpboard-roofline-step*.png"}).size(), 1);
        QVERIFY2(gui.err.endsWith(json.err), gui.err.constData());
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
