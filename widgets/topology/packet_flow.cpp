#include "topology/packet_flow.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace wb {

std::vector<PacketAt> packetsAlong(const std::vector<double>& rates,
                                   const std::vector<double>& lengths, double spacing,
                                   double phaseS, int maxPackets) {
    const std::size_t n = std::min(rates.size(), lengths.size());
    std::vector<double> capped(n, 0.0);
    double sum = 0.0;
    int active = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double r = rates[i];
        if (!std::isfinite(r) || r <= 0.0 || !(lengths[i] > 0.0))
            continue;
        capped[i] = spacing > 0 ? std::min(r, lengths[i] / spacing) : r;
        sum += capped[i];
        ++active;
    }
    // A route at rate r shows at most floor(r) + 1 packets, so this keeps the total in budget.
    const double scale = sum + active > maxPackets ? std::max(0, maxPackets - active) / sum : 1.0;
    const double phase = std::isfinite(phaseS) ? phaseS : 0.0;
    std::vector<PacketAt> out;
    for (std::size_t i = 0; i < n && static_cast<int>(out.size()) < maxPackets; ++i) {
        const double r = capped[i] * scale;
        if (r <= 0.0)
            continue;
        const double period = 1.0 / r;
        // Routes start staggered (golden-ratio offsets) so equal rates do not march in step.
        const double stagger = std::fmod(static_cast<double>(i) * 0.6180339887, 1.0) * period;
        double first = std::fmod(phase + stagger, period);
        if (first < 0.0)
            first += period;
        for (double t = first; t < 1.0 && static_cast<int>(out.size()) < maxPackets; t += period)
            out.push_back({static_cast<int>(i), t});
    }
    return out;
}

QImage packetStamp(const QColor& fill, const QColor& rim, double size) {
    const int side = static_cast<int>(std::ceil(size)) + 2;
    QImage image(side, side, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(rim, std::max(1.0, size * 0.14)));
    p.setBrush(fill);
    p.drawEllipse(QRectF(1, 1, side - 2, side - 2));
    return image;
}

} // namespace wb
