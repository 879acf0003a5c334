#pragma once
// Starts the GUI from command-line words (--scenario, --step, --present, --theme). Without a
// display it renders the requested step to a PNG instead and says where.
#include <string>
#include <vector>

namespace wb {

int runGui(const std::vector<std::string>& words, int argc, char** argv);

} // namespace wb
