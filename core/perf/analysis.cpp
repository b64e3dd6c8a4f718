#include "core/perf/analysis.h"

#include <algorithm>
#include <cmath>

namespace ssdk::perf {

namespace {

double median(std::vector<double> values) {
    if (values.empty()) {
        return 0;
    }
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

struct WindowCheck {
    double mean = 0, range = 0, slopeExcursion = 0;
    bool rangeOk = false, slopeOk = false;
};

WindowCheck checkWindow(std::span<const double> w) {
    WindowCheck check;
    const auto n = static_cast<double>(w.size());
    double sumX = 0, sumY = 0, sumXY = 0, sumXX = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
        const auto x = static_cast<double>(i);
        sumX += x;
        sumY += w[i];
        sumXY += x * w[i];
        sumXX += x * x;
    }
    check.mean = sumY / n;
    const auto [lo, hi] = std::minmax_element(w.begin(), w.end());
    check.range = *hi - *lo;
    const double denominator = n * sumXX - sumX * sumX;
    const double slope = denominator == 0 ? 0 : (n * sumXY - sumX * sumY) / denominator;
    check.slopeExcursion = std::abs(slope) * (n - 1);
    check.rangeOk = check.range <= 0.20 * std::abs(check.mean);
    check.slopeOk = check.slopeExcursion <= 0.10 * std::abs(check.mean);
    return check;
}

} // namespace

SteadyState steadyState(std::span<const double> rounds, std::size_t window) {
    SteadyState state;
    if (window < 2 || rounds.size() < window) {
        return state;
    }
    for (std::size_t end = window; end <= rounds.size(); ++end) {
        const auto check = checkWindow(rounds.subspan(end - window, window));
        if (check.rangeOk && check.slopeOk && !state.firstSteadyRound) {
            state.firstSteadyRound = end - 1;
        }
    }
    const auto last = checkWindow(rounds.subspan(rounds.size() - window, window));
    state.mean = last.mean;
    state.range = last.range;
    state.slopeExcursion = last.slopeExcursion;
    state.rangeOk = last.rangeOk;
    state.slopeOk = last.slopeOk;
    state.reached = last.rangeOk && last.slopeOk;
    return state;
}

std::vector<double> roundsOf(std::span<const double> values, std::size_t perRound) {
    std::vector<double> rounds;
    if (perRound == 0) {
        return rounds;
    }
    for (std::size_t start = 0; start + perRound <= values.size(); start += perRound) {
        double sum = 0;
        for (std::size_t i = start; i < start + perRound; ++i) {
            sum += values[i];
        }
        rounds.push_back(sum / static_cast<double>(perRound));
    }
    return rounds;
}

SlcCache detectSlcCache(std::span<const RateSample> samples) {
    SlcCache out;
    for (const auto& s : samples) {
        out.totalBytes += s.bytesPerS * s.intervalS;
    }
    if (samples.empty()) {
        return out;
    }
    // Burst: median of the first quarter (at least the first 3 samples).
    const std::size_t head = std::max<std::size_t>(3, samples.size() / 4);
    std::vector<double> first;
    for (std::size_t i = 0; i < std::min(head, samples.size()); ++i) {
        first.push_back(samples[i].bytesPerS);
    }
    double burst = median(first);
    std::vector<double> all;
    for (const auto& s : samples) {
        all.push_back(s.bytesPerS);
    }
    const double threshold = 0.7 * burst;
    std::optional<std::size_t> drop;
    for (std::size_t i = 1; i < samples.size(); ++i) {
        if (samples[i].bytesPerS >= threshold) {
            continue;
        }
        std::vector<double> rest(all.begin() + static_cast<std::ptrdiff_t>(i), all.end());
        if (median(rest) < threshold) {
            drop = i;
            break;
        }
    }
    if (!drop) {
        out.burstBytesPerS = median(all);
        return out;
    }
    // The sample at the drop may still contain some burst-speed writing; so may the one
    // before it. The rest before it ran at burst speed.
    std::vector<double> before(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(*drop));
    burst = median(before);
    std::vector<double> after(all.begin() + static_cast<std::ptrdiff_t>(*drop) + 1, all.end());
    const double post = after.empty() ? samples[*drop].bytesPerS : median(after);
    out.dropFound = true;
    out.burstBytesPerS = burst;
    out.postCacheBytesPerS = post;
    double cache = 0;
    bool dropTimeSet = false;
    for (std::size_t i = 0; i <= *drop; ++i) {
        const auto& s = samples[i];
        if (i + 1 < *drop) {
            cache += s.bytesPerS * s.intervalS;
            continue;
        }
        // Straddling sample: v·dt = b·t + p·(dt − t) → time at burst speed t.
        const double fraction =
            burst > post ? std::clamp((s.bytesPerS - post) / (burst - post), 0.0, 1.0) : 0.0;
        cache += burst * fraction * s.intervalS;
        if (!dropTimeSet && (i == *drop || fraction < 1.0)) {
            dropTimeSet = true;
            out.dropTimeS = s.timeS - s.intervalS + fraction * s.intervalS;
        }
    }
    out.cacheBytes = cache;
    return out;
}

std::optional<double> smallestRecoveringGap(std::span<const DrainPoint> points,
                                            double burstBytesPerS) {
    if (burstBytesPerS <= 0) {
        return std::nullopt;
    }
    for (const auto& point : points) {
        if (point.bytesPerS >= 0.9 * burstBytesPerS) {
            return point.gapS;
        }
    }
    return std::nullopt;
}

} // namespace ssdk::perf
