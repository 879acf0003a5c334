// warpboard lint: renders every slide and reports what cannot be read (see lint/slide_lint.h).
// --known FILE holds findings accepted for now: they are not reported, but one that no longer
// occurs is, so the list can only shrink.
#include "cli/arguments.h"
#include "cli/cli_error.h"
#include "cli/commands.h"
#include "cli/size_argument.h"
#include "engine/number_format.h"
#include "engine/registry.h"
#include "engine/scenario.h"
#include "lint/slide_lint.h"
#include "platform.h"

#include <QApplication>
#include <QStyleFactory>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

namespace wb::cli {

namespace {

std::string sizeText(QSize s) {
    return std::to_string(s.width()) + "x" + std::to_string(s.height());
}

// What identifies a finding across runs: everything but the box, which moves with any
// layout change that does not fix anything.
using Key = std::tuple<std::string, int, std::string, std::string, std::string, std::string>;

Key keyOf(const SlideFinding& f) {
    return {f.scenario,
            f.step,
            f.params,
            sizeText(f.size),
            lintKindName(f.finding.kind),
            f.finding.text.toStdString()};
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

// The known list: how many times each key may occur.
std::map<Key, int> readKnown(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        throw CliError("cannot open '" + path + "'");
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(in);
    } catch (const nlohmann::json::parse_error& e) {
        throw CliError(path + ": byte " + std::to_string(e.byte) + ": not valid JSON");
    }
    std::map<Key, int> known;
    if (!doc.is_object() || !doc.contains("findings") || !doc["findings"].is_array())
        throw CliError(path + ": expected {\"findings\": [...]}");
    for (const auto& f : doc["findings"]) {
        try {
            known[{f.at("scenario").get<std::string>(), f.at("step").get<int>(),
                   f.at("params").get<std::string>(), f.at("size").get<std::string>(),
                   f.at("kind").get<std::string>(), f.at("text").get<std::string>()}] +=
                f.value("count", 1);
        } catch (const nlohmann::json::exception& e) {
            throw CliError(path + ": a finding lacks a field or has the wrong type (" +
                           std::string(e.what()) + ")");
        }
    }
    return known;
}

// The known list as it is committed: one finding per line (diffs stay readable), sorted,
// repeats folded into "count", no boxes.
void writeKnown(const std::string& path, const std::vector<SlideFinding>& found) {
    std::map<Key, int> counts;
    for (const SlideFinding& f : found)
        ++counts[keyOf(f)];
    std::ofstream out(path);
    if (!out)
        throw CliError("cannot write '" + path + "'");
    out << "{\"findings\": [\n";
    std::size_t i = 0;
    for (const auto& [k, count] : counts) {
        nlohmann::json j{{"scenario", std::get<0>(k)}, {"step", std::get<1>(k)},
                         {"params", std::get<2>(k)},   {"size", std::get<3>(k)},
                         {"kind", std::get<4>(k)},     {"text", std::get<5>(k)}};
        if (count > 1)
            j["count"] = count;
        out << j.dump() << (++i < counts.size() ? ",\n" : "\n");
    }
    out << "]}\n";
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
    const Arguments args(words, {"json"});
    args.requireKnown({"size", "scenario", "json", "known", "shard", "write-known"}, "lint");
    if (!args.positionals().empty())
        throw CliError("unexpected argument '" + args.positionals().front() + "' for lint");
    std::vector<QSize> sizes;
    for (const auto& s : args.values("size"))
        sizes.push_back(parseSizeArgument(s, 240, 8192));
    if (sizes.empty())
        sizes = {{1280, 720}, {1920, 1080}};
    std::vector<const Scenario*> scenarios;
    if (auto id = args.value("scenario")) {
        scenarios.push_back(&requireScenario(*id));
    } else {
        const auto& all = allScenarios();
        const auto [k, n] =
            args.value("shard") ? parseShard(*args.value("shard")) : std::pair<int, int>{0, 1};
        for (std::size_t i = 0; i < all.size(); ++i)
            if (static_cast<int>(i % static_cast<std::size_t>(n)) == k)
                scenarios.push_back(all[i].get());
    }
    std::map<Key, int> known;
    if (auto path = args.value("known"))
        known = readKnown(*path);

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

    // Subtract the known ones; what remains is new. Known keys of the linted scenarios and
    // sizes that did not occur are fixed and must leave the list.
    std::vector<SlideFinding> fresh;
    std::map<Key, int> left = known;
    for (const SlideFinding& f : found) {
        auto it = left.find(keyOf(f));
        if (it != left.end() && it->second > 0)
            --it->second;
        else
            fresh.push_back(f);
    }
    std::vector<Key> fixed;
    for (const auto& [key, count] : left) {
        const bool linted =
            std::any_of(scenarios.begin(), scenarios.end(),
                        [&](const Scenario* s) { return s->id() == std::get<0>(key); }) &&
            std::any_of(sizes.begin(), sizes.end(),
                        [&](QSize z) { return sizeText(z) == std::get<3>(key); });
        for (int i = 0; linted && i < count; ++i)
            fixed.push_back(key);
    }

    if (auto path = args.value("write-known"))
        writeKnown(*path, found);

    if (args.flag("json")) {
        nlohmann::json doc{{"findings", nlohmann::json::array()}};
        for (const SlideFinding& f : fresh)
            doc["findings"].push_back(toJson(f));
        if (!fixed.empty()) {
            doc["fixed"] = nlohmann::json::array();
            for (const Key& k : fixed)
                doc["fixed"].push_back({{"scenario", std::get<0>(k)},
                                        {"step", std::get<1>(k)},
                                        {"params", std::get<2>(k)},
                                        {"size", std::get<3>(k)},
                                        {"kind", std::get<4>(k)},
                                        {"text", std::get<5>(k)}});
        }
        std::cout << doc.dump(1) << "\n";
    } else {
        for (const SlideFinding& f : fresh) {
            const QRectF& b = f.finding.box;
            std::cout << f.scenario << " step " << f.step << " [" << f.params << "] "
                      << sizeText(f.size) << " " << lintKindName(f.finding.kind) << ": \""
                      << f.finding.text.toStdString() << "\" at " << std::lround(b.x()) << ","
                      << std::lround(b.y()) << " " << std::lround(b.width()) << "x"
                      << std::lround(b.height()) << "\n";
        }
        for (const Key& k : fixed)
            std::cout << "fixed (delete it from the known list): " << std::get<0>(k) << " step "
                      << std::get<1>(k) << " [" << std::get<2>(k) << "] " << std::get<3>(k) << " "
                      << std::get<4>(k) << ": \"" << std::get<5>(k) << "\"\n";
        std::cout << fresh.size() << (known.empty() ? " findings" : " new findings") << " in "
                  << scenarios.size() << (scenarios.size() == 1 ? " scenario" : " scenarios")
                  << (known.empty()
                          ? ""
                          : ", " + std::to_string(found.size() - fresh.size()) + " known, " +
                                std::to_string(fixed.size()) + " known ones fixed")
                  << "\n";
    }
    return fresh.empty() && fixed.empty() ? 0 : 1;
}

} // namespace wb::cli
