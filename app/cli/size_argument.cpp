#include "cli/size_argument.h"

#include "cli/cli_error.h"
#include "engine/number_format.h"

namespace wb::cli {

QSize parseSizeArgument(const std::string& text, int minSide, int maxSide) {
    const auto x = text.find('x');
    const auto w = x == std::string::npos ? std::nullopt : parseNumber(text.substr(0, x));
    const auto h = x == std::string::npos ? std::nullopt : parseNumber(text.substr(x + 1));
    const auto ok = [&](const std::optional<double>& v) {
        return v && *v >= minSide && *v <= maxSide && *v == static_cast<int>(*v);
    };
    if (!ok(w) || !ok(h))
        throw CliError("--size '" + text + "' must be WIDTHxHEIGHT in pixels, " +
                       std::to_string(minSide) + " to " + std::to_string(maxSide) +
                       " each (e.g. 1920x1080)");
    return {static_cast<int>(*w), static_cast<int>(*h)};
}

} // namespace wb::cli
