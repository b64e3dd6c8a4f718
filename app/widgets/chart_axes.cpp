#include "app/widgets/chart_axes.h"

#include <algorithm>
#include <cmath>

#include <QValueAxis>

namespace ssdk::app {

namespace {
QString labelFormatFor(double step) {
    const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
    return QStringLiteral("%.%1f").arg(std::clamp(decimals, 0, 6));
}
} // namespace

double niceTickStep(double span, int maxIntervals) {
    if (!(span > 0) || maxIntervals < 1) {
        return 1;
    }
    const double rough = span / maxIntervals;
    const double power = std::pow(10.0, std::floor(std::log10(rough)));
    for (const double multiple : {1.0, 2.0, 5.0}) {
        if (multiple * power >= rough * (1 - 1e-9)) {
            return multiple * power;
        }
    }
    return 10 * power;
}

void setNiceRange(QValueAxis& axis, double min, double max, int maxIntervals) {
    if (max <= min) {
        max = min + 1;
    }
    const double step = niceTickStep(max - min, maxIntervals);
    const double low = std::floor(min / step + 1e-9) * step;
    const double high = std::ceil(max / step - 1e-9) * step;
    axis.setRange(low, high);
    setTicksEvery(axis, low, high, step);
}

void setTicksEvery(QValueAxis& axis, double min, double max, double step) {
    axis.setRange(min, max);
    axis.setTickType(QValueAxis::TicksDynamic);
    axis.setTickAnchor(0);
    axis.setTickInterval(step);
    axis.setLabelFormat(labelFormatFor(step));
}

} // namespace ssdk::app
