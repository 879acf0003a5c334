#include "cli/arguments.h"
#include "cli/cli_error.h"
#include "cli/commands.h"
#include "cli/size_argument.h"
#include "engine/imported_set.h"
#include "engine/number_format.h"
#include "engine/registry.h"
#include "engine/scenario_inputs.h"
#include "platform.h"
#include "scenario_session.h"
#include "step_exporter.h"

#include <QApplication>
#include <QStyleFactory>
#include <iostream>

namespace wb::cli {

namespace {
std::vector<std::string> scenarioIds() {
    std::vector<std::string> ids;
    for (const auto& s : allScenarios())
        ids.push_back(s->id());
    return ids;
}

} // namespace

const Scenario& requireScenario(const std::string& id) {
    const Scenario* s = findScenario(id);
    if (!s)
        throw CliError("unknown scenario '" + id + "'; allowed: " + joinAllowed(scenarioIds()));
    return *s;
}

int runExport(const std::vector<std::string>& words, int argc, char** argv, ImportedSet imported) {
    const Arguments args(words, {"present"});
    args.requireKnown({"step", "out", "size", "param", "theme", "t", "import", "present"},
                      "export");
    const auto& pos = args.positionals();
    if (pos.empty())
        throw CliError("export needs a scenario id; allowed: " + joinAllowed(scenarioIds()));
    if (pos.size() > 1)
        throw CliError("unexpected argument '" + pos[1] + "' for export");
    const Scenario& scenario = requireScenario(pos.front());

    // --import FILE|FOLDER (repeatable): the user's files, drawn by the lessons that can show
    // them. An export is a deliverable: it is drawn from every file asked for or not at all.
    if (const auto files = args.values("import"); !files.empty()) {
        ImportOutcome outcome = importAll(files);
        if (!outcome.errors.empty()) {
            std::string all;
            for (const auto& e : outcome.errors)
                all += (all.empty() ? "" : "\n") + e;
            throw CliError(all);
        }
        std::vector<std::shared_ptr<const ImportResult>> batch;
        for (auto& r : outcome.results)
            batch.push_back(std::move(r));
        imported.addBatch(batch);
    }
    auto inputs = std::make_shared<ScenarioInputs>();
    inputs->imported = std::move(imported);

    Params params = scenario.defaultParams();
    for (const auto& a : parseParamAssignments(args.values("param")))
        if (auto err = params.set(a.name, a.value))
            throw CliError("export " + scenario.id() + ": " + *err);
    const ScenarioSession session = [&] {
        try {
            return ScenarioSession(scenario, params, std::move(inputs));
        } catch (const std::exception& e) { // the model rejected the parameters
            throw CliError("export " + scenario.id() + ": " + e.what());
        }
    }();

    const auto stepText = args.value("step");
    if (!stepText)
        throw CliError("export needs --step N (1…" + std::to_string(session.stepCount()) + ")");
    const auto step = parseNumber(*stepText);
    if (!step || *step != int(*step) || *step < 1 || *step > session.stepCount())
        throw CliError("--step '" + *stepText + "' is out of range; " + scenario.id() +
                       " has steps 1…" + std::to_string(session.stepCount()));
    const auto out = args.value("out");
    if (!out)
        throw CliError("export needs --out FILE.png or FILE.svg");
    const QString path = QString::fromStdString(*out);
    if (!path.endsWith(".png", Qt::CaseInsensitive) && !path.endsWith(".svg", Qt::CaseInsensitive))
        throw CliError("--out '" + *out + "' must end in .png or .svg");
    const QSize size = parseSizeArgument(args.value("size").value_or("1920x1080"), 64, 16384);
    double t = 1.0;
    if (auto tt = args.value("t")) {
        const auto v = parseNumber(*tt);
        if (!v || *v < 0.0 || *v > 1.0)
            throw CliError("--t '" + *tt + "' must be a number in 0…1");
        t = *v;
    }
    const std::string themeName = args.value("theme").value_or("light");
    if (themeName != "light" && themeName != "dark")
        throw CliError("--theme '" + themeName + "' is not allowed; allowed: light|dark");

    const auto app = startApplication(argc, argv);
    QApplication::setStyle(QStyleFactory::create("Fusion"));
    const bool present = args.flag("present");
    const Theme theme = present ? Theme::presentation(themeName == "dark")
                                : (themeName == "dark" ? Theme::dark() : Theme::light());
    QApplication::setPalette(theme.palette());

    ExportRequest req;
    req.text = session.slideText(int(*step) - 1);
    req.frames = session.frames(int(*step) - 1, t);
    req.theme = theme;
    req.presentation = present;
    req.size = size;
    req.path = path;
    const QString err = exportStep(req);
    if (!err.isEmpty()) {
        std::cerr << "warpboard: " << err.toStdString() << "\n";
        return 1;
    }
    std::cout << "wrote " << *out << " (" << size.width() << "x" << size.height() << ", "
              << scenario.id() << " step " << int(*step) << ")\n";
    return 0;
}

} // namespace wb::cli
