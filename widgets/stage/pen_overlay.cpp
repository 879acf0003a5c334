#include "stage/pen_overlay.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>

namespace wb {

namespace {

// Laser pointers are red by convention, and red stands apart from every theme's accent.
const QColor kLaser(0xff, 0x2d, 0x2d);

QPointF fromUnit(const QPointF& unit, const QRectF& bounds) {
    return {bounds.left() + unit.x() * bounds.width(), bounds.top() + unit.y() * bounds.height()};
}

// Mouse samples joined by quadratic curves through their midpoints: handwriting without the
// corners a polyline shows at every sample.
QPainterPath smoothPath(const QPolygonF& unit, const QRectF& bounds) {
    QPainterPath path(fromUnit(unit.front(), bounds));
    for (qsizetype i = 1; i + 1 < unit.size(); ++i) {
        const QPointF control = fromUnit(unit[i], bounds);
        const QPointF next = fromUnit(unit[i + 1], bounds);
        path.quadTo(control, (control + next) / 2.0);
    }
    path.lineTo(fromUnit(unit.back(), bounds));
    return path;
}

} // namespace

PenOverlay::PenOverlay(QWidget* parent)
    : QWidget(parent) {
    setAttribute(Qt::WA_TransparentForMouseEvents, true);
    setFocusPolicy(Qt::NoFocus);
    m_clock.start();
    m_fadeTimer.setInterval(16); // ~60 fps while fading, idle otherwise
    connect(&m_fadeTimer, &QTimer::timeout, this, &PenOverlay::fadeTrail);
}

void PenOverlay::setMode(Mode mode) {
    m_mode = mode;
    setAttribute(Qt::WA_TransparentForMouseEvents, mode == Mode::Off);
    setMouseTracking(mode == Mode::Laser);
    if (mode == Mode::Pen) {
        setCursor(Qt::CrossCursor);
    } else if (mode == Mode::Laser) {
        setCursor(Qt::BlankCursor); // the dot is the pointer
    } else {
        unsetCursor();
    }
    if (mode != Mode::Laser) {
        m_laserDot.reset();
        m_trail.clear();
        m_fadeTimer.stop();
    }
    m_drawing = false;
    m_current.clear();
    update();
}

void PenOverlay::setTheme(const Theme& theme) {
    m_theme = theme;
    update();
}

void PenOverlay::setPage(int page) {
    if (page == m_page) {
        return;
    }
    m_page = page;
    m_drawing = false;
    m_current.clear();
    update();
}

int PenOverlay::strokeCount() const {
    const auto it = m_pages.find(m_page);
    return it == m_pages.end() ? 0 : static_cast<int>(it->second.size());
}

QPointF PenOverlay::toUnit(const QPointF& pos) const {
    return {pos.x() / std::max(1, width()), pos.y() / std::max(1, height())};
}

void PenOverlay::addStroke(const QVector<QPointF>& points) {
    if (points.isEmpty()) {
        return;
    }
    QPolygonF stroke;
    stroke.reserve(points.size());
    for (const QPointF& p : points) {
        stroke.append(toUnit(p));
    }
    m_pages[m_page].push_back(stroke);
    update();
    emit strokesChanged();
}

void PenOverlay::undo() {
    auto it = m_pages.find(m_page);
    if (it == m_pages.end() || it->second.empty()) {
        return;
    }
    it->second.pop_back();
    update();
    emit strokesChanged();
}

void PenOverlay::clear() {
    if (m_pages.erase(m_page) > 0) {
        update();
        emit strokesChanged();
    }
}

void PenOverlay::clearAllPages() {
    m_pages.clear();
    update();
    emit strokesChanged();
}

void PenOverlay::addLaserPoint(const QPointF& pos) {
    const QPointF unit = toUnit(pos);
    m_laserDot = unit;
    m_trail.push_back({unit, m_clock.elapsed()});
    if (!m_fadeTimer.isActive()) {
        m_fadeTimer.start();
    }
    update();
}

void PenOverlay::fadeTrail() {
    const qint64 cutoff = m_clock.elapsed() - kTrailMs;
    while (!m_trail.empty() && m_trail.front().ms <= cutoff) {
        m_trail.pop_front();
    }
    if (m_trail.empty()) {
        m_fadeTimer.stop(); // nothing left to animate: no idle wake-ups
    }
    update();
}

double PenOverlay::penWidth(const QRectF& bounds) const {
    // About 6 px on a 1080p stage, thicker for presentation themes.
    const double side = std::min(bounds.width(), bounds.height());
    return std::max(4.0, side / 180.0) * (m_theme.highContrast ? 1.3 : 1.0);
}

void PenOverlay::paint(QPainter& painter, const QRectF& bounds) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    const double width = penWidth(bounds);
    painter.setPen(QPen(m_theme.accent, width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    painter.setBrush(Qt::NoBrush);
    auto drawStroke = [&](const QPolygonF& unit) {
        if (unit.size() == 1) {
            painter.drawPoint(fromUnit(unit.front(), bounds)); // a click leaves a dot
        } else {
            painter.drawPath(smoothPath(unit, bounds));
        }
    };
    if (const auto it = m_pages.find(m_page); it != m_pages.end()) {
        for (const QPolygonF& stroke : it->second) {
            drawStroke(stroke);
        }
    }
    if (m_drawing && !m_current.isEmpty()) {
        drawStroke(m_current);
    }

    if (m_mode == Mode::Laser) {
        const qint64 now = m_clock.elapsed();
        for (std::size_t i = 1; i < m_trail.size(); ++i) {
            const double age = static_cast<double>(now - m_trail[i].ms) / kTrailMs;
            const double life = std::clamp(1.0 - age, 0.0, 1.0);
            QColor c = kLaser;
            c.setAlphaF(static_cast<float>(0.8 * life));
            painter.setPen(QPen(c, width * (0.4 + 0.8 * life), Qt::SolidLine, Qt::RoundCap));
            painter.drawLine(fromUnit(m_trail[i - 1].pos, bounds),
                             fromUnit(m_trail[i].pos, bounds));
        }
        if (m_laserDot) {
            const QPointF at = fromUnit(*m_laserDot, bounds);
            QColor glow = kLaser;
            glow.setAlphaF(0.3f);
            painter.setPen(Qt::NoPen);
            painter.setBrush(glow);
            painter.drawEllipse(at, width * 2.2, width * 2.2);
            painter.setBrush(kLaser);
            painter.drawEllipse(at, width * 1.2, width * 1.2);
        }
    }
    painter.restore();
}

void PenOverlay::paintEvent(QPaintEvent* /*event*/) {
    QPainter painter(this);
    paint(painter, rect());
}

void PenOverlay::mousePressEvent(QMouseEvent* event) {
    if (m_mode == Mode::Pen && event->button() == Qt::LeftButton) {
        m_drawing = true;
        m_current.clear();
        m_current.append(toUnit(event->position()));
        update();
        event->accept();
        return;
    }
    QWidget::mousePressEvent(event);
}

void PenOverlay::mouseMoveEvent(QMouseEvent* event) {
    if (m_mode == Mode::Pen && m_drawing) {
        m_current.append(toUnit(event->position()));
        update();
    } else if (m_mode == Mode::Laser) {
        addLaserPoint(event->position());
    }
    event->accept();
}

void PenOverlay::mouseReleaseEvent(QMouseEvent* event) {
    if (m_mode == Mode::Pen && m_drawing && event->button() == Qt::LeftButton) {
        m_drawing = false;
        m_pages[m_page].push_back(m_current);
        m_current.clear();
        update();
        emit strokesChanged();
        event->accept();
        return;
    }
    QWidget::mouseReleaseEvent(event);
}

void PenOverlay::leaveEvent(QEvent* event) {
    m_laserDot.reset();
    update();
    QWidget::leaveEvent(event);
}

} // namespace wb
