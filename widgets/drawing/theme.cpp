#include "drawing/theme.h"

#include <QApplication>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace wb {

namespace {

// Tableau 10: distinguishable, colour-blind aware, and familiar from plotting tools.
const std::vector<QColor> kLightSeries = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e),
                                          QColor(0x2c, 0xa0, 0x2c), QColor(0xd6, 0x27, 0x28),
                                          QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                          QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f),
                                          QColor(0xbc, 0xbd, 0x22), QColor(0x17, 0xbe, 0xcf)};

// The same hues lifted so thin lines stay visible on a dark background.
const std::vector<QColor> kDarkSeries = {QColor(0x5a, 0xa9, 0xe6), QColor(0xff, 0xa1, 0x4a),
                                         QColor(0x5c, 0xc8, 0x5c), QColor(0xf0, 0x6a, 0x6a),
                                         QColor(0xb8, 0x93, 0xe0), QColor(0xc4, 0x8f, 0x7f),
                                         QColor(0xf2, 0x9c, 0xd6), QColor(0xaa, 0xaa, 0xaa),
                                         QColor(0xd9, 0xda, 0x4f), QColor(0x4f, 0xd8, 0xe6)};

} // namespace

Theme Theme::light() {
    Theme t;
    t.background = QColor(0xff, 0xff, 0xff);
    t.surface = QColor(0xf4, 0xf6, 0xf9);
    t.foreground = QColor(0x1d, 0x23, 0x2b);
    t.muted = QColor(0x5f, 0x6b, 0x7a);
    t.grid = QColor(0xd5, 0xdb, 0xe3);
    t.accent = QColor(0x0b, 0x6b, 0xcb);
    t.onAccent = QColor(0xff, 0xff, 0xff);
    t.series = kLightSeries;
    return t;
}

Theme Theme::dark() {
    Theme t;
    t.background = QColor(0x16, 0x1a, 0x20);
    t.surface = QColor(0x22, 0x28, 0x31);
    t.foreground = QColor(0xe6, 0xea, 0xef);
    t.muted = QColor(0x9a, 0xa5, 0xb3);
    t.grid = QColor(0x3a, 0x43, 0x4f);
    t.accent = QColor(0x4d, 0xa3, 0xff);
    t.onAccent = QColor(0x0b, 0x10, 0x18);
    t.series = kDarkSeries;
    t.isDark = true;
    return t;
}

Theme Theme::presentation(bool darkBackground) {
    Theme t = darkBackground ? dark() : light();
    t.fontScale = 1.4;
    t.highContrast = true;
    // Projectors and video compression wash out mid tones: push text and lines to the ends.
    if (darkBackground) {
        t.background = QColor(0x0b, 0x0d, 0x11);
        t.foreground = QColor(0xff, 0xff, 0xff);
        t.muted = QColor(0xc3, 0xcb, 0xd6);
        t.grid = QColor(0x55, 0x60, 0x6e);
    } else {
        t.foreground = QColor(0x00, 0x00, 0x00);
        t.muted = QColor(0x3d, 0x47, 0x54);
        t.grid = QColor(0xb4, 0xbd, 0xc8);
    }
    return t;
}

QColor Theme::seriesColor(int index) const {
    if (series.empty()) {
        return foreground;
    }
    const int n = static_cast<int>(series.size());
    return series[static_cast<std::size_t>(((index % n) + n) % n)];
}

QColor Theme::rankColor(int rank, int ranks) const {
    const int n = std::max(ranks, 1);
    // Hue slots are evenly spaced, but handed out with a stride of about half the ring so
    // that neighbouring ranks, whose cards and stripes sit side by side, get far-apart hues.
    int stride = std::max(n / 2, 1);
    while (stride > 1 && std::gcd(stride, n) != 1) {
        --stride;
    }
    const int slot = ((rank % n + n) % n) * stride % n;
    // Start at blue so rank 0 reads the same in every ring size.
    const double hue = std::fmod(210.0 + 360.0 * slot / n, 360.0);
    // Light themes need darker colours for contrast with white; dark themes the reverse.
    // From six ranks on, some hues sit 60 degrees apart or less: alternating lightness keeps
    // those pairs apart too.
    double lightness = isDark ? 0.64 : 0.50;
    if (n >= 6 && slot % 2 == 1) {
        lightness += isDark ? -0.12 : 0.10;
    }
    return QColor::fromHslF(static_cast<float>(hue / 360.0), 0.72f, static_cast<float>(lightness));
}

QFont Theme::font(double pixelSize, bool bold) const {
    return fontAtPixels(pixelSize * fontScale, bold);
}

QFont Theme::fontAtPixels(double pixelSize, bool bold) const {
    pixelSize = std::max(pixelSize, minimumPx);
    QFont f = QApplication::font();
    f.setPixelSize(std::max(1, static_cast<int>(std::lround(pixelSize))));
    f.setBold(bold);
    return f;
}

QFont Theme::monoFontAtPixels(double pixelSize, bool bold) const {
    QFont f = fontAtPixels(pixelSize, bold);
    f.setFamilies({QStringLiteral("DejaVu Sans Mono"), QStringLiteral("Monospace")});
    f.setStyleHint(QFont::Monospace);
    return f;
}

double Theme::lineWidth(double base) const {
    return highContrast ? base * 1.5 : base;
}

QPalette Theme::palette() const {
    QPalette p;
    const QColor button = surface;
    const QColor disabledText = muted.darker(isDark ? 140 : 80);
    p.setColor(QPalette::Window, background);
    p.setColor(QPalette::WindowText, foreground);
    p.setColor(QPalette::Base, isDark ? background.darker(115) : background);
    p.setColor(QPalette::AlternateBase, surface);
    p.setColor(QPalette::Text, foreground);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, foreground);
    p.setColor(QPalette::BrightText, isDark ? QColor(Qt::white) : QColor(Qt::black));
    p.setColor(QPalette::Highlight, accent);
    p.setColor(QPalette::HighlightedText, onAccent);
    p.setColor(QPalette::ToolTipBase, surface);
    p.setColor(QPalette::ToolTipText, foreground);
    p.setColor(QPalette::PlaceholderText, muted);
    p.setColor(QPalette::Link, accent);
    p.setColor(QPalette::LinkVisited, accent.darker(120));
    p.setColor(QPalette::Light, button.lighter(130));
    p.setColor(QPalette::Midlight, button.lighter(115));
    p.setColor(QPalette::Mid, grid);
    p.setColor(QPalette::Dark, button.darker(160));
    p.setColor(QPalette::Shadow, QColor(0, 0, 0));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
        p.setColor(QPalette::Disabled, role, disabledText);
    }
    p.setColor(QPalette::Disabled, QPalette::Highlight, grid);
    return p;
}

QColor mixColors(const QColor& from, const QColor& to, double t) {
    const double f = std::clamp(t, 0.0, 1.0);
    const auto lerp = [f](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * f)); };
    return {lerp(from.red(), to.red()), lerp(from.green(), to.green()),
            lerp(from.blue(), to.blue())};
}

} // namespace wb
