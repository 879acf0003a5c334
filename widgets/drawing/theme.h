#pragma once
// The colours and type scale every view draws with. A plain value: views copy it, so switching
// theme is one setTheme call per view and no view reads global state while painting.
#include <QColor>
#include <QFont>
#include <QPalette>
#include <vector>

namespace wb {

struct Theme {
    QColor background;          // the stage and every view's backdrop
    QColor surface;             // cards and panels lifted off the background
    QColor foreground;          // body text and primary strokes
    QColor muted;               // secondary text: sources, axis titles, captions
    QColor grid;                // grid lines, outlines, idle ring links
    QColor accent;              // emphasis, pen strokes, the "complete" look
    QColor onAccent;            // text and marks drawn on an accent fill
    std::vector<QColor> series; // categorical palette; frames index it with colorIndex
    double fontScale = 1.0;     // multiplies every font size the views choose
    // The slide's smallest readable size (TypeScale::floor); font() and fontAtPixels() never
    // return less, so no view (or layout helper handed this theme) can draw shrunken text.
    // Set by the view that owns the copy; 0 outside a slide.
    double minimumPx = 0.0;
    bool highContrast = false; // thicker outlines and stronger text
    bool isDark = false;

    static Theme light();
    static Theme dark();
    // Screen-share type: ~1.4x fonts and high contrast, on either background.
    static Theme presentation(bool dark);

    // Palette entry for a frame's colorIndex; wraps so any index is valid.
    QColor seriesColor(int index) const;
    // A distinct hue per rank (evenly spaced over the wheel), neighbours far apart.
    QColor rankColor(int rank, int ranks) const;
    // A font of `pixelSize` before fontScale, in the application's family.
    QFont font(double pixelSize, bool bold = false) const;
    // A font of exactly `pixelSize`, for layouts that already folded fontScale into their sizes.
    QFont fontAtPixels(double pixelSize, bool bold = false) const;
    // The same in the monospace family, for code listings and addresses that line up.
    QFont monoFontAtPixels(double pixelSize, bool bold = false) const;
    // Outline width for `base` pixels, thicker in high contrast.
    double lineWidth(double base) const;

    // Application palette for the Fusion style; the app installs it.
    QPalette palette() const;
};

// The opaque colour a fraction t (clamped to 0…1) of the way from `from` to `to`. Views blend
// with this rather than with alpha: translucent antialiased strokes cost the raster engine
// several times more than opaque ones.
QColor mixColors(const QColor& from, const QColor& to, double t);

} // namespace wb
