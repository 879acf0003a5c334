#include "cli/cli_error.h"
#include "cli/commands.h"

namespace wb::cli {

std::vector<ParamAssignment> parseParamAssignments(const std::vector<std::string>& values) {
    std::vector<ParamAssignment> out;
    for (const auto& v : values) {
        const auto eq = v.find('=');
        if (eq == std::string::npos || eq == 0)
            throw CliError("--param expects name=value, got '" + v + "'");
        out.push_back({v.substr(0, eq), v.substr(eq + 1)});
    }
    return out;
}

} // namespace wb::cli
