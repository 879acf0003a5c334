#pragma once
// Typed description of one scenario parameter. The app generates its parameter panel
// from these, the command line validates against them, and Params clamps to them.
#include <string>
#include <vector>

namespace wb {

struct ParamSpec {
    enum class Kind { Integer, Real, Choice, Text };

    std::string name;  // key used on the command line: --param name=value
    std::string label; // shown in the panel
    std::string unit;  // "", "B", "µs", "GB/s", ...
    Kind kind = Kind::Real;
    double min = 0.0;
    double max = 1.0;
    double defaultValue = 0.0;
    bool logScale = false;            // slider moves in log space (message sizes, batch)
    std::vector<std::string> choices; // Kind::Choice
    std::string defaultChoice;        // Kind::Choice and Kind::Text
    std::string help;
    bool required = false; // for `warpboard calc`: must be given on the command line
    // Kind::Text read by one choice only (a custom condition read by branch = custom): typing
    // in the app's field selects that choice as well, so the text always does something.
    std::string selectsParam;
    std::string selectsChoice;

    static ParamSpec integer(std::string name, std::string label, std::string unit, double min,
                             double max, double def, bool log = false, std::string help = {});
    static ParamSpec real(std::string name, std::string label, std::string unit, double min,
                          double max, double def, bool log = false, std::string help = {});
    static ParamSpec choice(std::string name, std::string label, std::vector<std::string> choices,
                            std::string def, std::string help = {});
    // Free text the model validates itself (e.g. a kernel's index expression).
    static ParamSpec text(std::string name, std::string label, std::string def,
                          std::string help = {});

    bool operator==(const ParamSpec&) const = default;
};

} // namespace wb
