#pragma once
// Packets moving along routes, shared by the views that animate traffic (the cluster fabric,
// the inside of a server). A packet crosses its route in one second of animation and `rate`
// leave per second, so `rate` of them are on the route at once, evenly spaced and advancing
// with the animation clock; the pattern of a route repeats every 1 / rate seconds. A route
// holds at most one packet per `spacing` of its length, and all routes together at most
// `maxPackets` (every rate scaled down alike), so painting stays fast.
#include <QColor>
#include <QImage>
#include <vector>

namespace wb {

struct PacketAt {
    int route = 0;
    double fraction = 0; // 0…1 along the route
};

// rates[i] ≤ 0, non-finite, or lengths[i] ≤ 0: no packets on route i.
std::vector<PacketAt> packetsAlong(const std::vector<double>& rates,
                                   const std::vector<double>& lengths, double spacing,
                                   double phaseS, int maxPackets);

// A packet dot rendered once per colour and stamped at each packet: thousands of antialiased
// ellipses cost several milliseconds, the same number of small image blits far less.
QImage packetStamp(const QColor& fill, const QColor& rim, double size);

} // namespace wb
