#pragma once
// Counts paint events a widget receives, so tests can prove an equal frame repaints nothing.
#include <QCoreApplication>
#include <QEvent>
#include <QObject>
#include <QTest>
#include <QWidget>

namespace wb::test {

class PaintCounter : public QObject {
public:
    explicit PaintCounter(QWidget* widget)
        : QObject(widget) {
        widget->installEventFilter(this);
    }
    int paints = 0;

protected:
    bool eventFilter(QObject* /*watched*/, QEvent* event) override {
        if (event->type() == QEvent::Paint) {
            ++paints;
        }
        return false;
    }
};

// Shows `view` with `frame`, then checks that setting an equal frame paints nothing and a
// different one paints again. Returns false (after QVERIFY-style messages) on failure.
template <typename View, typename Frame>
bool equalFrameSkipsRepaint(View& view, const Frame& frame, const Frame& changed) {
    view.resize(640, 420);
    view.setFrame(frame);
    view.show();
    if (!QTest::qWaitForWindowExposed(&view)) {
        return false;
    }
    QTest::qWait(30);
    PaintCounter counter(&view);
    const Frame copy = frame; // equal, not the same object
    view.setFrame(copy);
    QTest::qWait(60);
    if (counter.paints != 0) {
        qWarning("equal frame repainted %d time(s)", counter.paints);
        return false;
    }
    view.setFrame(changed);
    for (int i = 0; i < 50 && counter.paints == 0; ++i) {
        QTest::qWait(20);
    }
    if (counter.paints == 0) {
        qWarning("a changed frame did not repaint");
        return false;
    }
    return true;
}

} // namespace wb::test
