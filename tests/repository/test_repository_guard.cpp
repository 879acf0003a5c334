// The test suite belongs to the repository: a clone with nothing beside it must pass. Fails
// when a test, script or CMake file names the folder a developer's checkout has beside it, or
// an absolute path into someone's files, and when a file under tests/data has no line in
// tests/data/README.md (origin, licence, what it exercises).
#include "repository_scan.h"

#include <QtTest>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace wbtest;

namespace {

const fs::path kRoot = WB_SOURCE_DIR;

std::string readAll(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Source-like files, whose paths are ours; data files quote other people's logs and traces.
bool isSource(const fs::path& p) {
    static const std::set<std::string> kinds = {".cpp", ".h",   ".hpp", ".cmake",   ".sh", ".py",
                                                ".md",  ".txt", ".in",  ".desktop", ""};
    const fs::path rel = fs::relative(p, kRoot);
    const bool data = rel.string().rfind("tests/data/", 0) == 0;
    if (data)
        return p.filename() == "README.md" || p.extension() == ".py";
    return kinds.count(p.extension().string()) != 0;
}

// Everything the issue names: tests/, scripts/, cmake/, .ci/ and every CMakeLists.txt.
std::vector<fs::path> guardedFiles() {
    std::vector<fs::path> out;
    for (const char* dir : {"tests", "scripts", "cmake", ".ci"}) {
        if (!fs::exists(kRoot / dir))
            continue;
        for (const auto& e : fs::recursive_directory_iterator(kRoot / dir))
            if (e.is_regular_file())
                out.push_back(e.path());
    }
    for (const char* dir : {"app", "widgets", "kernels", "scenarios", "resources", "docs"}) {
        if (!fs::exists(kRoot / dir))
            continue;
        for (const auto& e : fs::recursive_directory_iterator(kRoot / dir))
            if (e.is_regular_file() && e.path().filename() == "CMakeLists.txt")
                out.push_back(e.path());
    }
    out.push_back(kRoot / "CMakeLists.txt");
    return out;
}

} // namespace

class TestRepositoryGuard : public QObject {
    Q_OBJECT

private slots:
    // The scan itself can fail: planted examples are found, look-alikes are not.
    void scanFindsWhatItShould() {
        // Built from parts (append: GCC 12 misreads "literal" + std::string), so that this file
        // passes its own scan.
        const std::string sibling = siblingFolderText();
        std::string home = "/";
        home.append("home").append("/me/corpus/a.json");
        std::string tmp = "\"/";
        tmp.append("tmp").append("/run.log\"");
        QCOMPARE(scanRepositoryText("path = ROOT + \"/" + sibling + "/corpus\"\n", false).size(),
                 std::size_t(1));
        QCOMPARE(scanRepositoryText("x\nopen(\"" + home + "\")\n", true).size(), std::size_t(1));
        QCOMPARE(scanRepositoryText("x\nopen(\"" + home + "\")\n", true).front().line, 2);
        QCOMPARE(scanRepositoryText("f(" + tmp + ");", true).size(), std::size_t(1));
        QCOMPARE(scanRepositoryText("cp a " + home + "\n", true).size(), std::size_t(1));
        // Not machine paths: relative joins, JSON pointers, URLs, system tools.
        for (const std::string& ok :
             {std::string("WB_TEST_DATA \"/import/a.json\""), std::string("\"${ROOT}/home/a\""),
              std::string("\"/series/0/x\""), std::string("https://github.com/home/x"),
              std::string("[ -x /usr/local/cuda/bin/nvcc ]"), std::string("2>/dev/null"),
              std::string("data/home/x"), std::string("\"/proc/driver/nvidia/version\"")})
            QVERIFY2(scanRepositoryText(ok, true).empty(), ok.c_str());
        // Data files are checked for the sibling folder only.
        QVERIFY(scanRepositoryText("cp a " + home + "\n", false).empty());
    }

    void nothingReadsOutsideTheRepository() {
        int scanned = 0;
        QStringList problems;
        for (const fs::path& p : guardedFiles()) {
            ++scanned;
            for (const auto& f : scanRepositoryText(readAll(p), isSource(p)))
                problems << QString::fromStdString(fs::relative(p, kRoot).string() + ":" +
                                                   std::to_string(f.line) + ": " + f.what);
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
        QVERIFY(scanned > 100); // the walk really covered the tree
    }

    void everyDataFileIsInTheDataReadme() {
        const fs::path data = kRoot / "tests" / "data";
        const std::string readme = readAll(data / "README.md");
        QStringList missing;
        int files = 0;
        for (const auto& e : fs::recursive_directory_iterator(data)) {
            if (!e.is_regular_file() || e.path() == data / "README.md")
                continue;
            ++files;
            const std::string rel = fs::relative(e.path(), data).generic_string();
            if (readme.find("| `" + rel + "` |") == std::string::npos)
                missing << QString::fromStdString(rel);
        }
        QVERIFY2(missing.isEmpty(),
                 qPrintable("no line in tests/data/README.md for: " + missing.join(", ")));
        QVERIFY(files > 20);
    }
};

QTEST_APPLESS_MAIN(TestRepositoryGuard)
#include "test_repository_guard.moc"
