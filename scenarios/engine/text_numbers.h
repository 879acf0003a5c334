#pragma once
// The numbers a piece of slide text quotes, read back with their units, so a test can check
// that every one of them is a value the model computed (words come from results). Names that
// contain digits (H100, BF16, L2, sm_90, §3.1, SC'20) are not quantities and are skipped.
#include <string>
#include <string_view>
#include <vector>

namespace wb {

struct QuotedNumber {
    std::string text;   // as written, with its unit: "2.73 GB"
    double shown = 0.0; // the digits: 2.73
    double scale = 1.0; // the SI prefix of its unit: 1e9 for "GB", 1e-3 for "ms"
    double step = 1.0;  // one unit of the last digit shown: 0.01 for "2.73"
    bool percent = false;
};

std::vector<QuotedNumber> quotedNumbers(std::string_view text);

// Whether `value` is what `q` shows, within the rounding of its last digit. A value is given
// in the unit of the quantity (bytes, seconds, FLOP/s, a count) or already in the unit shown
// ("2.73" for 2.73 GB); a percentage matches a value in percent or as a fraction of one.
bool shows(const QuotedNumber& q, double value);

} // namespace wb
