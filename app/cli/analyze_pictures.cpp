#include "cli/analyze_pictures.h"

#include "analysis/trace_analysis.h"
#include "analysis/trace_compare.h"
#include "cli/cli_error.h"
#include "engine/number_format.h"
#include "engine/prefixed.h"
#include "engine/sentence.h"
#include "frames/timeline_frame.h"
#include "platform.h"
#include "timeline/timeline_view.h"
#include "traces/analysis_panel.h"
#include "traces/compare_panel.h"
#include "traces/panel_export.h"

#include <QApplication>
#include <QDir>
#include <QStyleFactory>
#include <algorithm>
#include <memory>

namespace wb::cli {

namespace {

// Every picture is a 1080p slide: what a report or a CI artefact shows at full size.
const QSize kPictureSize(1920, 1080);
// Ranks the timeline picture draws: two GPU streams each stay legible at 1080p.
constexpr std::size_t kPictureLanes = 12;

// A QApplication for the widgets, offscreen without a display; none when one runs already.
struct PicApplication {
    int argc = 1;
    char name[10] = "warpboard";
    char* argv[2] = {name, nullptr};
    std::unique_ptr<QApplication> app;
    explicit PicApplication(const Theme& theme) {
        if (!QApplication::instance()) {
            app = startApplication(argc, argv);
            QApplication::setStyle(QStyleFactory::create("Fusion"));
        }
        QApplication::setPalette(theme.palette());
    }
};

Theme picTheme(const PictureOptions& o) {
    return o.theme == "dark" ? Theme::dark() : Theme::light();
}

// Writes `stem`.png and/or .svg; adds the paths to `written`.
void picWrite(const PictureOptions& o, const QString& stem, const QString& title,
              const PictureDraw& draw, std::vector<std::string>& written) {
    for (const auto& [dir, suffix] : {std::pair{&o.pngDir, ".png"}, std::pair{&o.svgDir, ".svg"}}) {
        if (dir->empty())
            continue;
        if (!QDir().mkpath(QString::fromStdString(*dir)))
            throw CliError(prefixed("analyze: cannot create ", *dir));
        const QString path = QDir(QString::fromStdString(*dir)).filePath(stem + suffix);
        const QString error = writeBoundedPicture(path, kPictureSize, title, draw);
        if (!error.isEmpty())
            throw CliError("analyze: " + error.toStdString());
        written.push_back(path.toStdString());
    }
}

} // namespace

bool parsePictureOption(const std::vector<std::string>& words, std::size_t& i,
                        PictureOptions& options, const char* usage) {
    const std::string& w = words[i];
    if (w != "--png" && w != "--svg" && w != "--theme")
        return false;
    if (i + 1 >= words.size())
        throw CliError(std::string("analyze: ")
                           .append(w)
                           .append(w == "--theme" ? " needs light or dark\n" : " needs a folder\n")
                           .append(usage));
    const std::string& value = words[++i];
    if (w == "--png")
        options.pngDir = value;
    else if (w == "--svg")
        options.svgDir = value;
    else if (value == "light" || value == "dark")
        options.theme = value;
    else
        throw CliError(std::string("analyze: --theme '")
                           .append(value)
                           .append("' is not allowed; allowed: light|dark"));
    return true;
}

std::vector<std::string> writeAnalysisPictures(const PictureOptions& options,
                                               const std::vector<PictureRank>& ranks,
                                               std::shared_ptr<const TraceAnalysis> analysis) {
    std::vector<std::string> written;
    if (!options.wanted())
        return written;
    const Theme theme = picTheme(options);
    const PicApplication app(theme);

    // The overview: the ranks' GPU streams over the whole run, candidates emphasised. A
    // 1080p picture holds about a dozen ranks' rows legibly, so a larger job shows its
    // straggler candidates first and then the lowest ranks, and says so in the title.
    const auto& candidates = analysis->stragglers.candidates;
    auto isStraggler = [&](long rank) {
        return std::find(candidates.begin(), candidates.end(), rank) != candidates.end() ||
               analysis->triage.stragglerRank == rank;
    };
    std::vector<PictureRank> shown;
    for (const PictureRank& r : ranks)
        if (ranks.size() > kPictureLanes && isStraggler(r.rank) && shown.size() < kPictureLanes)
            shown.push_back(r);
    for (const PictureRank& r : ranks)
        if (shown.size() < kPictureLanes && (ranks.size() <= kPictureLanes || !isStraggler(r.rank)))
            shown.push_back(r);
    TimelineFrame frame;
    frame.gpuOnly = true;
    const std::string count = formatCount(static_cast<long long>(ranks.size()), "rank", "ranks");
    frame.title =
        ranks.size() > kPictureLanes
            ? fill("Timeline: %1 of %2 (straggler candidates first, then from rank %3)",
                   {std::to_string(shown.size()), count, std::to_string(ranks.front().rank)})
            : fill("Timeline: %1", {count});
    frame.caption =
        fill("Triage verdict: %1. %2", {analysis->triage.verdict, analysis->triage.evidence});
    for (const PictureRank& r : shown) {
        const bool straggler = isStraggler(r.rank);
        // Not owned: the caller keeps the stores alive while the pictures are drawn.
        frame.lanes.push_back(
            {.store = std::shared_ptr<const TraceStore>(std::shared_ptr<void>(), r.store),
             .label = fill(straggler ? "rank %1 (straggler)" : "rank %1", {std::to_string(r.rank)}),
             .emphasis = straggler});
    }
    TimelineView view;
    view.setTheme(theme);
    view.setTypeScale(TypeScale::forSlide(kPictureSize.height()));
    view.resize(kPictureSize);
    view.setFrame(frame);
    picWrite(
        options, QStringLiteral("timeline"), QStringLiteral("Timeline"),
        [&view, &theme](QPainter& p, const QRectF& b) {
            p.fillRect(b, theme.background);
            view.paint(p, b);
        },
        written);

    QWidget parent;
    for (AnalysisPanel* panel : makeAnalysisPanels(&parent)) {
        panel->setTheme(theme);
        panel->setAnalysis(analysis);
        picWrite(
            options, panel->panelId(), panel->title(),
            [panel](QPainter& p, const QRectF& b) { panel->render(p, b); }, written);
    }
    return written;
}

std::vector<std::string> writeComparePictures(const PictureOptions& options,
                                              std::shared_ptr<const TraceComparison> comparison) {
    std::vector<std::string> written;
    if (!options.wanted())
        return written;
    const Theme theme = picTheme(options);
    const PicApplication app(theme);
    ComparePanel panel;
    panel.setTheme(theme);
    panel.setComparison(std::move(comparison));
    picWrite(
        options, panel.panelId(), panel.title(),
        [&panel](QPainter& p, const QRectF& b) { panel.render(p, b); }, written);
    return written;
}

} // namespace wb::cli
