#include "cli/arguments.h"
#include "cli/commands.h"
#include "engine/registry.h"

#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

namespace wb::cli {

int runList(const std::vector<std::string>& words) {
    const Arguments args(words, {"list", "json"});
    args.requireKnown({"list", "json"}, "--list");
    if (args.flag("json")) {
        auto out = nlohmann::ordered_json::array();
        for (const auto& s : allScenarios())
            out.push_back(
                {{"id", s->id()}, {"group", groupKey(s->group())}, {"title", s->title()}});
        std::cout << out.dump(2) << "\n";
        return 0;
    }
    for (const auto& s : allScenarios())
        std::cout << std::left << std::setw(26) << s->id() << std::setw(26)
                  << groupTitle(s->group()) << s->title() << "\n";
    return 0;
}

} // namespace wb::cli
