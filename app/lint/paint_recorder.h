#pragma once
// A paint device that draws nothing and remembers what was drawn: every text run with its box
// and size in device pixels (through the painter's transform), and every filled shape's box.
// Rendering a slide into it gives the lint the layout as the renderer produced it, the same
// calls a PNG or SVG export makes.
#include <QPaintDevice>
#include <QRectF>
#include <QString>
#include <QTransform>
#include <memory>
#include <vector>

namespace wb {

struct RecordedText {
    QString text;
    QRectF box;    // ascent to descent, first to last glyph advance, in device pixels
    double px = 0; // the font's pixel size times the transform's scale
    QRectF clip;   // the clip in force in device pixels; null when none
    int order = 0; // position in the drawing sequence (texts and shapes share it)
};

struct RecordedShape {
    QRectF box; // a filled rectangle, path, polygon, ellipse or image, in device pixels
    int order = 0;
};

struct PaintRecord {
    std::vector<RecordedText> texts;
    std::vector<RecordedShape> shapes;
};

class PaintRecorder : public QPaintDevice {
public:
    explicit PaintRecorder(QSize size);
    ~PaintRecorder() override;

    QPaintEngine* paintEngine() const override;
    const PaintRecord& record() const;
    void clear();
    QSize size() const { return m_size; }

protected:
    int metric(PaintDeviceMetric metric) const override;

private:
    QSize m_size;
    std::unique_ptr<class RecordingEngine> m_engine;
};

} // namespace wb
