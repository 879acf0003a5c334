#pragma once
// Renders one step as a slide into a PNG or SVG file, offscreen, at a chosen size. Used by
// Ctrl+E in the app and by `warpboard export`, so both give the same file.
#include "drawing/theme.h"
#include "frames/frame.h"
#include "slide_widget.h"

#include <QImage>
#include <QPainter>
#include <QSize>
#include <QString>
#include <functional>

namespace wb {

class PenOverlay;

struct ExportRequest {
    SlideText text;
    Frames frames;
    Theme theme;
    QSize size{1920, 1080};
    QString path;                    // .png or .svg decides the format
    const PenOverlay* pen = nullptr; // drawings of this step, scaled from the pen's size
    bool presentation = false;       // the slide as presentation mode lays it out
};

// Renders the request's slide (and pen strokes) with `painter`, whose device is
// request.size: the one drawing behind PNG, SVG and `warpboard lint`.
void renderSlide(QPainter& painter, const ExportRequest& request);

// The stage alone (no title, narration or provenance line) drawing `frames` into an image of
// `size`, with the type a slide of that height sets: what a step's picture shows, for tests
// that compare steps' pictures.
QImage renderStage(const Frames& frames, const Theme& theme, QSize size);

// Returns an empty string on success, else a message naming the problem.
QString exportStep(const ExportRequest& request);

// The one PNG/SVG writer (by `path`'s suffix) behind exportStep and the Traces workspace's
// exports: `draw` paints a picture of `size` (a PNG starts filled with `background`).
// Returns an error naming the problem, or "".
QString writePicture(const QString& path, QSize size, const QColor& background,
                     const QString& title, const std::function<void(QPainter&)>& draw);

} // namespace wb
