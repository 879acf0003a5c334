#pragma once
// `warpboard analyze ... --png DIR --svg DIR`: the Traces workspace's pictures without a
// display, for reports and CI. timeline.png (every rank's GPU streams, the straggler
// emphasised) and one picture per analysis panel (<panel id>.png, drawn by the panel's
// render(), the same as its Export), or compare.png for `analyze --compare`. Starts an
// offscreen QApplication only when there is none (the tests call it in-process too).
#include <memory>
#include <string>
#include <vector>

namespace wb {
struct TraceAnalysis;
struct TraceComparison;
class TraceStore;
} // namespace wb

namespace wb::cli {

struct PictureOptions {
    std::string pngDir, svgDir;  // either may be empty
    std::string theme = "light"; // light | dark
    bool wanted() const { return !pngDir.empty() || !svgDir.empty(); }
};

// One rank of the timeline: its trace (owned by the caller while the pictures are drawn).
struct PictureRank {
    const TraceStore* store = nullptr;
    long rank = 0;
};

// Parses --png DIR, --svg DIR and --theme NAME at words[i] (advancing i); false when
// words[i] is none of them. Throws CliError on a missing folder or an unknown theme.
bool parsePictureOption(const std::vector<std::string>& words, std::size_t& i,
                        PictureOptions& options, const char* usage);

// Writes the analysis pictures; returns the paths written. Throws CliError when one fails.
std::vector<std::string> writeAnalysisPictures(const PictureOptions& options,
                                               const std::vector<PictureRank>& ranks,
                                               std::shared_ptr<const TraceAnalysis> analysis);
// Writes compare.png / compare.svg.
std::vector<std::string> writeComparePictures(const PictureOptions& options,
                                              std::shared_ptr<const TraceComparison> comparison);

} // namespace wb::cli
