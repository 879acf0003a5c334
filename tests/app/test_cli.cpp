// The command line as a user runs it: JSON on stdout, errors on stderr with exit code 2,
// exports that produce real PNG and SVG files.
#include "calc/calc_models.h"
#include "cli_runner.h"

#include <QDir>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

namespace {
using Result = wb::test::CliResult;
using wb::test::runWarpboard;

QJsonObject jsonOf(const Result& r) {
    QJsonParseError e;
    const auto doc = QJsonDocument::fromJson(r.out, &e);
    if (e.error != QJsonParseError::NoError)
        qWarning() << "not JSON:" << r.out << r.err;
    return doc.object();
}

// The argument's default as the command line spells it.
QString defaultArgument(const wb::ParamSpec& a) {
    switch (a.kind) {
    case wb::ParamSpec::Kind::Integer:
        return QString::number(static_cast<qlonglong>(a.defaultValue));
    case wb::ParamSpec::Kind::Real:
        return QString::number(a.defaultValue, 'g', 17);
    case wb::ParamSpec::Kind::Choice:
    case wb::ParamSpec::Kind::Text:
        break;
    }
    return QString::fromStdString(a.defaultChoice);
}
} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void listJson() {
        const Result r = runWarpboard({"--list", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonArray list = QJsonDocument::fromJson(r.out).array();
        QVERIFY(list.size() >= 2);
        QStringList ids;
        for (const auto& v : list) {
            const QJsonObject o = v.toObject();
            QVERIFY(o.contains("id") && o.contains("group") && o.contains("title"));
            ids << o["id"].toString();
        }
        QVERIFY(ids.contains("ring-allreduce"));
        QVERIFY(ids.contains("roofline"));
        QVERIFY(r.err.isEmpty());
    }
    void helpDocumentsEveryCommand() {
        const Result r = runWarpboard({"--help"});
        QCOMPARE(r.code, 0);
        for (const char* word : {"--list", "export", "calc ring-allreduce", "calc busbw",
                                 "calc roofline", "calc decode", "--present", "--scenario"})
            QVERIFY2(r.out.contains(word), word);
    }
    // What the README promises: without --json every model prints key: value lines, one per
    // field of the object --json prints, in its order; a value reads back as that field.
    void calcPrintsKeyValueLinesWithoutJson() {
        // access and banks need --stride or --expr, neither of them required on its own.
        const std::map<std::string, QStringList> either{{"access", {"--stride", "1"}},
                                                        {"banks", {"--stride", "1"}}};
        for (const auto& model : wb::calcModels()) {
            QStringList args{"calc", QString::fromStdString(model.id)};
            for (const auto& a : model.arguments)
                if (a.required)
                    args << QString::fromStdString("--" + a.name) << defaultArgument(a);
            if (either.count(model.id))
                args << either.at(model.id);
            const Result text = runWarpboard(args);
            const Result json = runWarpboard(args + QStringList{"--json"});
            QVERIFY2(text.code == 0 && json.code == 0,
                     qPrintable(args.join(' ') + ": " + text.err + json.err));
            const auto object = nlohmann::ordered_json::parse(json.out.toStdString());
            QVERIFY(object.is_object() && !object.empty());
            const QStringList lines = QString::fromUtf8(text.out).split('\n', Qt::SkipEmptyParts);
            QCOMPARE(lines.size(), static_cast<qsizetype>(object.size()));
            qsizetype i = 0;
            for (const auto& [key, value] : object.items()) {
                const QString line = lines[i++];
                const QString prefix = QString::fromStdString(key) + ": ";
                QVERIFY2(line.startsWith(prefix),
                         qPrintable(QString::fromStdString(model.id) + ": " + line));
                const std::string shown = line.mid(prefix.size()).toStdString();
                if (value.is_string())
                    QCOMPARE(shown, value.get<std::string>());
                else
                    QVERIFY2(nlohmann::ordered_json::parse(shown) == value, qPrintable(line));
            }
        }
    }
    void calcRingAllReduce() {
        const Result r = runWarpboard({"calc", "ring-allreduce", "--ranks", "8", "--bytes", "1e9",
                                       "--alpha-us", "5", "--bandwidth-gbs", "50", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject j = jsonOf(r);
        QCOMPARE(j["bytes_sent_per_rank"].toDouble(), 1.75e9);
        QCOMPARE(j["steps"].toInt(), 14);
        QCOMPARE(j["busbw_factor"].toDouble(), 1.75);
        QVERIFY(std::fabs(j["time_s"].toDouble() - (70e-6 + 0.035)) < 1e-12);
        for (const char* k : {"algbw_gbs", "busbw_gbs", "time_s", "steps", "bytes_sent_per_rank"})
            QVERIFY2(j.contains(k), k);
    }
    void calcBusbwAndRoofline() {
        for (auto [n, f] : {std::pair{"2", 1.0}, {"4", 1.5}, {"8", 1.75}}) {
            const Result r = runWarpboard(
                {"calc", "busbw", "--collective", "allreduce", "--ranks", n, "--json"});
            QCOMPARE(r.code, 0);
            QCOMPARE(jsonOf(r)["factor"].toDouble(), f);
        }
        const Result r = runWarpboard({"calc", "roofline", "--gpu", "h100-sxm", "--precision",
                                       "bf16", "--intensity", "1000", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject j = jsonOf(r);
        QVERIFY(std::fabs(j["ridge_flop_per_byte"].toDouble() - 295.3) < 0.1);
        QCOMPARE(j["bound"].toString(), QString("compute"));
        QCOMPARE(j["attainable_tflops"].toDouble(), 989.4);
        const Result d = runWarpboard(
            {"calc", "decode", "--gpu", "h200-sxm", "--params", "70e9", "--batch", "8", "--json"});
        QCOMPARE(d.code, 0);
        QCOMPARE(jsonOf(d)["intensity_flop_per_byte"].toDouble(), 8.0);
    }
    void calcInsideOneGpu_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("key");
        QTest::addColumn<double>("expected");
        // FACTS §12-13 hand-worked cases.
        QTest::newRow("occupancy 25 %") << QStringList{"occupancy", "--gpu",
                                                       "h100-sxm",  "--threads-per-block",
                                                       "256",       "--registers-per-thread",
                                                       "128",       "--smem-per-block",
                                                       "0"}
                                        << "occupancy" << 0.25;
        QTest::newRow("waves") << QStringList{"waves",    "--gpu",
                                              "h100-sxm", "--blocks",
                                              "2000",     "--threads-per-block",
                                              "256",      "--registers-per-thread",
                                              "32",       "--smem-per-block",
                                              "0"}
                               << "waves" << 2.0;
        QTest::newRow("stride 1") << QStringList{"access", "--elem-bytes", "4", "--stride", "1"}
                                  << "sectors_per_request" << 4.0;
        QTest::newRow("misaligned")
            << QStringList{"access", "--elem-bytes", "4", "--stride", "1", "--offset", "1"}
            << "sectors_per_request" << 5.0;
        QTest::newRow("stride 32") << QStringList{"access", "--elem-bytes", "4", "--stride", "32"}
                                   << "sectors_per_request" << 32.0;
        QTest::newRow("expr") << QStringList{"access", "--elem-bytes", "4", "--expr", "a[lane * 2]"}
                              << "sectors_per_request" << 8.0;
        QTest::newRow("banks 32") << QStringList{"banks", "--elem-bytes", "4", "--stride", "32"}
                                  << "wavefronts" << 32.0;
        QTest::newRow("banks 33") << QStringList{"banks", "--elem-bytes", "4", "--stride", "33"}
                                  << "conflict_wavefronts" << 0.0;
        QTest::newRow("padded") << QStringList{"transpose", "--n", "1024", "--variant", "padded"}
                                << "smem_worst_conflict_wavefronts" << 0.0;
        QTest::newRow("tiled") << QStringList{"transpose", "--n", "1024", "--variant", "tiled"}
                               << "smem_worst_conflict_wavefronts" << 31.0;
        QTest::newRow("naive store")
            << QStringList{"transpose", "--n", "1024", "--variant", "naive"}
            << "store_sectors_per_request" << 32.0;
        QTest::newRow("odd-even") << QStringList{"divergence", "--branch", "odd-even"} << "paths"
                                  << 2.0;
    }
    void calcInsideOneGpu() {
        QFETCH(QStringList, args);
        QFETCH(QString, key);
        QFETCH(double, expected);
        const Result r = runWarpboard(QStringList{"calc"} + args + QStringList{"--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(jsonOf(r)[key].toDouble(), expected);
    }
    void uniformBranchesDoNotDiverge() {
        for (const char* b : {"warp-uniform", "block-uniform"}) {
            const Result r = runWarpboard({"calc", "divergence", "--branch", b, "--json"});
            QCOMPARE(r.code, 0);
            QCOMPARE(jsonOf(r)["diverges"].toBool(), false);
            QCOMPARE(jsonOf(r)["simt_efficiency"].toDouble(), 1.0);
        }
    }
    void errorsExitTwoAndNameTheProblem_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("unknown command") << QStringList{"frobnicate"} << "frobnicate";
        QTest::newRow("unknown model") << QStringList{"calc", "nope"} << "ring-allreduce|busbw";
        QTest::newRow("ranks too big") << QStringList{"calc",
                                                      "ring-allreduce",
                                                      "--ranks",
                                                      "5000",
                                                      "--bytes",
                                                      "1",
                                                      "--alpha-us",
                                                      "1",
                                                      "--bandwidth-gbs",
                                                      "1"}
                                       << "2…1024";
        QTest::newRow("missing arg")
            << QStringList{"calc", "ring-allreduce", "--ranks", "8"} << "missing --bytes";
        QTest::newRow("unknown option")
            << QStringList{"calc",    "busbw", "--collective", "allreduce",
                           "--ranks", "4",     "--colour",     "red"}
            << "--colour";
        QTest::newRow("bad collective")
            << QStringList{"calc", "busbw", "--collective", "gossip", "--ranks", "4"}
            << "allreduce|allgather";
        QTest::newRow("unknown gpu")
            << QStringList{"calc", "roofline", "--gpu", "b200", "--precision", "bf16"}
            << "h100-sxm";
        QTest::newRow("fp8 on a100")
            << QStringList{"calc", "roofline", "--gpu", "a100-sxm-80gb", "--precision", "fp8"}
            << "fp8";
        QTest::newRow("nan") << QStringList{"calc",     "decode", "--gpu",   "h100-sxm",
                                            "--params", "nan",    "--batch", "1"}
                             << "params";
        QTest::newRow("dangling") << QStringList{"calc", "busbw", "--ranks"}
                                  << "--ranks needs a value";
        // An option followed by another option has no value, on every command alike.
        QTest::newRow("value is an option")
            << QStringList{"calc", "ring-allreduce", "--ranks", "--bytes", "1e9"}
            << "--ranks needs a value";
        QTest::newRow("export value is an option")
            << QStringList{"export", "roofline", "--step", "--out", "x.png"}
            << "--step needs a value";
        QTest::newRow("gui value is an option")
            << QStringList{"--scenario", "--step", "2"} << "--scenario needs a value";
        QTest::newRow("generate value is an option")
            << QStringList{"import", "--generate", "fabric", "--out", "--ranks", "4"}
            << "--out needs a value";
        QTest::newRow("record value is an option")
            << QStringList{"record", "all", "--out", "--quick"} << "--out needs a value";
        // The reliability models: zero, negative and NaN MTBF, no GPUs, bad layouts.
        QTest::newRow("zero mtbf")
            << QStringList{"calc", "checkpoint", "--mtbf-hours", "0", "--checkpoint-minutes", "5"}
            << "mtbf-hours";
        QTest::newRow("negative mtbf")
            << QStringList{"calc", "checkpoint", "--mtbf-hours", "-2", "--checkpoint-minutes", "5"}
            << "mtbf-hours";
        QTest::newRow("nan mtbf") << QStringList{"calc", "checkpoint",           "--mtbf-hours",
                                                 "nan",  "--checkpoint-minutes", "5"}
                                  << "mtbf-hours";
        QTest::newRow("zero gpus") << QStringList{"calc",
                                                  "goodput",
                                                  "--gpus",
                                                  "0",
                                                  "--gpu-mtbf-hours",
                                                  "100",
                                                  "--checkpoint-minutes",
                                                  "1",
                                                  "--interval-minutes",
                                                  "10"}
                                   << "gpus";
        QTest::newRow("too much work") << QStringList{"calc",
                                                      "goodput",
                                                      "--gpus",
                                                      "10000000",
                                                      "--gpu-mtbf-hours",
                                                      "0.001",
                                                      "--checkpoint-minutes",
                                                      "1",
                                                      "--interval-minutes",
                                                      "10",
                                                      "--trials",
                                                      "1000000"}
                                       << "trials";
        QTest::newRow("layout does not divide")
            << QStringList{"calc", "blast-radius", "--fail",
                           "node", "--layout",     "tp=8,pp=16,dp=100"}
            << "does not match";
        QTest::newRow("unknown component")
            << QStringList{"calc", "blast-radius", "--fail", "toaster"} << "gpu|node|rack";
        QTest::newRow("culprit out of range")
            << QStringList{"calc", "hang", "--ranks", "8", "--culprit", "9"} << "culprit";
        QTest::newRow("schedule partial node")
            << QStringList{"calc", "schedule", "--policy", "fifo", "--jobs", "100", "--gpus", "12"}
            << "whole nodes of 8";
        QTest::newRow("schedule bad policy")
            << QStringList{"calc",   "schedule", "--policy", "random",
                           "--jobs", "100",      "--gpus",   "64"}
            << "fifo|gang-backfill|topology|preemptive";
        QTest::newRow("memory layout")
            << QStringList{"calc", "memory", "--params", "7e9",  "--gpus",
                           "10",   "--zero", "1",        "--tp", "4"}
            << "divide";
        QTest::newRow("memory zero 4")
            << QStringList{"calc", "memory", "--params", "7e9", "--gpus", "8", "--zero", "4"}
            << "zero";
        QTest::newRow("activations heads")
            << QStringList{"calc",     "activations", "--seq", "2048",    "--micro-batch",
                           "1",        "--hidden",    "4096",  "--heads", "32",
                           "--layers", "32",          "--tp",  "3"}
            << "heads";
        QTest::newRow("claims zero days")
            << QStringList{"calc", "claims",   "--gpus", "8",      "--params",
                           "7e9",  "--tokens", "1e12",   "--days", "0"}
            << "days";
        QTest::newRow("unknown scenario") << QStringList{"--scenario", "nope"} << "ring-allreduce";
        QTest::newRow("step out of range")
            << QStringList{"--scenario", "roofline", "--step", "99"} << "1…";
        QTest::newRow("export bad step")
            << QStringList{"export", "roofline", "--step", "0", "--out", "x.png"} << "--step";
        QTest::newRow("export bad ext")
            << QStringList{"export", "roofline", "--step", "1", "--out", "x.gif"} << ".png or .svg";
        QTest::newRow("export bad size")
            << QStringList{"export", "roofline", "--step", "1", "--out", "x.png", "--size", "10x10"}
            << "--size";
        QTest::newRow("export bad param")
            << QStringList{"export", "ring-allreduce", "--step",  "1",
                           "--out",  "x.png",          "--param", "ranks=2000"}
            << "2…1024";
        // calc moe: T tokens over 8 experts, top-k, capacity factor C, then extra arguments.
        const auto moe = [](const char* row, const char* t, const char* k, const char* c,
                            const char* mentions, const QStringList& extra = {}) {
            QTest::newRow(row) << QStringList{"calc",    "moe",      "--experts",
                                              "8",       "--tokens", t,
                                              "--top-k", k,          "--capacity-factor",
                                              c} +
                                      extra
                               << mentions;
        };
        moe("moe top-k > experts", "10", "9", "1", "top-k");
        moe("moe no tokens", "0", "2", "1", "tokens");
        moe("moe absurd tokens", "1e13", "2", "1", "tokens");
        moe("moe nan capacity", "10", "2", "nan", "capacity-factor");
        moe("moe negative capacity", "10", "2", "-1", "capacity-factor");
        moe("moe ep does not divide", "10", "2", "1", "--ep", {"--ep", "3"});
    }
    void errorsExitTwoAndNameTheProblem() {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        const Result r = runWarpboard(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.out.isEmpty(), r.out.constData()); // stdout carries only results
        QVERIFY2(QString::fromUtf8(r.err).contains(mentions), r.err.constData());
    }
    void exportPngAndSvg() {
        QTemporaryDir dir;
        const QString png = dir.filePath("ring.png");
        Result r = runWarpboard({"export", "ring-allreduce", "--step", "2", "--out", png, "--size",
                                 "1280x720", "--param", "ranks=6"});
        QVERIFY2(r.code == 0, r.err.constData());
        QImage image(png);
        QCOMPARE(image.size(), QSize(1280, 720));
        // Not a blank canvas: many distinct colours.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));

        const QString svg1 = dir.filePath("roof1.svg");
        const QString svg2 = dir.filePath("roof2.svg");
        QCOMPARE(runWarpboard({"export", "roofline", "--step", "6", "--out", svg1}).code, 0);
        QCOMPARE(runWarpboard({"export", "roofline", "--step", "6", "--out", svg2}).code, 0);
        QFile a(svg1), b(svg2);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        const QByteArray bytes = a.readAll();
        QVERIFY(bytes.startsWith("<?xml"));
        QVERIFY(bytes.contains("<text")); // vector: text stays text
        QVERIFY(bytes.contains("decode"));
        QCOMPARE(bytes, b.readAll()); // same step exports byte-identically
    }
    void recordWithoutAGpuExitsThreeAndWritesNothing() {
        QTemporaryDir dir;
        const Result r = runWarpboard({"record", "all", "--out", dir.path()});
        if (r.code == 0)
            QSKIP("this machine has a GPU: recordings were written");
        QCOMPARE(r.code, 3);
        QVERIFY2(r.out.contains("no GPU"), r.out.constData());
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
        const Result bad = runWarpboard({"record", "nope", "--out", dir.path()});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.contains("silicon-mapping"));
    }
    void versionSaysWhatItFound() {
        const Result r = runWarpboard({"--version"});
        QCOMPARE(r.code, 0);
        const QStringList lines = QString::fromUtf8(r.out).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 5);
        QVERIFY2(lines[0].startsWith("warpboard "), r.out.constData());
        QCOMPARE(lines[1], QString("Qt: %1 (built with %2)").arg(qVersion(), QT_VERSION_STR));
        QVERIFY2(lines[2] == "CUDA: not compiled in" ||
                     QRegularExpression("^CUDA: compiled in \\(CUDA \\d+\\.\\d+\\)$")
                         .match(lines[2])
                         .hasMatch(),
                 qPrintable(lines[2]));
        QVERIFY2(lines[3].startsWith("GPU: "), qPrintable(lines[3]));
        QVERIFY2(lines[4].startsWith("GPU query: "), qPrintable(lines[4]));
        if (lines[4].startsWith("GPU query: device "))
            return; // a GPU: both lines describe it
        // No GPU: the sentence for people, then CUDA's own reason (text and code).
        QVERIFY2(lines[3].endsWith("showing recorded or modeled data"), qPrintable(lines[3]));
        QVERIFY2(!lines[3].contains("no GPU:"), qPrintable(lines[3]));
        QVERIFY2(lines[4].startsWith("GPU query: no GPU: "), qPrintable(lines[4]));
        if (lines[2] != "CUDA: not compiled in")
            QVERIFY2(QRegularExpression("\\(\\d+\\)$").match(lines[4]).hasMatch(),
                     qPrintable(lines[4])); // the CUDA error code
    }
    void guiWithoutDisplayRendersAPng() {
        QTemporaryDir dir;
        const Result r = runWarpboard({"--scenario", "roofline", "--step", "2"}, true, dir.path());
        QCOMPARE(r.code, 0);
        const QString expected = dir.filePath("warpboard-roofline-step2.png");
        QVERIFY(QFile::exists(expected));
        QVERIFY(r.out.contains("warpboard-roofline-step2.png"));
    }
    void calcParallelismModels() {
        const Result pipe = runWarpboard({"calc", "pipeline", "--stages", "4", "--microbatches",
                                          "8", "--interleave", "2", "--json"});
        QCOMPARE(pipe.code, 0);
        QCOMPARE(jsonOf(pipe)["bubble_fraction"].toDouble(), 3.0 / 16.0);
        const Result step = runWarpboard(
            {"calc",    "step", "--params", "7e9",  "--layers",      "32", "--hidden",       "4096",
             "--heads", "32",   "--seq",    "4096", "--micro-batch", "1",  "--global-batch", "512",
             "--tp",    "8",    "--pp",     "1",    "--dp",          "16", "--zero",         "1",
             "--json"});
        QVERIFY2(step.code == 0, step.err.constData());
        const QJsonObject j = jsonOf(step);
        QCOMPARE(j["flops_per_step"].toDouble(), 6.0 * 7e9 * 512 * 4096);
        QCOMPARE(j["tp"].toObject()["link"].toString(), QString("nvlink"));
        QCOMPARE(j["dp"].toObject()["link"].toString(), QString("network"));
        QVERIFY(j["mfu"].toDouble() > 0 && j["mfu"].toDouble() < 1);
        const Result coll =
            runWarpboard({"calc", "collective", "--op", "alltoall", "--ranks", "16", "--bytes",
                          "1e9", "--topology", "nodes=2,gpus_per_node=8", "--json"});
        QCOMPARE(coll.code, 0);
        QCOMPARE(jsonOf(coll)["bottleneck_link"].toString(), QString("network"));
        // Bad layouts are refused with the reason.
        const Result bad = runWarpboard(
            {"calc",    "step", "--params", "7e9",  "--layers",      "32", "--hidden",       "4096",
             "--heads", "32",   "--seq",    "4096", "--micro-batch", "1",  "--global-batch", "512",
             "--tp",    "5",    "--pp",     "1",    "--dp",          "1",  "--json"});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("heads"), bad.err.constData());
        const Result zero =
            runWarpboard({"calc", "collective", "--op", "allreduce", "--ranks", "16", "--bytes",
                          "1e9", "--topology", "nodes=2,network_gbs=0", "--json"});
        QCOMPARE(zero.code, 2);
        QVERIFY2(zero.err.contains("network_gbs"), zero.err.constData());
    }
    void calcReliabilityModels() {
        // Daly's Fig. 3 caption (M = 24 h, δ = 5 min → 117 min); Young √(2·5·1440) = 120.
        const Result cp = runWarpboard(
            {"calc", "checkpoint", "--mtbf-hours", "24", "--checkpoint-minutes", "5", "--json"});
        QVERIFY2(cp.code == 0, cp.err.constData());
        QCOMPARE(jsonOf(cp)["young_minutes"].toDouble(), 120.0);
        QVERIFY(std::fabs(jsonOf(cp)["daly_minutes"].toDouble() - 116.7) < 0.05);
        QVERIFY(jsonOf(cp)["waste_fraction_at_young"].toDouble() > 0);
        // The Monte Carlo is the same for a seed, run after run.
        const QStringList goodput = {"calc",
                                     "goodput",
                                     "--gpus",
                                     "16384",
                                     "--gpu-mtbf-hours",
                                     "79000",
                                     "--checkpoint-minutes",
                                     "2",
                                     "--interval-minutes",
                                     "30",
                                     "--restart-minutes",
                                     "10",
                                     "--days",
                                     "54",
                                     "--trials",
                                     "200",
                                     "--seed",
                                     "11",
                                     "--json"};
        const Result g1 = runWarpboard(goodput), g2 = runWarpboard(goodput);
        QVERIFY2(g1.code == 0, g1.err.constData());
        QCOMPARE(g1.out, g2.out);
        const QJsonObject g = jsonOf(g1);
        QVERIFY(g["goodput_p5"].toDouble() <= g["goodput"].toDouble());
        QVERIFY(g["goodput"].toDouble() <= g["goodput_p95"].toDouble());
        QVERIFY(std::fabs(g["goodput"].toDouble() - g["goodput_analytic"].toDouble()) < 0.005);
        QVERIFY(g["failures_mean"].toDouble() > 200 && g["failures_mean"].toDouble() < 350);
        // One 8-GPU node of the aligned Llama 3 layout: 1 TP group, 8 PP, 8 DP; the job stops.
        const Result br =
            runWarpboard({"calc", "blast-radius", "--gpus", "16384", "--fail", "node", "--layout",
                          "tp=8,pp=16,dp=128", "--aligned", "true", "--json"});
        QVERIFY2(br.code == 0, br.err.constData());
        const QJsonObject b = jsonOf(br);
        QCOMPARE(b["gpus_lost"].toInt(), 8);
        QCOMPARE(b["groups_broken"].toObject()["tp"].toInt(), 1);
        QCOMPARE(b["groups_broken"].toObject()["pp"].toInt(), 8);
        QCOMPARE(b["groups_broken"].toObject()["dp"].toInt(), 8);
        QCOMPARE(b["job_stops"].toBool(), true);
        const Result spine = runWarpboard({"calc", "blast-radius", "--fail", "spine", "--json"});
        QCOMPARE(jsonOf(spine)["gpus_lost"].toInt(), 0);
        QCOMPARE(jsonOf(spine)["job_stops"].toBool(), false);
    }
    void calcFabric() {
        // InfiniBand under an 8:1 incast: no drops, the receiver's 400 Gb/s link stays full.
        const Result ib = runWarpboard(
            {"calc", "fabric", "--fabric", "ib", "--senders", "8", "--gbps", "400", "--json"});
        QVERIFY2(ib.code == 0, ib.err.constData());
        const QJsonObject i = jsonOf(ib);
        for (const char* key :
             {"goodput_gbps", "pause_frames", "dropped", "retransmitted", "p99_latency_us"})
            QVERIFY2(i.contains(key), key);
        QCOMPARE(i["dropped"].toInt(), 0);
        QVERIFY(i["goodput_gbps"].toDouble() > 0.99 * 400 && i["goodput_gbps"].toDouble() <= 400);
        // RoCE without PFC or ECN: drops and go-back-N resends eat the goodput.
        const Result lossy =
            runWarpboard({"calc", "fabric", "--fabric", "roce", "--senders", "8", "--gbps", "400",
                          "--pfc", "false", "--ecn", "false", "--json"});
        QVERIFY2(lossy.code == 0, lossy.err.constData());
        const QJsonObject l = jsonOf(lossy);
        QVERIFY(l["dropped"].toInt() > 0 && l["retransmitted"].toInt() > 0);
        QVERIFY(l["goodput_gbps"].toDouble() < 0.5 * i["goodput_gbps"].toDouble());
        // With PFC: no drops, pause frames instead; the same seed prints the same result.
        const QStringList pfcArgs{"calc",   "fabric", "--fabric", "roce",  "--senders",
                                  "8",      "--gbps", "400",      "--ecn", "false",
                                  "--seed", "3",      "--json"};
        const Result pfc = runWarpboard(pfcArgs);
        QVERIFY2(pfc.code == 0, pfc.err.constData());
        QCOMPARE(jsonOf(pfc)["dropped"].toInt(), 0);
        QVERIFY(jsonOf(pfc)["pause_frames"].toInt() > 0);
        QCOMPARE(runWarpboard(pfcArgs).out, pfc.out);
        // The decision model names its choice and what would flip it.
        const Result d = runWarpboard({"calc", "fabric-decision", "--team-lossless-ethernet",
                                       "true", "--vendor-lock-in", "true", "--json"});
        QVERIFY2(d.code == 0, d.err.constData());
        QCOMPARE(jsonOf(d)["recommendation"].toString(), QString("roce"));
        QVERIFY(!jsonOf(d)["flips"].toArray().isEmpty());
    }
    void calcFabricRefusesNonsense_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        const QStringList base{"calc", "fabric", "--fabric", "roce", "--gbps", "400"};
        QTest::newRow("no senders") << base + QStringList{"--senders", "0"} << "senders";
        QTest::newRow("too many senders") << base + QStringList{"--senders", "100000"} << "1…1024";
        QTest::newRow("negative rate")
            << QStringList{"calc", "fabric", "--fabric", "ib", "--senders", "4", "--gbps", "-400"}
            << "gbps";
        QTest::newRow("nan rate") << QStringList{"calc",      "fabric", "--fabric", "ib",
                                                 "--senders", "4",      "--gbps",   "nan"}
                                  << "gbps";
        QTest::newRow("drop rate 1")
            << base + QStringList{"--senders", "4", "--drop-rate", "1"} << "drop-rate";
        QTest::newRow("drop rate negative")
            << base + QStringList{"--senders", "4", "--drop-rate", "-0.1"} << "drop-rate";
        QTest::newRow("bad fabric") << QStringList{"calc",      "fabric", "--fabric", "ethernet",
                                                   "--senders", "4",      "--gbps",   "400"}
                                    << "ib|roce";
        QTest::newRow("bad flag") << base + QStringList{"--senders", "4", "--pfc", "maybe"}
                                  << "true|false";
        QTest::newRow("absurd run")
            << base + QStringList{"--senders", "1024", "--duration-us", "100000"} << "duration-us";
        QTest::newRow("missing senders") << base << "missing --senders";
    }
    void calcFabricRefusesNonsense() {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        const Result r = runWarpboard(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.out.isEmpty(), r.out.constData());
        QVERIFY2(QString::fromUtf8(r.err).contains(mentions), r.err.constData());
    }
    void calcPlanningModels() {
        // ZeRO Figure 1: 7.5B parameters on 64 GPUs, ZeRO-3: 16 × 7.5e9 / 64 bytes = 1.875 GB.
        const Result mem = runWarpboard(
            {"calc", "memory", "--params", "7.5e9", "--gpus", "64", "--zero", "3", "--json"});
        QVERIFY2(mem.code == 0, mem.err.constData());
        QCOMPARE(jsonOf(mem)["total_gb"].toDouble(), 16 * 7.5e9 / 64 / 1e9);
        // Korthikanti Table 2, full recomputation: 2sbh per layer.
        const Result act = runWarpboard({"calc", "activations", "--seq", "2048", "--micro-batch",
                                         "2", "--hidden", "4096", "--heads", "32", "--layers", "32",
                                         "--recompute", "full", "--json"});
        QVERIFY2(act.code == 0, act.err.constData());
        QCOMPARE(jsonOf(act)["bytes_per_layer"].toDouble(), 2.0 * 2048 * 2 * 4096);
        const Result sched =
            runWarpboard({"calc", "schedule", "--policy", "gang-backfill", "--jobs", "200",
                          "--gpus", "64", "--seed", "5", "--json"});
        QVERIFY2(sched.code == 0, sched.err.constData());
        const QJsonObject s = jsonOf(sched);
        QVERIFY(s["utilization"].toDouble() > 0 && s["utilization"].toDouble() <= 1);
        QVERIFY(s["fragmentation"].toDouble() >= 0 && s["fragmentation"].toDouble() <= 1);
        QVERIFY(s["mean_wait_h"].toDouble() >= 0);
        QVERIFY(s["jobs_done"].toInt() > 0 && s["jobs_done"].toInt() <= 200);
        // GPT-3 175B on 300B tokens in 5 days on 1,024 A100s needs more than the peak.
        const Result claim =
            runWarpboard({"calc", "claims", "--gpus", "1024", "--params", "175e9", "--tokens",
                          "300e9", "--days", "5", "--gpu", "a100-sxm-80gb", "--json"});
        QVERIFY2(claim.code == 0, claim.err.constData());
        const QJsonObject c = jsonOf(claim);
        QCOMPARE(c["implied_mfu"].toDouble(), 6 * 175e9 * 300e9 / (1024 * 312e12 * 5 * 86400));
        QCOMPARE(c["consistent"].toBool(), false);
        QVERIFY(c["issues"].toArray().first().toString().contains("physically impossible"));
    }
    void calcMoe() {
        // Zipf (skew 1) over 4 experts: 480, 240, 160, 120 of 1000 tokens; capacity 250.
        const Result skewed =
            runWarpboard({"calc", "moe", "--tokens", "1000", "--experts", "4", "--top-k", "1",
                          "--capacity-factor", "1", "--skew", "1", "--hidden", "1024", "--json"});
        QVERIFY2(skewed.code == 0, skewed.err.constData());
        const QJsonObject j = jsonOf(skewed);
        QCOMPARE(j["capacity_per_expert"].toInt(), 250);
        QCOMPARE(j["dropped_tokens"].toInt(), 480 - 250);
        QCOMPARE(j["ep_gpus"].toInt(), 4);
        // Dispatch + combine, 2 bytes a value, 3/4 of the tokens leave their GPU.
        QCOMPARE(j["alltoall_bytes"].toDouble(), 2.0 * 1000 * 1024 * 2 * 3 / 4);
        QVERIFY(j["source"].toString().contains("Switch"));
        // Uniform routing with C = 1 drops nothing; ⌈2·4096/64·1.25⌉ = 160.
        const Result uniform =
            runWarpboard({"calc", "moe", "--tokens", "4096", "--experts", "64", "--top-k", "2",
                          "--capacity-factor", "1.25", "--json"});
        QCOMPARE(uniform.code, 0);
        QCOMPARE(jsonOf(uniform)["capacity_per_expert"].toInt(), 160);
        QCOMPARE(jsonOf(uniform)["dropped_tokens"].toInt(), 0);
        // The same seed gives the same answer, byte for byte.
        const QStringList seeded{"calc",    "moe", "--tokens",          "3000", "--experts", "8",
                                 "--top-k", "2",   "--capacity-factor", "1",    "--skew",    "1.5",
                                 "--seed",  "9"};
        QCOMPARE(runWarpboard(seeded).out, runWarpboard(seeded).out);
    }
    void filesOpenInTheLessonThatDrawsThem() {
        // Headless `warpboard FILE`: the file is imported and the lesson step about it rendered.
        QTemporaryDir dir;
        const Result r = runWarpboard(
            {QString(WB_TEST_DATA) + "/import/ncu_rtx5070_gemm_naive.csv"}, true, dir.path());
        QCOMPARE(r.code, 0);
        const QStringList pngs = QDir(dir.path()).entryList({"warpboard-roofline-step*.png"});
        QCOMPARE(pngs.size(), 1);
        QVERIFY(r.out.contains(pngs.front().toUtf8()));

        const Result missing = runWarpboard({"no-such-file.json"});
        QCOMPARE(missing.code, 2);
        QVERIFY(missing.err.contains("no-such-file.json"));
    }
    void exportDrawsImportedFiles() {
        QTemporaryDir dir;
        const QString mine = dir.filePath("mine.png");
        const QString ncu = QString(WB_TEST_DATA) + "/import/ncu_rtx5070_gemm_naive.csv";
        // The step count, from the out-of-range message ("has steps 1…K").
        const Result range = runWarpboard({"export", "roofline", "--step", "999", "--out", mine});
        QCOMPARE(range.code, 2);
        const QString text = QString::fromUtf8(range.err);
        const qsizetype at = text.indexOf("1…");
        QVERIFY2(at >= 0, range.err.constData());
        const int steps = text.mid(at + 2).section(QRegularExpression("[^0-9]"), 0, 0).toInt();
        QVERIFY(steps > 1);
        // Imported kernels add a step about them; without the import it does not exist.
        const QString extra = QString::number(steps + 1);
        QCOMPARE(runWarpboard({"export", "roofline", "--step", extra, "--out", mine}).code, 2);
        const Result r =
            runWarpboard({"export", "roofline", "--step", extra, "--out", mine, "--import", ncu});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(QFile::exists(mine));

        QFile cut(dir.filePath("cut.json"));
        QVERIFY(cut.open(QIODevice::WriteOnly));
        cut.write("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1");
        cut.close();
        const Result bad = runWarpboard(
            {"export", "roofline", "--step", "1", "--out", mine, "--import", cut.fileName()});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("cut.json") && bad.err.contains("byte"), bad.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
