// Inputs the fuzzers once crashed on (tests/data/import/regressions): every importer must
// answer each with a result whose summary prints, or an ImportError — never an exception.
#include "import/import_registry.h"
#include "import/importers.h"

#include <QDir>
#include <QFile>
#include <QtTest>

using namespace wb;

class TestImportRegressions : public QObject {
    Q_OBJECT
private slots:
    void fuzzFindingsStayFixed() {
        const QDir dir(QString(WB_TEST_DATA) + "/import/regressions");
        const auto files = dir.entryList(QDir::Files);
        QVERIFY(!files.isEmpty());
        for (const QString& name : files) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            for (const Importer& importer : importers()) {
                auto source = ByteSource::fromMemory(bytes.toStdString(), name.toStdString());
                auto result = importer.parse(*source, {});
                if (auto* ok = std::get_if<std::unique_ptr<ImportResult>>(&result)) {
                    const std::string text = dumpSummary((*ok)->summary());
                    QVERIFY(!text.empty());
                } else {
                    QVERIFY(!std::get<ImportError>(result).message.empty());
                }
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestImportRegressions)
#include "test_import_regressions.moc"
