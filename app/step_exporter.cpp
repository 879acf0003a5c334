#include "step_exporter.h"

#include "stage/frame_stage.h"
#include "stage/pen_overlay.h"

#include <QFileInfo>
#include <QImage>
#include <QLayout>
#include <QPainter>
#include <QSvgGenerator>
#include <functional>

namespace wb {

namespace {
void drawStrokes(QPainter& p, const ExportRequest& r) {
    if (!r.pen || r.pen->width() <= 0 || r.pen->height() <= 0 || r.pen->strokeCount() == 0)
        return;
    p.save();
    p.scale(double(r.size.width()) / r.pen->width(), double(r.size.height()) / r.pen->height());
    r.pen->paint(p, QRectF(QPointF(0, 0), QSizeF(r.pen->size())));
    p.restore();
}
} // namespace

void renderSlide(QPainter& painter, const ExportRequest& r) {
    SlideWidget slide;
    slide.setAttribute(Qt::WA_DontShowOnScreen);
    slide.setTheme(r.theme);
    slide.setPresentation(r.presentation);
    slide.setText(r.text);
    slide.setFrames(r.frames);
    slide.resize(r.size);
    slide.show(); // lays out children (charts included) without showing a window
    // The slide's fonts follow its size (set on the resize show() sends); with no event loop
    // the layout must be brought up to date here, or labels keep the old fonts' heights.
    slide.layout()->activate();
    slide.setFrames(r.frames);
    slide.render(&painter);
    drawStrokes(painter, r);
}

QImage renderStage(const Frames& frames, const Theme& theme, QSize size) {
    FrameStage stage;
    stage.setAttribute(Qt::WA_DontShowOnScreen);
    stage.setTheme(theme);
    stage.setTypeScale(TypeScale::forSlide(size.height()));
    stage.setFrames(frames);
    stage.resize(size);
    stage.show(); // lays out the views (charts included) without showing a window, as renderSlide
    stage.setFrames(frames);
    QImage image(size, QImage::Format_RGB32);
    image.fill(theme.background);
    {
        QPainter p(&image);
        stage.render(&p);
    }
    return image;
}

QString writePicture(const QString& path, QSize size, const QColor& background,
                     const QString& title, const std::function<void(QPainter&)>& draw) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != "png" && suffix != "svg")
        return "cannot export to '" + path + "': the file name must end in .png or .svg";
    if (size.width() < 64 || size.height() < 64 || size.width() > 16384 || size.height() > 16384)
        return "export size must be between 64x64 and 16384x16384";

    if (suffix == "png") {
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(background);
        {
            QPainter p(&image);
            draw(p);
        }
        if (!image.save(path, "PNG"))
            return "cannot write '" + path + "'";
        return {};
    }
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(title);
    svg.setDescription("Exported by Warpboard");
    {
        QPainter p;
        if (!p.begin(&svg))
            return "cannot write '" + path + "'";
        draw(p);
    }
    if (!QFileInfo::exists(path))
        return "cannot write '" + path + "'";
    return {};
}

QString exportStep(const ExportRequest& r) {
    return writePicture(r.path, r.size, r.theme.background,
                        r.text.scenarioTitle + " — " + r.text.stepTitle,
                        [&r](QPainter& p) { renderSlide(p, r); });
}

} // namespace wb
