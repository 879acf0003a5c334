#pragma once
// A command-line mistake: printed to stderr, exit code 2. Messages name the wrong thing
// and list what is allowed.
#include <stdexcept>
#include <string>

namespace wb::cli {

struct CliError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

constexpr int kUsageExitCode = 2;

} // namespace wb::cli
