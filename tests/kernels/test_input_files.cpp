// The one folder rule and the whole-file messages, below the command line and the window:
// what counts as a profiler file, how a folder expands (its files only, sorted by name),
// and the words for a missing path, an empty folder, an empty file and an empty gzip.
#include "import/file_errors.h"
#include "import/import_registry.h"
#include "import/input_files.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cerrno>

namespace {

void write(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes), bytes.size());
}

QString errorOf(const QString& path) {
    auto imported = wb::importFile(path.toStdString());
    const auto* err = std::get_if<wb::ImportError>(&imported);
    return QString::fromStdString(err ? err->describe() : std::string("imported"));
}

QStringList qt(const std::vector<std::string>& paths) {
    QStringList out;
    for (const auto& p : paths)
        out << QString::fromStdString(p);
    return out;
}

QString describe(const wb::ImportError& e) {
    return QString::fromStdString(e.describe());
}

// `gzip < /dev/null`: a valid gzip stream whose content is nothing.
const QByteArray kEmptyGzip = QByteArray::fromHex("1f8b08000000000002ff03000000000000000000");

} // namespace

class TestInputFiles : public QObject {
    Q_OBJECT
private slots:
    void profilerFileNames() {
        for (const char* yes : {"rank-0.json", "r.pt.trace.json.gz", "ncu.csv", "NCCL.LOG",
                                "allreduce_perf.txt", "slurm-12.out", "x.log.gz", "X.JSON.GZ"})
            QVERIFY2(wb::isProfilerFileName(yes), yes);
        for (const char* no : {"README.md", "trace.json.bak", "archive.gz", "json", "notes.tar.gz",
                               "image.png", "job.wbsum.json", "JOB.WBSUM.JSON.gz"})
            QVERIFY2(!wb::isProfilerFileName(no), no);
        const auto patterns = wb::profilerFilePatterns();
        QCOMPARE(patterns.size(), std::size_t(10));
        QVERIFY(std::find(patterns.begin(), patterns.end(), "*.json.gz") != patterns.end());
        QVERIFY(std::find(patterns.begin(), patterns.end(), "*.csv") != patterns.end());
    }

    void aFolderStandsForItsProfilerFilesSortedByName() {
        QTemporaryDir dir;
        write(dir.filePath("rank-1.json"), "{}");
        write(dir.filePath("rank-0.json.gz"), "{}");
        write(dir.filePath("a.csv"), "x");
        write(dir.filePath("README.md"), "not a profile");
        QVERIFY(QDir(dir.path()).mkdir("sub"));
        write(dir.filePath("sub/rank-2.json"), "{}"); // subfolders are not searched
        const wb::InputFiles in = wb::expandInputs({dir.path().toStdString()});
        QVERIFY(in.problems.empty());
        QCOMPARE(qt(in.files), QStringList({dir.filePath("a.csv"), dir.filePath("rank-0.json.gz"),
                                            dir.filePath("rank-1.json")}));
        // A file is itself, whatever its name; paths keep the order given.
        const wb::InputFiles mixed = wb::expandInputs(
            {dir.filePath("README.md").toStdString(), dir.filePath("sub").toStdString()});
        QCOMPARE(qt(mixed.files),
                 QStringList({dir.filePath("README.md"), dir.filePath("sub/rank-2.json")}));
    }

    void pathsThatGiveNothingAreProblems() {
        QTemporaryDir dir;
        write(dir.filePath("notes.md"), "x");
        const QString folder = dir.path();
        const wb::InputFiles in = wb::expandInputs({"/missing/file.json", folder.toStdString()});
        QVERIFY(in.files.empty());
        QCOMPARE(in.problems.size(), std::size_t(2));
        QCOMPARE(describe(in.problems[0]),
                 QString("cannot open '/missing/file.json': no such file"));
        QCOMPARE(describe(in.problems[1]), QString("no profiler files in '%1'").arg(folder));
        // Opening the missing file directly gives the very same words.
        QCOMPARE(errorOf("/missing/file.json"), describe(in.problems[0]));
        QCOMPARE(errorOf(folder), QString("cannot open '%1': it is a folder").arg(folder));
    }

    void emptyFilesAndEmptyGzipSaySo() {
        QTemporaryDir dir;
        const QString empty = dir.filePath("x.json");
        const QString emptyGz = dir.filePath("x.json.gz");
        const QString nothingInside = dir.filePath("y.json.gz");
        write(empty, {});
        write(emptyGz, {});
        write(nothingInside, kEmptyGzip);
        QCOMPARE(errorOf(empty), QString("'%1' is empty (0 bytes)").arg(empty));
        QCOMPARE(errorOf(emptyGz),
                 QString("'%1' is empty (0 bytes, not even a gzip header)").arg(emptyGz));
        QCOMPARE(
            errorOf(nothingInside),
            QString("'%1' is an empty gzip file: it decompresses to nothing").arg(nothingInside));
        // A gzip cut before its trailer is still a truncated gzip, not an empty one.
        const QString cut = dir.filePath("cut.json.gz");
        write(cut, kEmptyGzip.left(12));
        QVERIFY2(errorOf(cut).contains("truncated"), qPrintable(errorOf(cut)));
    }

    void positionErrorsStillNameTheByte() {
        wb::ImportError e;
        e.path = "t.json";
        e.byteOffset = 7;
        e.message = "expected ','";
        QCOMPARE(e.describe(), std::string("t.json: byte 7: expected ','"));
        QCOMPARE(wb::cannotOpenError("a", EACCES).describe(),
                 std::string("cannot open 'a': permission denied"));
    }
};

QTEST_APPLESS_MAIN(TestInputFiles)
#include "test_input_files.moc"
