#pragma once
// The exports of the Traces workspace, one function each: a panel's tables as CSV (one file
// per table, `<table id>.csv`, the bytes `analyze --csv` writes) and its picture as PNG or
// SVG (`<panel id>.png`/.svg, drawn by render() at 1920×1080 unless asked otherwise). The
// panels' Export menu, `warpboard analyze --png/--svg` and the tests all call these.
#include <QSize>
#include <QString>
#include <QStringList>
#include <functional>

class QPainter;
class QRectF;

namespace wb {

class AnalysisPanel;

enum PanelFormat : unsigned { PanelCsv = 1u, PanelPng = 2u, PanelSvg = 4u };

struct PanelExport {
    QStringList written; // the files, in the order written
    QString error;       // empty on success, else what failed (the files before it stay)
};

// Draws a picture of `size` with `draw` into `path`: PNG or SVG by its suffix (SVG keeps text
// as text), through the one writer (writePicture, step_exporter.h), for a draw that takes
// the picture's bounds. Returns an empty string on success, else the message.
using PictureDraw = std::function<void(QPainter& painter, const QRectF& bounds)>;
QString writeBoundedPicture(const QString& path, QSize size, const QString& title,
                            const PictureDraw& draw);

// `formats`: PanelFormat flags. The folder is created when missing.
PanelExport exportPanel(const AnalysisPanel& panel, const QString& dir, unsigned formats,
                        QSize size = QSize(1920, 1080));

} // namespace wb
