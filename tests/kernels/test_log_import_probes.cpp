// Every log importer's probe against every real file in tests/data/import: high for its own
// format, ~0 for the others (Kineto/Chrome JSON and nvidia-smi/NVML CSVs included), and the
// registry picks the right importer.
#include "import/import_registry.h"
#include "import/importers.h"
#include "log_import_helpers.h"

#include <QtTest>
#include <filesystem>

using namespace wbtest;

class TestLogImportProbes : public QObject {
    Q_OBJECT

    static double score(const wb::Importer& imp, const std::string& path) {
        auto opened = wb::ByteSource::open(path);
        auto* src = std::get_if<std::unique_ptr<wb::ByteSource>>(&opened);
        if (!src || !*src)
            return -1.0;
        return imp.probe((*src)->head(64 * 1024), path);
    }

    // The importer a bundled file belongs to, from its name; empty for the formats no log
    // importer reads.
    static std::string expected(const std::string& name) {
        if (name.rfind("ncu_", 0) == 0)
            return "ncu-csv";
        if (name.rfind("aws_", 0) == 0 || name.rfind("nccl2", 0) == 0 ||
            name.rfind("nccl_tests_", 0) == 0)
            return "nccl-tests"; // the NCCL log holds an nccl-tests run too
        if (name.rfind("nccl_log_", 0) == 0)
            return "nccl-log";
        if (name.rfind("pytorch_watchdog_", 0) == 0)
            return "pytorch-watchdog";
        return {};
    }

private slots:
    void everyBundledFileProbes() {
        int checked = 0;
        for (const auto& entry : std::filesystem::directory_iterator(bundledFile(""))) {
            if (!entry.is_regular_file())
                continue; // regressions/ holds fuzzer inputs, not formats
            const std::string path = entry.path().string();
            const std::string name = entry.path().filename().string();
            const std::string want = expected(name);
            // Files holding NCCL INFO lines besides their own format: the NCCL-log probe may
            // claim them as well (the registry still picks the expected importer).
            const bool isLog = slurp(path).find(" NCCL INFO ") != std::string::npos;
            for (const auto& importer : {wb::ncuCsvImporter(), wb::ncclLogImporter(),
                                         wb::ncclTestsImporter(), wb::pytorchWatchdogImporter()}) {
                const double s = score(importer, path);
                const bool own = importer.name == want || (isLog && importer.name == "nccl-log");
                const std::string what = importer.name + " on " + path + " = " + std::to_string(s);
                if (own)
                    QVERIFY2(s >= 0.5, what.c_str());
                else
                    QVERIFY2(s <= 0.05, what.c_str());
            }
            if (!want.empty()) {
                wb::ImportControl control;
                const auto res = wb::importFile(path, control);
                QVERIFY2(std::holds_alternative<std::unique_ptr<wb::ImportResult>>(res),
                         errorText(res).c_str());
                const auto& fmt = std::get<std::unique_ptr<wb::ImportResult>>(res)->format;
                QVERIFY2(fmt.rfind(want, 0) == 0, (path + " → " + fmt).c_str());
            }
            ++checked;
        }
        QVERIFY(checked > 20);
    }

    void bundledProbes() {
        QVERIFY(score(wb::ncuCsvImporter(), bundledFile("ncu_rtx5070_saxpy.csv")) > 0.9);
        QCOMPARE(score(wb::ncuCsvImporter(), bundledFile("aws_2x_p5_h100_efa_allreduce_srun.txt")),
                 0.0);
        QVERIFY(score(wb::ncclTestsImporter(),
                      bundledFile("aws_2x_p5_eks_mpirun_prefixed_excerpt.txt")) > 0.8);
        const auto log = bundledFile("nccl2.27.7_2xA100pcie_nvlink_roce_subsys_all.log.gz");
        QVERIFY(score(wb::ncclTestsImporter(), log) > score(wb::ncclLogImporter(), log));
        QVERIFY(score(wb::ncclLogImporter(), log) >= 0.5);
    }

    // Cut and flipped copies of every bundled log-format file through every log importer:
    // each gives a result or an ImportError, never a crash (a poor man's fuzz run; the
    // libFuzzer targets go further).
    void mutationsDoNotCrash() {
        unsigned seed = 12345;
        auto next = [&seed] {
            seed = seed * 1103515245u + 12345u;
            return seed >> 8;
        };
        int errors = 0, results = 0;
        for (const char* f : {"ncu_rtx5070_saxpy.csv", "aws_2x_p5_eks_mpirun_prefixed_excerpt.txt",
                              "aws_2x_p4de_a100_efa_allreduce_srun.txt",
                              "nccl2.27.7_2xA100pcie_nvlink_roce_subsys_all.log.gz"}) {
            const std::string full = slurp(bundledFile(f));
            QVERIFY(!full.empty());
            for (int i = 0; i < 60; ++i) {
                std::string copy = full.substr(0, next() % (full.size() + 1));
                for (int k = 0; k < 4 && !copy.empty(); ++k)
                    copy[next() % copy.size()] = static_cast<char>(next() & 0xff);
                for (const auto& imp :
                     {wb::ncuCsvImporter(), wb::ncclLogImporter(), wb::ncclTestsImporter()}) {
                    const auto res = parseBytes(imp, copy);
                    if (std::holds_alternative<wb::ImportError>(res))
                        ++errors;
                    else
                        ++results;
                }
            }
        }
        QVERIFY(errors > 0);
        QVERIFY(results > 0);
    }
};

QTEST_APPLESS_MAIN(TestLogImportProbes)
#include "test_log_import_probes.moc"
