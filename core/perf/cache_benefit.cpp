#include "core/perf/cache_benefit.h"

#include "core/perf/bench_result.h"

namespace ssdk::perf {

namespace {

constexpr const char* kSequential = "SEQ1M Q8T1";
constexpr const char* kRandom = "RND4K Q1T1";

Json sideJson(const BenefitFigures& figures) {
    return Json{{"seq_read_bytes_per_s", figures.seqReadBytesPerS},
                {"seq_write_bytes_per_s", figures.seqWriteBytesPerS},
                {"rnd_read_iops", figures.rndReadIops},
                {"rnd_write_iops", figures.rndWriteIops}};
}

BenefitFigures sideFromJson(const Json& json) {
    return BenefitFigures{json.at("seq_read_bytes_per_s").get<double>(),
                          json.at("seq_write_bytes_per_s").get<double>(),
                          json.at("rnd_read_iops").get<double>(),
                          json.at("rnd_write_iops").get<double>()};
}

} // namespace

std::vector<FioJob> cacheBenefitJobs(Bytes size, unsigned secondsEach) {
    auto jobs = cdmJobs(size, 1, secondsEach);
    std::erase_if(jobs, [](const FioJob& job) {
        const auto key = cdmKeyOf(job.name);
        return !key || (key->test != kSequential && key->test != kRandom);
    });
    return jobs;
}

BenefitFigures benefitFiguresOf(const FioOutput& output) {
    BenefitFigures figures;
    for (const auto& row : summarizeCdm(output, CdmPick::Best)) {
        if (row.test == kSequential) {
            figures.seqReadBytesPerS = row.readBytesPerS;
            figures.seqWriteBytesPerS = row.writeBytesPerS;
        } else if (row.test == kRandom) {
            figures.rndReadIops = row.readIops;
            figures.rndWriteIops = row.writeIops;
        }
    }
    return figures;
}

Json toJson(const CacheBenefit& benefit) {
    return Json{{"version", 1},
                {"partition", benefit.partition},
                {"mount_point", benefit.mountPoint},
                {"settings",
                 {{"backend", benefit.settings.backend},
                  {"size", benefit.settings.cacheBytes},
                  {"compression", benefit.settings.compression},
                  {"mode", benefit.settings.mode}}},
                {"test_file_bytes", benefit.testFileBytes},
                {"seconds_each", benefit.secondsEach},
                {"measured", benefit.measuredS},
                {"without", sideJson(benefit.without)},
                {"with", sideJson(benefit.with)}};
}

Expected<CacheBenefit> cacheBenefitFromJson(const Json& json) {
    try {
        if (!json.is_object() || json.value("version", 0) != 1) {
            return fail(ErrorCode::Parse, "not a saved cache comparison (version 1)");
        }
        CacheBenefit benefit;
        benefit.partition = json.at("partition").get<std::string>();
        benefit.mountPoint = json.at("mount_point").get<std::string>();
        const Json& settings = json.at("settings");
        benefit.settings.backend = settings.at("backend").get<std::string>();
        benefit.settings.cacheBytes = settings.at("size").get<std::uint64_t>();
        benefit.settings.compression = settings.at("compression").get<std::string>();
        benefit.settings.mode = settings.at("mode").get<std::string>();
        benefit.testFileBytes = json.at("test_file_bytes").get<std::uint64_t>();
        benefit.secondsEach = json.at("seconds_each").get<unsigned>();
        benefit.measuredS = json.at("measured").get<std::int64_t>();
        benefit.without = sideFromJson(json.at("without"));
        benefit.with = sideFromJson(json.at("with"));
        return benefit;
    } catch (const nlohmann::json::exception& error) {
        return fail(ErrorCode::Parse, std::string("saved cache comparison: ") + error.what());
    }
}

} // namespace ssdk::perf
