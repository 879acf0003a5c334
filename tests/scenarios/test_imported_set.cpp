// The imported-data set: rank numbering shared by the CLI and the GUI, batches replacing
// traces, a file imported again replacing itself.
#include "engine/imported_set.h"

#include <QtTest>

using namespace wb;

namespace {

std::shared_ptr<const ImportResult> trace(const std::string& path, std::optional<long> rank) {
    auto t = std::make_shared<ChromeTraceResult>();
    t->path = path;
    t->format = "kineto";
    t->rank = rank;
    return t;
}

std::shared_ptr<const ImportResult> ncu(const std::string& path) {
    auto n = std::make_shared<NcuCsvResult>();
    n->path = path;
    n->format = "ncu-csv";
    return n;
}

} // namespace

class TestImportedSet : public QObject {
    Q_OBJECT
private slots:
    void givenRanksWinOthersTakeTheLowestFree() {
        const auto r = numberRanks({std::nullopt, 0, std::nullopt, 3, std::nullopt});
        QVERIFY((r == std::vector<long>{1, 0, 2, 3, 4}));
        QVERIFY(numberRanks({}).empty());
    }
    void assignRanksMarksTheOrderGiven() {
        ChromeTraceResult a, b;
        b.rank = 0;
        b.rankSource = "distributedInfo";
        assignRanks({&a, &b});
        QCOMPARE(*a.rank, 1L);
        QCOMPARE(QString::fromStdString(a.rankSource), QString("order given"));
        QCOMPARE(QString::fromStdString(b.rankSource), QString("distributedInfo"));
    }
    void aBatchOfTracesReplacesTheTraces() {
        ImportedSet set;
        set.addBatch({trace("a0.json", 0), trace("a1.json", 1), ncu("k.csv")});
        QCOMPARE(set.traces.size(), std::size_t(2));
        set.addBatch({trace("b.json", std::nullopt), trace("c.json", 0)});
        QCOMPARE(set.traces.size(), std::size_t(2));
        QCOMPARE(set.traces[0].result->path, std::string("c.json"));
        QCOMPARE(set.traces[1].result->path, std::string("b.json"));
        QCOMPARE(set.traces[1].rank, 1L);
        QCOMPARE(set.ncu.size(), std::size_t(1)); // other kinds stay
    }
    void importingAFileAgainReplacesIt() {
        ImportedSet set;
        set.addBatch({ncu("k.csv")});
        set.addBatch({ncu("k.csv"), ncu("m.csv")});
        QCOMPARE(set.ncu.size(), std::size_t(2));
        QVERIFY((set.paths() == std::vector<std::string>{"k.csv", "m.csv"}));
    }
};

QTEST_GUILESS_MAIN(TestImportedSet)
#include "test_imported_set.moc"
