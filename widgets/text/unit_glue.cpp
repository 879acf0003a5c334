#include "text/unit_glue.h"

namespace wb {
namespace {

constexpr QChar kNoBreakSpace(0x00A0);
constexpr QChar kWordJoiner(0x2060);
// The longest word that stays with the number before it: every unit Warpboard writes
// ("TFLOP/s" is the longest) and the short count nouns ("GPUs", "NICs"); longer words are
// ordinary prose and may start the next line.
constexpr int kMaxGluedWord = 7;

bool endsWord(QChar c) {
    return c.isSpace() || c == ',' || c == ';' || c == ':' || c == ')' || c == '.';
}

// Length of the word starting at `at`, up to a space or closing punctuation.
int wordLength(const QString& s, int at) {
    int n = 0;
    while (at + n < s.size() && !endsWord(s[at + n]))
        ++n;
    return n;
}

} // namespace

GluedText glueUnits(const QString& source) {
    GluedText out;
    out.text.reserve(source.size() + 8);
    out.sourceIndex.reserve(static_cast<std::size_t>(source.size()) + 8);
    for (int i = 0; i < source.size(); ++i) {
        const QChar c = source[i];
        const bool afterNumber = i > 0 && source[i - 1].isDigit();
        if (c == ' ' && afterNumber && i + 1 < source.size()) {
            const int len = wordLength(source, i + 1);
            if (len > 0 && len <= kMaxGluedWord) {
                out.text.append(kNoBreakSpace);
                out.sourceIndex.push_back(i);
                continue;
            }
        }
        out.text.append(c);
        out.sourceIndex.push_back(i);
        // "GB/s", "2(N−1)/N": no break after a slash inside a word.
        if (c == '/' && i > 0 && !source[i - 1].isSpace() && i + 1 < source.size() &&
            source[i + 1].isLetterOrNumber()) {
            out.text.append(kWordJoiner);
            out.sourceIndex.push_back(-1);
        }
    }
    return out;
}

QString keepUnitsTogether(const QString& source) {
    return glueUnits(source).text;
}

} // namespace wb
