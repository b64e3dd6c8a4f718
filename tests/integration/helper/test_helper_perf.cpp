// perf.bench through the real ssdkeeper-helper (root, no pkexec) on a lab drive: refusals,
// a short CrystalDiskMark run with live progress, and a cancel that stops fio.
#include <chrono>
#include <fstream>
#include <future>
#include <sstream>

#include "core/base/bytes.h"
#include "core/device/discovery.h"
#include "core/maintenance/erase/guards.h"
#include "core/perf/bench_result.h"
#include "core/rpc/client.h"
#include "tests/integration/lab/lab_scratch.h"

using namespace ssdk;
using namespace ssdk::test;
namespace fs = std::filesystem;

namespace {

rpc::HelperClient helperClient() {
    ::unsetenv("SSDK_HELPER");
    auto location = rpc::locateHelper();
    REQUIRE_FALSE(location.usePkexec);
    return rpc::HelperClient(location);
}

std::string confirmationOf(const std::string& device) {
    const SysfsRoot root;
    const device::Discovery discovery(root, device::makeSystemFsProber(root));
    auto found = discovery.find(device);
    REQUIRE(found);
    return maintenance::erase::confirmationWord(*found);
}

// fio processes writing to `device` (their command line names it).
int fioProcessesOn(const std::string& device) {
    int count = 0;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        std::ifstream in(entry.path() / "cmdline");
        std::stringstream content;
        content << in.rdbuf();
        const std::string cmdline = content.str();
        const std::string argv0 = cmdline.substr(0, cmdline.find('\0'));
        if (fs::path(argv0).filename() == "fio" &&
            cmdline.find("--filename=" + device) != std::string::npos) {
            ++count;
        }
    }
    return count;
}

} // namespace

TEST_CASE("perf.bench benchmarks an unmounted lab drive, refuses a mounted one, and cancels",
          "[helper][perf]") {
    if (findExecutable("fio").empty()) {
        FAIL("fio is not installed (scripts/setup installs it)");
    }
    const ScratchState scratch;
    auto client = helperClient();
    const auto created = client.call(
        "lab.create",
        Json{{"name", "itest-bench"}, {"size", Bytes::mib(64).value}, {"layout", "gpt-ext4"}});
    REQUIRE(created);
    const std::string device = (*created)["device"];
    const std::string confirm = confirmationOf(device);
    Json args{{"device", device},
              {"preset", "cdm"},
              {"confirm", confirm},
              {"size", Bytes::mib(16).value},
              {"duration_s", 1}};

    {
        MountGuard mount(device + "p1", scratch.dir() / "mnt");
        const auto refused = client.call("perf.bench", args);
        REQUIRE_FALSE(refused);
        CHECK(refused.error().code() == ErrorCode::Busy);
        CHECK_THAT(refused.error().message(), Catch::Contains("unmount it first"));
        mount.unmount();
    }
    Json partition = args;
    partition["device"] = device + "p1";
    const auto onPartition = client.call("perf.bench", partition);
    REQUIRE_FALSE(onPartition);
    CHECK_THAT(onPartition.error().message(), Catch::Contains("whole drive"));
    Json unconfirmed = args;
    unconfirmed.erase("confirm");
    const auto notConfirmed = client.call("perf.bench", unconfirmed);
    REQUIRE_FALSE(notConfirmed);
    CHECK(notConfirmed.error().code() == ErrorCode::InvalidArgument);
    CHECK(probeType(device + "p1") == "ext4"); // nothing was written by the refusals

    std::vector<Json> progress;
    const auto benched = client.call("perf.bench", args, [&](const rpc::Event& event) {
        if (event.name == "progress") {
            progress.push_back(event.data);
        }
    });
    REQUIRE(benched);
    auto result = perf::benchResultFromJson(*benched);
    REQUIRE(result);
    CHECK(result->preset == "cdm");
    CHECK(result->target == device);
    CHECK(result->device["path"] == device);
    CHECK(result->run.output.jobs.size() == 8);
    REQUIRE((*benched)["analysis"]["cdm"].size() == 4);
    for (const auto& row : (*benched)["analysis"]["cdm"]) {
        CHECK(row["read_bytes_per_s"].get<double>() > 0);
        CHECK(row["write_bytes_per_s"].get<double>() > 0);
    }
    REQUIRE_FALSE(progress.empty());
    CHECK(std::ranges::any_of(progress, [](const Json& data) {
        return data["write_bytes_per_s"].get<double>() + data["read_bytes_per_s"].get<double>() > 0;
    }));

    // A consistency run of a minute, cancelled once fio is writing.
    Json longRun = args;
    longRun["preset"] = "consistency";
    longRun["duration_s"] = 60;
    std::promise<void> running;
    auto started = running.get_future();
    bool signalled = false;
    const auto begin = std::chrono::steady_clock::now();
    auto cancelled = std::async(std::launch::async, [&] {
        return client.call("perf.bench", longRun, [&](const rpc::Event&) {
            if (!signalled) {
                signalled = true;
                running.set_value();
            }
        });
    });
    REQUIRE(started.wait_for(std::chrono::seconds(20)) == std::future_status::ready);
    CHECK(fioProcessesOn(device) >= 1);
    client.cancel();
    const auto answer = cancelled.get();
    const auto took = std::chrono::steady_clock::now() - begin;
    REQUIRE_FALSE(answer);
    CHECK(answer.error().code() == ErrorCode::Cancelled);
    CHECK(took < std::chrono::seconds(20));
    CHECK(fioProcessesOn(device) == 0);
    // The helper goes on serving after the cancel.
    REQUIRE(client.call("lab.destroy", Json{{"name_or_device", device}}));
    CHECK_FALSE(loopAttached(device));
}
