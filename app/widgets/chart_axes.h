#pragma once
// Axis ticks people read at a glance: steps of 1, 2 or 5 × 10^k (0, 10, 20, 30 rather
// than 0, 13, 25, 38), for the live graph and the benchmark charts.

class QValueAxis;

namespace ssdk::app {

// The smallest step of 1, 2 or 5 × 10^k that splits `span` into at most `maxIntervals`.
double niceTickStep(double span, int maxIntervals);

// Sets the axis to [min, max] widened outward to whole steps, with a tick at every step
// (anchored at 0) and labels with as many decimals as the step needs.
void setNiceRange(QValueAxis& axis, double min, double max, int maxIntervals = 5);

// Keeps the range [min, max] as it is and puts ticks at the multiples of `step` inside it
// (a sliding time window: ticks at every 10 s, not at its odd start).
void setTicksEvery(QValueAxis& axis, double min, double max, double step);

} // namespace ssdk::app
