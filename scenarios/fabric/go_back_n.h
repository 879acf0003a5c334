#pragma once
// What a loss costs a go-back-N sender (the RC transport of IB and RoCE NICs, Guo et al.,
// SIGCOMM '16 as cited in FACTS.md §14): the one place the prediction is written, so the
// scenario's chart, the tests and the simulation's checks all use the same formula.
namespace wb {

// Packets a sender at line rate resends per lost packet: the lost one plus everything it sent
// while the next packet reached the receiver and the NAK came back, one round trip of
// `roundTripSlots` packet times.
double goBackNResentPerLoss(int roundTripSlots);

// Goodput ÷ line rate for one uncongested sender with independent per-packet loss `dropRate`
// (in [0, 1)): a delivered packet costs on average 1 + w·p/(1 − p) packet times, w the packets
// resent per loss, so the fraction is 1 / (1 + w·p/(1 − p)).
double goBackNGoodputFraction(double dropRate, double resentPerLoss);

} // namespace wb
