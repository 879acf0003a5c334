// warpboard lint: renders every slide and reports what cannot be read (see lint/slide_lint.h).
// Every slide passes it; the test suite runs it and any finding fails.
#include "cli/arguments.h"
#include "cli/cli_error.h"
#include "cli/commands.h"
#include "cli/size_argument.h"
#include "engine/number_format.h"
#include "engine/registry.h"
#include "engine/scenario.h"
#include "lint/panel_lint.h"
#include "lint/slide_lint.h"
#include "platform.h"

#include <QApplication>
#include <QStyleFactory>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace wb::cli {

namespace {

std::string sizeText(QSize s) {
    return std::to_string(s.width()) + "x" + std::to_string(s.height());
}

nlohmann::json toJson(const SlideFinding& f) {
    const QRectF& b = f.finding.box;
    return {{"scenario", f.scenario},
            {"step", f.step},
            {"params", f.params},
            {"size", sizeText(f.size)},
            {"kind", lintKindName(f.finding.kind)},
            {"text", f.finding.text.toStdString()},
            {"box",
             {std::lround(b.x()), std::lround(b.y()), std::lround(b.width()),
              std::lround(b.height())}}};
}

std::pair<int, int> parseShard(const std::string& text) {
    int k = 0, n = 0;
    char slash = 0;
    std::istringstream in(text);
    if (!(in >> k >> slash >> n) || slash != '/' || n < 1 || k < 0 || k >= n || !in.eof())
        throw CliError("--shard '" + text + "' must be K/N with 0 <= K < N (e.g. 0/4)");
    return {k, n};
}

} // namespace

int runLint(const std::vector<std::string>& words, int argc, char** argv) {
    const Arguments args(words, {"json", "panels"});
    args.requireKnown({"size", "scenario", "json", "shard", "panels"}, "lint");
    if (!args.positionals().empty())
        throw CliError("unexpected argument '" + args.positionals().front() + "' for lint");
    std::vector<QSize> sizes;
    for (const auto& s : args.values("size"))
        sizes.push_back(parseSizeArgument(s, 240, 8192));
    if (sizes.empty())
        sizes = {{1280, 720}, {1920, 1080}};
    std::vector<const Scenario*> scenarios;
    // The Traces workspace's panels: with --panels alone, and in a whole run's first shard.
    bool panels = args.flag("panels");
    if (panels) {
        // --panels: no scenario
    } else if (auto id = args.value("scenario")) {
        scenarios.push_back(&requireScenario(*id));
    } else {
        const auto& all = allScenarios();
        const auto [k, n] =
            args.value("shard") ? parseShard(*args.value("shard")) : std::pair<int, int>{0, 1};
        for (std::size_t i = 0; i < all.size(); ++i)
            if (static_cast<int>(i % static_cast<std::size_t>(n)) == k)
                scenarios.push_back(all[i].get());
        panels = k == 0;
    }
    const auto app = startApplication(argc, argv);
    QApplication::setStyle(QStyleFactory::create("Fusion"));
    // One family everywhere so findings do not depend on which fonts a machine has.
    QFont family(QStringLiteral("DejaVu Sans"));
    family.setPixelSize(14);
    QApplication::setFont(family);
    QApplication::setPalette(Theme::light().palette());

    std::vector<SlideFinding> found;
    for (const Scenario* s : scenarios) {
        auto f = lintScenario(*s, sizes);
        found.insert(found.end(), std::make_move_iterator(f.begin()),
                     std::make_move_iterator(f.end()));
    }
    if (panels) {
        auto f = lintPanels(sizes);
        found.insert(found.end(), std::make_move_iterator(f.begin()),
                     std::make_move_iterator(f.end()));
    }

    if (args.flag("json")) {
        nlohmann::json doc{{"findings", nlohmann::json::array()}};
        for (const SlideFinding& f : found)
            doc["findings"].push_back(toJson(f));
        std::cout << doc.dump(1) << "\n";
    } else {
        for (const SlideFinding& f : found) {
            const QRectF& b = f.finding.box;
            std::cout << f.scenario << " step " << f.step << " [" << f.params << "] "
                      << sizeText(f.size) << " " << lintKindName(f.finding.kind) << ": \""
                      << f.finding.text.toStdString() << "\" at " << std::lround(b.x()) << ","
                      << std::lround(b.y()) << " " << std::lround(b.width()) << "x"
                      << std::lround(b.height()) << "\n";
        }
        std::cout << found.size() << " findings in " << scenarios.size()
                  << (scenarios.size() == 1 ? " scenario" : " scenarios")
                  << (panels ? " and the Traces panels" : "") << "\n";
    }
    return found.empty() ? 0 : 1;
}

} // namespace wb::cli
