#include "core/perf/bench_result.h"

#include <algorithm>
#include <fmt/format.h>
#include <sys/utsname.h>

namespace ssdk::perf {

namespace {

Json directionJson(const FioDirection& d) {
    return Json{{"io_bytes", d.ioBytes},     {"ios", d.ios},
                {"bw_bytes", d.bwBytesPerS}, {"iops", d.iops},
                {"runtime_ms", d.runtimeMs}, {"lat_mean_us", d.latMeanUs},
                {"clat_p99_us", d.clatP99Us}};
}

FioDirection directionFrom(const Json& j) {
    FioDirection d;
    d.ioBytes = j.value("io_bytes", std::uint64_t{0});
    d.ios = j.value("ios", std::uint64_t{0});
    d.bwBytesPerS = j.value("bw_bytes", 0.0);
    d.iops = j.value("iops", 0.0);
    d.runtimeMs = j.value("runtime_ms", std::uint64_t{0});
    d.latMeanUs = j.value("lat_mean_us", 0.0);
    d.clatP99Us = j.value("clat_p99_us", 0.0);
    return d;
}

} // namespace

Json toJson(const BenchResult& result) {
    Json jobs = Json::array();
    for (const auto& job : result.run.output.jobs) {
        jobs.push_back(Json{{"name", job.name},
                            {"error", job.error},
                            {"job_runtime_ms", job.jobRuntimeMs},
                            {"options", job.options},
                            {"read", directionJson(job.read)},
                            {"write", directionJson(job.write)}});
    }
    Json logs = Json::object();
    for (const auto& [name, entries] : result.run.logs) {
        Json rows = Json::array();
        for (const auto& e : entries) {
            rows.push_back(Json::array({e.timeMs, e.value, e.direction}));
        }
        logs[name] = std::move(rows);
    }
    return Json{{"version", 1},
                {"preset", result.preset},
                {"target", result.target},
                {"device", result.device},
                {"machine", result.machine},
                {"created", result.createdS},
                {"parameters", result.parameters},
                {"fio",
                 {{"version", result.run.output.version},
                  {"argv", result.run.argv},
                  {"jobs", std::move(jobs)}}},
                {"logs", std::move(logs)}};
}

Expected<BenchResult> benchResultFromJson(const Json& json) {
    try {
        if (!json.is_object() || json.value("version", 0) != 1 || !json.contains("fio")) {
            return fail(ErrorCode::Parse, "not an SSD Keeper benchmark result (version 1)");
        }
        BenchResult result;
        result.preset = json.value("preset", std::string());
        result.target = json.value("target", std::string());
        result.device = json.value("device", Json());
        result.machine = json.value("machine", Json());
        result.createdS = json.value("created", std::int64_t{0});
        result.parameters = json.value("parameters", Json::object());
        if (!result.parameters.is_object()) {
            return fail(ErrorCode::Parse, "benchmark result parameters are not an object");
        }
        const Json& fio = json.at("fio");
        result.run.output.version = fio.value("version", std::string());
        result.run.argv = fio.value("argv", std::vector<std::string>());
        for (const auto& job : fio.at("jobs")) {
            FioJobResult r;
            r.name = job.value("name", std::string());
            r.error = job.value("error", 0);
            r.jobRuntimeMs = job.value("job_runtime_ms", std::uint64_t{0});
            r.options = job.value("options", Json());
            r.read = directionFrom(job.value("read", Json::object()));
            r.write = directionFrom(job.value("write", Json::object()));
            result.run.output.jobs.push_back(std::move(r));
        }
        const Json logs = json.value("logs", Json::object());
        for (const auto& [name, rows] : logs.items()) {
            auto& entries = result.run.logs[name];
            for (const auto& row : rows) {
                entries.push_back({row.at(0).get<std::uint64_t>(), row.at(1).get<std::uint64_t>(),
                                   row.at(2).get<int>()});
            }
        }
        return result;
    } catch (const Json::exception& error) {
        return fail(ErrorCode::Parse, std::string("malformed benchmark result: ") + error.what());
    }
}

Json describeMachine() {
    struct utsname names {};
    if (::uname(&names) != 0) {
        return Json::object();
    }
    return Json{{"hostname", names.nodename}, {"kernel", names.release}, {"arch", names.machine}};
}

std::vector<CdmRow> summarizeCdm(const FioOutput& output, CdmPick pick) {
    std::vector<CdmRow> rows;
    std::vector<int> readCount, writeCount;
    for (const auto& job : output.jobs) {
        const auto key = cdmKeyOf(job.name);
        if (!key) {
            continue;
        }
        auto it = std::find_if(rows.begin(), rows.end(),
                               [&](const CdmRow& row) { return row.test == key->test; });
        if (it == rows.end()) {
            rows.push_back(CdmRow{key->test});
            readCount.push_back(0);
            writeCount.push_back(0);
            it = rows.end() - 1;
        }
        const auto index = static_cast<std::size_t>(it - rows.begin());
        const FioDirection& d = key->write ? job.write : job.read;
        double& bw = key->write ? it->writeBytesPerS : it->readBytesPerS;
        double& iops = key->write ? it->writeIops : it->readIops;
        double& lat = key->write ? it->writeLatUs : it->readLatUs;
        int& count = key->write ? writeCount[index] : readCount[index];
        if (pick == CdmPick::Best) {
            if (d.bwBytesPerS > bw) {
                bw = d.bwBytesPerS;
                iops = d.iops;
                lat = d.latMeanUs;
            }
        } else {
            bw = (bw * count + d.bwBytesPerS) / (count + 1);
            iops = (iops * count + d.iops) / (count + 1);
            lat = (lat * count + d.latMeanUs) / (count + 1);
        }
        ++count;
    }
    return rows;
}

std::string cdmPickName(CdmPick pick) {
    return pick == CdmPick::Average ? "average" : "best";
}

std::optional<CdmPick> cdmPickFromName(std::string_view name) {
    if (name == "best") {
        return CdmPick::Best;
    }
    if (name == "average") {
        return CdmPick::Average;
    }
    return std::nullopt;
}

CdmPick cdmPickOf(const BenchResult& result) {
    const auto pick = result.parameters.find("pick");
    if (pick == result.parameters.end() || !pick->is_string()) {
        return CdmPick::Best;
    }
    return cdmPickFromName(pick->get<std::string>()).value_or(CdmPick::Best);
}

int cdmLoopsOf(const BenchResult& result) {
    const auto loops = result.parameters.find("loops");
    return loops != result.parameters.end() && loops->is_number_integer() && *loops > 0 &&
                   *loops <= 1000
               ? loops->get<int>()
               : 0;
}

std::string jobsCsv(const FioOutput& output) {
    std::string csv =
        "job,read_bytes_per_s,read_iops,read_lat_us,write_bytes_per_s,write_iops,write_lat_us\n";
    for (const auto& job : output.jobs) {
        csv += fmt::format("{},{:.0f},{:.1f},{:.1f},{:.0f},{:.1f},{:.1f}\n", job.name,
                           job.read.bwBytesPerS, job.read.iops, job.read.latMeanUs,
                           job.write.bwBytesPerS, job.write.iops, job.write.latMeanUs);
    }
    return csv;
}

} // namespace ssdk::perf
