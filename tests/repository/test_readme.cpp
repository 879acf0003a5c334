// The README lists what the program registers, so the lists cannot drift: every scenario id
// has a row in "## Scenarios", every calc model one in "## Calc models", and neither table
// has a row for something that does not exist. The headless default run's file name is the
// default scenario's.
#include "calc/calc_models.h"
#include "engine/registry.h"

#include <QtTest>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

std::string readme() {
    std::ifstream in(std::string(WB_SOURCE_DIR) + "/README.md", std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The text from the "## <title>" line to the next "## " heading.
std::string section(const std::string& text, const std::string& title) {
    const std::string heading = "\n## " + title + "\n";
    const auto begin = text.find(heading);
    if (begin == std::string::npos)
        return {};
    const auto end = text.find("\n## ", begin + heading.size());
    return text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

// The ids in the first column of a table: rows that start "| `id` |".
std::set<std::string> tableIds(const std::string& text) {
    static const std::regex row(R"(\n\| `([^`]+)` \|)");
    std::set<std::string> ids;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), row);
         it != std::sregex_iterator(); ++it)
        ids.insert((*it)[1].str());
    return ids;
}

// What is registered but missing from the table, and what the table names but is not.
QString compare(const std::set<std::string>& registered, const std::set<std::string>& listed) {
    QStringList problems;
    for (const auto& id : registered)
        if (!listed.count(id))
            problems << "missing: " + QString::fromStdString(id);
    for (const auto& id : listed)
        if (!registered.count(id))
            problems << "not registered: " + QString::fromStdString(id);
    return problems.join(", ");
}

} // namespace

class TestReadme : public QObject {
    Q_OBJECT

private slots:
    void tablesAreReadFromTheirOwnSections() {
        const std::string text = "# T\n\n## A\n\n| id |\n|---|\n| `x` | a |\n| `y` | b |\n\n## B\n"
                                 "\n| `z` | c |\n";
        QCOMPARE(tableIds(section(text, "A")), (std::set<std::string>{"x", "y"}));
        QCOMPARE(tableIds(section(text, "B")), (std::set<std::string>{"z"}));
        QVERIFY(section(text, "C").empty());
        QCOMPARE(compare({"x", "w"}, {"x", "y"}), QString("missing: w, not registered: y"));
    }

    void everyScenarioIsInTheScenariosTable() {
        std::set<std::string> registered;
        for (const auto& s : wb::allScenarios())
            registered.insert(s->id());
        const std::set<std::string> listed = tableIds(section(readme(), "Scenarios"));
        QVERIFY2(listed.size() > 10, "no ## Scenarios table in README.md");
        const QString problems = compare(registered, listed);
        QVERIFY2(problems.isEmpty(), qPrintable("README.md ## Scenarios: " + problems));
    }

    void everyCalcModelIsInTheCalcModelsTable() {
        std::set<std::string> registered;
        for (const auto& m : wb::calcModels())
            registered.insert(m.id);
        const std::set<std::string> listed = tableIds(section(readme(), "Calc models"));
        QVERIFY2(listed.size() > 10, "no ## Calc models table in README.md");
        const QString problems = compare(registered, listed);
        QVERIFY2(problems.isEmpty(), qPrintable("README.md ## Calc models: " + problems));
    }

    void theHeadlessDefaultRunIsNamedAfterTheDefaultScenario() {
        const std::string png = "warpboard-" + wb::defaultScenario().id() + "-step1.png";
        QVERIFY2(readme().find("`" + png + "`") != std::string::npos, png.c_str());
    }
};

QTEST_APPLESS_MAIN(TestReadme)
#include "test_readme.moc"
