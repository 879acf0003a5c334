// warpboard-summarize as a user runs it: over 64 generated rank files with a known straggler
// (the slowdown lesson's generator), one process gives `warpboard import --summary --json`'s
// verdict, straggler_rank, evidence and per_rank exactly; `mpirun -n 4` gives the same summary
// as one process (everything but provenance and processes); one corrupt file is reported and
// the other 63 are summarised. The MPI cases skip when the build has no MPI or no launcher was
// found, and run wherever both are (CI installs OpenMPI).
#include "cli_runner.h"
#include "triage/kineto_trace_generator.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <unistd.h>

using wb::test::CliResult;
using wb::test::runWarpboard;

namespace {

constexpr int kSumRanks = 64;
constexpr int kSumStraggler = 37;

CliResult runProgram(const QString& program, const QStringList& args) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // Containers often forbid the cross-process memory copy Open MPI tries first.
    env.insert("OMPI_MCA_btl_vader_single_copy_mechanism", "none");
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(240000))
        return {};
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

CliResult runSummarize(const QStringList& args) {
    return runProgram(QStringLiteral(WB_SUMMARIZE_BIN), args);
}

CliResult runMpi(int processes, const QStringList& args) {
    QStringList full{"--oversubscribe", "-n", QString::number(processes)};
    if (geteuid() == 0)
        full << "--allow-run-as-root";
    full << QStringLiteral(WB_SUMMARIZE_BIN) << args;
    return runProgram(QStringLiteral(WB_MPIEXEC), full);
}

nlohmann::ordered_json readJson(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    return nlohmann::ordered_json::parse(in);
}

// The summary without what may differ between runs.
nlohmann::ordered_json withoutRunDetails(nlohmann::ordered_json j) {
    j.erase("provenance");
    j.erase("processes");
    return j;
}

} // namespace

class TestSummarizeCli : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_ranks;
    QString m_one; // the one-process summary

    void requireMpi() {
        if (!WB_SUMMARIZE_MPI)
            QSKIP("warpboard-summarize was built without MPI");
        if (QStringLiteral(WB_MPIEXEC).isEmpty() || !QFile::exists(QStringLiteral(WB_MPIEXEC)))
            QSKIP("no MPI launcher (mpiexec) was found at configure time");
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_ranks = m_dir.filePath("ranks");
        QVERIFY(QDir().mkpath(m_ranks));
        wb::TraceGeneratorConfig cfg;
        cfg.triageCase = wb::TriageCase::Straggler;
        cfg.ranks = kSumRanks;
        cfg.stragglerRank = kSumStraggler;
        cfg.seed = 11;
        const auto texts = wb::generateKinetoTraces(cfg);
        // Names that sort against the ranks: the rank comes from distributedInfo.
        for (std::size_t r = 0; r < texts.size(); ++r)
            std::ofstream(
                QDir(m_ranks)
                    .filePath(QString("host-%1.json").arg(texts.size() - 1 - r, 3, 10, QChar('0')))
                    .toStdString(),
                std::ios::binary)
                << texts[r];
        m_one = m_dir.filePath("one.wbsum.json");
        const CliResult one = runSummarize({m_ranks, "--out", m_one});
        QVERIFY2(one.code == 0, one.err.constData());
    }

    void oneProcessMatchesImportSummary() {
        const CliResult import = runWarpboard({"import", m_ranks, "--summary", "--json"});
        QVERIFY2(import.code == 0, import.err.constData());
        const auto expected = nlohmann::ordered_json::parse(import.out.toStdString());
        const auto got = readJson(m_one);
        for (const char* key : {"verdict", "straggler_rank", "evidence", "per_rank"})
            QVERIFY2(got.at(key) == expected.at(key), key);
        QCOMPARE(got["straggler_rank"].get<long>(), long{kSumStraggler});
        QCOMPARE(got["verdict"].get<std::string>(), std::string("straggler"));
        QCOMPARE(got["per_rank"].size(), std::size_t{kSumRanks});
        QCOMPARE(got["processes"].get<int>(), 1);
        QCOMPARE(got["provenance"]["files"].size(), std::size_t{kSumRanks});
    }

    void mpiFourProcessesEqualOne() {
        requireMpi();
        const QString four = m_dir.filePath("four.wbsum.json");
        const CliResult r = runMpi(4, {m_ranks, "--out", four});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto got = readJson(four);
        QCOMPARE(got["processes"].get<int>(), 4);
        QVERIFY(withoutRunDetails(got) == withoutRunDetails(readJson(m_one)));
        QCOMPARE(got["straggler_rank"].get<long>(), long{kSumStraggler});
        // Every process read a share.
        std::set<int> readers;
        for (const auto& f : got["provenance"]["files"])
            readers.insert(f["process"].get<int>());
        QCOMPARE(readers.size(), std::size_t{4});
        QCOMPARE(got["provenance"]["hosts"].size(), std::size_t{4});
    }

    void mpiCorruptFileIsReported() {
        requireMpi();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QStringList names = QDir(m_ranks).entryList({"*.json"}, QDir::Files, QDir::Name);
        QCOMPARE(names.size(), qsizetype{kSumRanks});
        for (const QString& n : names)
            QVERIFY(QFile::copy(QDir(m_ranks).filePath(n), dir.filePath(n)));
        const QString corrupt = dir.filePath(names[10]);
        {
            QFile f(corrupt);
            QVERIFY(f.open(QIODevice::ReadWrite));
            f.seek(f.size() / 3);
            f.write("\x01{oops");
        }
        const QString out = m_dir.filePath("corrupt.wbsum.json");
        const CliResult r = runMpi(4, {dir.path(), "--out", out});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(corrupt.toUtf8()), r.err.constData());
        const auto got = readJson(out);
        QCOMPARE(got["failed"].size(), std::size_t{1});
        QCOMPARE(got["failed"][0]["path"].get<std::string>(), corrupt.toStdString());
        QCOMPARE(got["per_rank"].size(), std::size_t{kSumRanks - 1});
        QVERIFY(!QFile::exists(out + ".partial"));
    }
};

QTEST_APPLESS_MAIN(TestSummarizeCli)
#include "test_summarize_cli.moc"
