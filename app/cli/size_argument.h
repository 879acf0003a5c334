#pragma once
// "WIDTHxHEIGHT" in pixels, as `export --size` and `lint --size` take it.
#include <QSize>
#include <string>

namespace wb::cli {

// Throws CliError naming the option, the allowed range and an example when `text` is not two
// whole numbers joined by 'x' within [minSide, maxSide] each.
QSize parseSizeArgument(const std::string& text, int minSide, int maxSide);

} // namespace wb::cli
