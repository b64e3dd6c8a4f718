#include "core/perf/report.h"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>

#include "core/perf/series.h"

namespace ssdk::perf {

namespace {

const FioJobResult* findJob(const BenchResult& result, const std::string& name) {
    const auto& jobs = result.run.output.jobs;
    const auto it = std::ranges::find(jobs, name, &FioJobResult::name);
    return it == jobs.end() ? nullptr : &*it;
}

// Metrics of one fio job worth comparing: the directions it moved data in.
std::vector<std::pair<std::string, double>> jobMetrics(const FioJobResult& job) {
    std::vector<std::pair<std::string, double>> metrics;
    if (job.read.ioBytes > 0) {
        metrics.emplace_back("read_bytes_per_s", job.read.bwBytesPerS);
        metrics.emplace_back("read_iops", job.read.iops);
    }
    if (job.write.ioBytes > 0) {
        metrics.emplace_back("write_bytes_per_s", job.write.bwBytesPerS);
        metrics.emplace_back("write_iops", job.write.iops);
    }
    return metrics;
}

std::vector<CompareRow> analysisMetrics(const BenchResult& result) {
    std::vector<CompareRow> rows;
    const auto add = [&](const char* metric, double value) {
        rows.push_back(CompareRow{"analysis", metric, value, 0});
    };
    if (result.preset == "consistency") {
        const auto report = consistencyReport(result);
        if (report.enoughRounds) {
            add("steady_mean_iops", report.state.mean);
        }
    } else if (result.preset == "slc") {
        const auto report = slcReport(result);
        if (report.cache.dropFound) {
            add("cache_bytes", report.cache.cacheBytes);
            add("post_cache_bytes_per_s", report.cache.postCacheBytesPerS);
        }
        add("burst_bytes_per_s", report.cache.burstBytesPerS);
    } else if (result.preset == "trim-recovery") {
        const auto report = trimRecoveryReport(result);
        if (report.complete) {
            add("recovered_fraction", report.recoveredFraction);
        }
    }
    return rows;
}

} // namespace

ConsistencyReport consistencyReport(const BenchResult& result) {
    ConsistencyReport report;
    const auto round = result.parameters.find("round_s");
    if (round != result.parameters.end() && round->is_number_integer() &&
        round->get<std::int64_t>() > 0) {
        report.roundS = static_cast<unsigned>(round->get<std::int64_t>());
    }
    report.iops = consistencyIops(result);
    report.rounds = roundsOf(report.iops, report.roundS);
    report.enoughRounds = report.rounds.size() >= kSteadyWindowRounds;
    if (report.enoughRounds) {
        report.state = steadyState(report.rounds, kSteadyWindowRounds);
    }
    return report;
}

SlcReport slcReport(const BenchResult& result) {
    SlcReport report;
    report.cache = detectSlcCache(slcProbeSamples(result));
    for (const auto& job : result.run.output.jobs) {
        if (!job.name.starts_with("drain-")) {
            continue;
        }
        char* end = nullptr;
        const double gap = std::strtod(job.name.c_str() + 6, &end);
        if (end != job.name.c_str() + 6) {
            report.drains.push_back({gap, job.write.bwBytesPerS});
        }
    }
    std::ranges::sort(report.drains, {}, &DrainPoint::gapS);
    report.recoveringGapS = smallestRecoveringGap(report.drains, report.cache.burstBytesPerS);
    return report;
}

TrimRecoveryReport trimRecoveryReport(const BenchResult& result) {
    TrimRecoveryReport report;
    const auto* fresh = findJob(result, "fresh");
    const auto* dirty = findJob(result, "dirty");
    const auto* after = findJob(result, "after-trim");
    if (fresh == nullptr || dirty == nullptr || after == nullptr) {
        return report;
    }
    report.complete = true;
    report.freshBytesPerS = fresh->write.bwBytesPerS;
    report.dirtyBytesPerS = dirty->write.bwBytesPerS;
    report.afterTrimBytesPerS = after->write.bwBytesPerS;
    report.recoveredFraction =
        report.freshBytesPerS > 0 ? report.afterTrimBytesPerS / report.freshBytesPerS : 0;
    return report;
}

Json analysisJson(const BenchResult& result) {
    Json out = Json::object();
    if (result.preset == "cdm") {
        Json rows = Json::array();
        const CdmPick pick = cdmPickOf(result);
        out["cdm_pick"] = cdmPickName(pick);
        for (const auto& row : summarizeCdm(result.run.output, pick)) {
            rows.push_back(Json{{"test", row.test},
                                {"read_bytes_per_s", row.readBytesPerS},
                                {"write_bytes_per_s", row.writeBytesPerS},
                                {"read_iops", row.readIops},
                                {"write_iops", row.writeIops}});
        }
        out["cdm"] = rows;
    } else if (result.preset == "consistency") {
        const auto report = consistencyReport(result);
        out["steady_state"] =
            Json{{"round_s", report.roundS},
                 {"rounds", report.rounds},
                 {"enough_rounds", report.enoughRounds},
                 {"reached", report.state.reached},
                 {"mean_iops", report.state.mean},
                 {"range", report.state.range},
                 {"slope_excursion", report.state.slopeExcursion},
                 {"first_steady_round",
                  report.state.firstSteadyRound ? Json(*report.state.firstSteadyRound) : Json()}};
    } else if (result.preset == "slc") {
        const auto report = slcReport(result);
        Json drains = Json::array();
        for (const auto& point : report.drains) {
            drains.push_back(Json{{"gap_s", point.gapS}, {"bytes_per_s", point.bytesPerS}});
        }
        out["slc"] = Json{
            {"drop_found", report.cache.dropFound},
            {"cache_bytes", report.cache.cacheBytes},
            {"burst_bytes_per_s", report.cache.burstBytesPerS},
            {"post_cache_bytes_per_s", report.cache.postCacheBytesPerS},
            {"drop_time_s", report.cache.dropTimeS},
            {"drains", drains},
            {"recovering_gap_s", report.recoveringGapS ? Json(*report.recoveringGapS) : Json()}};
    } else if (result.preset == "trim-recovery") {
        const auto report = trimRecoveryReport(result);
        out["trim_recovery"] = Json{{"complete", report.complete},
                                    {"fresh_bytes_per_s", report.freshBytesPerS},
                                    {"dirty_bytes_per_s", report.dirtyBytesPerS},
                                    {"after_trim_bytes_per_s", report.afterTrimBytesPerS},
                                    {"recovered_fraction", report.recoveredFraction}};
    }
    return out;
}

std::string resultCsv(const BenchResult& result) {
    if (result.preset != "cdm") {
        return jobsCsv(result.run.output);
    }
    std::string csv = "test,read_bytes_per_s,write_bytes_per_s,read_iops,write_iops,read_lat_us,"
                      "write_lat_us\n";
    for (const auto& row : summarizeCdm(result.run.output, cdmPickOf(result))) {
        csv += fmt::format("{},{:.0f},{:.0f},{:.1f},{:.1f},{:.1f},{:.1f}\n", row.test,
                           row.readBytesPerS, row.writeBytesPerS, row.readIops, row.writeIops,
                           row.readLatUs, row.writeLatUs);
    }
    return csv;
}

std::optional<double> CompareRow::deltaPercent() const {
    if (a == 0) {
        return std::nullopt;
    }
    return 100.0 * (b - a) / a;
}

Expected<std::vector<CompareRow>> compareResults(const BenchResult& a, const BenchResult& b) {
    if (a.preset != b.preset) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("cannot compare a '{}' result with a '{}' result; compare runs "
                                "of the same preset",
                                a.preset, b.preset));
    }
    std::vector<CompareRow> rows;
    if (a.preset == "cdm") {
        // Each side as it was summarised when it ran (best or average of its loops).
        const auto rowsB = summarizeCdm(b.run.output, cdmPickOf(b));
        for (const auto& rowA : summarizeCdm(a.run.output, cdmPickOf(a))) {
            const auto it = std::ranges::find(rowsB, rowA.test, &CdmRow::test);
            if (it == rowsB.end()) {
                continue;
            }
            rows.push_back({rowA.test, "read_bytes_per_s", rowA.readBytesPerS, it->readBytesPerS});
            rows.push_back(
                {rowA.test, "write_bytes_per_s", rowA.writeBytesPerS, it->writeBytesPerS});
            rows.push_back({rowA.test, "read_iops", rowA.readIops, it->readIops});
            rows.push_back({rowA.test, "write_iops", rowA.writeIops, it->writeIops});
        }
    } else {
        for (const auto& jobA : a.run.output.jobs) {
            const auto* jobB = findJob(b, jobA.name);
            if (jobB == nullptr) {
                continue;
            }
            const auto metricsB = jobMetrics(*jobB);
            for (const auto& [metric, value] : jobMetrics(jobA)) {
                const auto it =
                    std::ranges::find(metricsB, metric, &std::pair<std::string, double>::first);
                if (it != metricsB.end()) {
                    rows.push_back({jobA.name, metric, value, it->second});
                }
            }
        }
    }
    const auto analysisB = analysisMetrics(b);
    for (auto row : analysisMetrics(a)) {
        const auto it = std::ranges::find(analysisB, row.metric, &CompareRow::metric);
        if (it != analysisB.end()) {
            row.b = it->a;
            rows.push_back(row);
        }
    }
    if (rows.empty()) {
        return fail(ErrorCode::InvalidArgument,
                    "the two results have no test in common to compare");
    }
    return rows;
}

std::string compareCsv(const std::vector<CompareRow>& rows) {
    std::string csv = "test,metric,a,b,delta_percent\n";
    for (const auto& row : rows) {
        const auto delta = row.deltaPercent();
        csv += fmt::format("{},{},{:.6g},{:.6g},{}\n", row.test, row.metric, row.a, row.b,
                           delta ? fmt::format("{:.2f}", *delta) : std::string());
    }
    return csv;
}

} // namespace ssdk::perf
