#include "core/perf/fio_result.h"

#include <charconv>

namespace ssdk::perf {

namespace {

std::uint64_t u64(const Json& object, const char* key) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number()) {
        return 0;
    }
    if (it->is_number_unsigned()) {
        return it->get<std::uint64_t>();
    }
    const double value = it->get<double>();
    return value > 0 ? static_cast<std::uint64_t>(value) : 0;
}

double number(const Json& object, const char* key) {
    const auto it = object.find(key);
    return it != object.end() && it->is_number() ? it->get<double>() : 0.0;
}

FioDirection direction(const Json& job, const char* key) {
    FioDirection out;
    const auto it = job.find(key);
    if (it == job.end() || !it->is_object()) {
        return out;
    }
    const Json& d = *it;
    out.ioBytes = u64(d, "io_bytes");
    out.ios = u64(d, "total_ios");
    out.bwBytesPerS = number(d, "bw_bytes");
    out.iops = number(d, "iops");
    out.runtimeMs = u64(d, "runtime");
    if (const auto lat = d.find("lat_ns"); lat != d.end() && lat->is_object()) {
        out.latMeanUs = number(*lat, "mean") / 1000.0;
    }
    if (const auto clat = d.find("clat_ns"); clat != d.end() && clat->is_object()) {
        if (const auto pct = clat->find("percentile"); pct != clat->end() && pct->is_object()) {
            out.clatP99Us = number(*pct, "99.000000") / 1000.0;
        }
    }
    return out;
}

} // namespace

Expected<FioOutput> parseFioOutput(std::string_view text) {
    const auto start = text.find('{');
    if (start == std::string_view::npos) {
        return fail(ErrorCode::Parse, "fio printed no JSON document");
    }
    auto json = parseJson(text.substr(start), "fio output");
    if (!json) {
        return std::unexpected(json.error());
    }
    if (!json->is_object() || !json->contains("jobs") || !(*json)["jobs"].is_array()) {
        return fail(ErrorCode::Parse, "fio output has no \"jobs\" array");
    }
    FioOutput out;
    out.version = json->value("fio version", std::string());
    out.timestampS = json->value("timestamp", std::int64_t{0});
    for (const auto& job : (*json)["jobs"]) {
        if (!job.is_object()) {
            return fail(ErrorCode::Parse, "fio output has a job that is not an object");
        }
        FioJobResult result;
        result.name = job.value("jobname", std::string());
        result.error = job.value("error", 0);
        result.read = direction(job, "read");
        result.write = direction(job, "write");
        result.jobRuntimeMs = u64(job, "job_runtime");
        if (const auto options = job.find("job options"); options != job.end()) {
            result.options = *options;
        }
        out.jobs.push_back(std::move(result));
    }
    return out;
}

Expected<std::vector<FioLogEntry>> parseFioLog(std::string_view text) {
    std::vector<FioLogEntry> entries;
    std::size_t lineNumber = 0;
    while (!text.empty()) {
        const auto newline = text.find('\n');
        std::string_view line = text.substr(0, newline);
        text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
        ++lineNumber;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
            continue;
        }
        std::uint64_t fields[3] = {};
        std::size_t pos = 0;
        for (int i = 0; i < 3; ++i) {
            while (pos < line.size() && (line[pos] == ' ' || line[pos] == ',')) {
                ++pos;
            }
            const auto [end, ec] =
                std::from_chars(line.data() + pos, line.data() + line.size(), fields[i]);
            if (ec != std::errc()) {
                return fail(ErrorCode::Parse,
                            "fio log line " + std::to_string(lineNumber) + " is malformed");
            }
            pos = static_cast<std::size_t>(end - line.data());
        }
        entries.push_back({fields[0], fields[1], static_cast<int>(fields[2])});
    }
    return entries;
}

} // namespace ssdk::perf
