// `ssdkeeperctl cache status` through the real helper on this machine: every backend is
// reported, and a backend whose kernel module is missing says exactly which one and why, with
// modprobe's own words (this host has no device-mapper, nbd or bcache; the lab VM has them).
#include <filesystem>
#include <sys/utsname.h>

#include "tests/support/run_tool.h"

using ssdk::Json;
using ssdk::test::runCtl;
using ssdk::test::stdoutJson;

namespace {

// What the backend must say about a module, computed here independently; empty when present.
std::string expectedModuleReason(const std::string& module) {
    if (std::filesystem::exists("/sys/module/" + module)) {
        return "";
    }
    ssdk::SystemProcessRunner runner;
    auto quiet = runner.run({.argv = {"modprobe", "-n", "-q", module}});
    REQUIRE(quiet);
    if (quiet->succeeded()) {
        return "";
    }
    auto verbose =
        runner.run({.argv = {"modprobe", "-n", module}, .environment = {{"LC_ALL", "C"}}});
    REQUIRE(verbose);
    std::string why = verbose->standardError.substr(0, verbose->standardError.find('\n'));
    struct utsname name {};
    ::uname(&name);
    return "kernel module " + module + " is not available on kernel " + name.release +
           (why.empty() ? "" : " (" + why + ")");
}

const Json& backendNamed(const Json& status, const std::string& name) {
    for (const auto& backend : status["backends"]) {
        if (backend["name"] == name) {
            return backend;
        }
    }
    FAIL("no backend " << name << " in " << status.dump());
    throw std::logic_error("unreachable");
}

} // namespace

TEST_CASE("cache status names every backend and the exact reason one cannot run",
          "[integration][cache]") {
    const auto result = runCtl({"cache", "status", "--json"});
    INFO(result.standardOutput << result.standardError);
    REQUIRE(result.exitCode == 0);
    const Json status = stdoutJson(result);
    CHECK(status["ram"]["total_bytes"].get<std::uint64_t>() > 0);
    CHECK(status["caches"].is_array());

    const std::string dm = expectedModuleReason("dm_mod");
    const auto& zram = backendNamed(status, "zram-writecache");
    if (dm.empty()) {
        WARN("device-mapper is available here; only the reason format is checked");
    } else {
        CHECK(zram["probe"]["available"] == false);
        CHECK_THAT(zram["probe"]["reason"].get<std::string>(), Catch::Contains(dm));
        CHECK(backendNamed(status, "ssd-cache")["probe"]["available"] == false);
    }
    const std::string nbd = expectedModuleReason("nbd");
    const auto& engine = backendNamed(status, "engine");
    if (!nbd.empty()) {
        CHECK(engine["probe"]["available"] == false);
        CHECK_THAT(engine["probe"]["reason"].get<std::string>(), Catch::Contains(nbd));
    }
    const std::string bcache = expectedModuleReason("bcache");
    if (!bcache.empty()) {
        CHECK_THAT(backendNamed(status, "bcache")["probe"]["reason"].get<std::string>(),
                   Catch::Contains(bcache));
    }

    // The text output carries the same reasons.
    const auto text = runCtl({"cache", "status"});
    REQUIRE(text.exitCode == 0);
    CHECK_THAT(text.standardOutput, Catch::Contains("zram-writecache"));
    if (!dm.empty()) {
        CHECK_THAT(text.standardOutput, Catch::Contains("unavailable: "));
        CHECK_THAT(text.standardOutput, Catch::Contains(dm));
    }
}
