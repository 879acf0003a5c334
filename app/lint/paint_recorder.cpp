#include "lint/paint_recorder.h"

#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QRegion>
#include <QTextItem>
#include <cmath>

namespace wb {

// Claims every feature so QPainter hands it text, transforms and brushes as they are, instead
// of emulating them (an emulated text item would arrive as a path and be lost to the lint).
class RecordingEngine : public QPaintEngine {
public:
    RecordingEngine()
        : QPaintEngine(QPaintEngine::AllFeatures) {}

    bool begin(QPaintDevice* /*device*/) override { return true; }
    bool end() override { return true; }
    Type type() const override { return QPaintEngine::User; }

    void updateState(const QPaintEngineState& changed) override {
        if (changed.state() & QPaintEngine::DirtyTransform)
            m_transform = changed.transform();
        if (changed.state() & QPaintEngine::DirtyBrush)
            m_brush = changed.brush();
    }

    void drawTextItem(const QPointF& p, const QTextItem& item) override {
        const QString text = item.text();
        if (text.trimmed().isEmpty())
            return;
        const QFont font = item.font();
        double px = font.pixelSize() > 0 ? font.pixelSize() : font.pointSizeF() * 96.0 / 72.0;
        px *= std::sqrt(std::abs(m_transform.determinant()));
        const QRectF logical(p.x(), p.y() - item.ascent(), item.width(),
                             item.ascent() + item.descent());
        RecordedText t;
        t.text = text;
        t.box = m_transform.mapRect(logical);
        t.px = px;
        if (QPainter* painter = this->painter(); painter && painter->hasClipping())
            t.clip = m_transform.mapRect(painter->clipBoundingRect());
        // Widget rendering clips each widget to its own rect through the system clip, in
        // device pixels; text past it is cut just the same.
        if (const QRegion system = systemClip(); !system.isEmpty()) {
            const QRectF bounds = QRectF(system.boundingRect());
            t.clip = t.clip.isNull() ? bounds : t.clip.intersected(bounds);
        }
        t.order = m_next++;
        record.texts.push_back(std::move(t));
    }

    void drawRects(const QRectF* rects, int count) override {
        for (int i = 0; i < count; ++i)
            filled(rects[i]);
    }
    void drawRects(const QRect* rects, int count) override {
        for (int i = 0; i < count; ++i)
            filled(QRectF(rects[i]));
    }
    void drawPath(const QPainterPath& path) override { filled(path.boundingRect()); }
    void drawPolygon(const QPointF* points, int count, PolygonDrawMode mode) override {
        if (mode == PolylineMode || count < 3)
            return;
        QPolygonF polygon;
        for (int i = 0; i < count; ++i)
            polygon << points[i];
        filled(polygon.boundingRect());
    }
    void drawPolygon(const QPoint* points, int count, PolygonDrawMode mode) override {
        if (mode == PolylineMode || count < 3)
            return;
        QPolygonF polygon;
        for (int i = 0; i < count; ++i)
            polygon << QPointF(points[i]);
        filled(polygon.boundingRect());
    }
    void drawEllipse(const QRectF& r) override { filled(r); }
    void drawPixmap(const QRectF& r, const QPixmap& /*pm*/, const QRectF& /*sr*/) override {
        record.shapes.push_back({m_transform.mapRect(r), m_next++});
    }
    void drawImage(const QRectF& r, const QImage& /*image*/, const QRectF& /*sr*/,
                   Qt::ImageConversionFlags /*flags*/) override {
        record.shapes.push_back({m_transform.mapRect(r), m_next++});
    }
    void drawLines(const QLineF* /*lines*/, int /*count*/) override {}
    void drawLines(const QLine* /*lines*/, int /*count*/) override {}
    void drawPoints(const QPointF* /*points*/, int /*count*/) override {}
    void drawPoints(const QPoint* /*points*/, int /*count*/) override {}

    PaintRecord record;

private:
    void filled(const QRectF& r) {
        if (m_brush.style() == Qt::NoBrush || m_brush.color().alpha() == 0)
            return;
        record.shapes.push_back({m_transform.mapRect(r.normalized()), m_next++});
    }

    int m_next = 0;
    QTransform m_transform;
    QBrush m_brush;
};

PaintRecorder::PaintRecorder(QSize size)
    : m_size(size)
    , m_engine(std::make_unique<RecordingEngine>()) {}

PaintRecorder::~PaintRecorder() = default;

QPaintEngine* PaintRecorder::paintEngine() const {
    return m_engine.get();
}

const PaintRecord& PaintRecorder::record() const {
    return m_engine->record;
}

void PaintRecorder::clear() {
    m_engine->record = {};
}

int PaintRecorder::metric(PaintDeviceMetric metric) const {
    switch (metric) {
    case PdmWidth:
        return m_size.width();
    case PdmHeight:
        return m_size.height();
    case PdmWidthMM:
        return static_cast<int>(m_size.width() * 25.4 / 96.0);
    case PdmHeightMM:
        return static_cast<int>(m_size.height() * 25.4 / 96.0);
    case PdmNumColors:
        return 0x7fffffff;
    case PdmDepth:
        return 32;
    case PdmDpiX:
    case PdmDpiY:
    case PdmPhysicalDpiX:
    case PdmPhysicalDpiY:
        return 96;
    case PdmDevicePixelRatio:
        return 1;
    case PdmDevicePixelRatioScaled:
        return static_cast<int>(QPaintDevice::devicePixelRatioFScale());
    default:
        return 0;
    }
}

} // namespace wb
