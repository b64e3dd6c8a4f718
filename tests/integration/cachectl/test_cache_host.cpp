// `ssdkeeperctl cache status` through the real helper on this machine, held against what the
// test finds out about the machine by itself: a backend is available exactly when every kernel
// module and tool it needs is here, a missing one is named in its reason (modules missing from
// the kernel once, "kernel modules … are not available on kernel R", without modprobe's line
// for each), and one that is here is not blamed. On the build host nbd,
// device-mapper and bcache are missing while zram is built in; in the lab VM all are present.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/utsname.h>
#include <unistd.h>

#include "tests/support/run_tool.h"

using ssdk::Json;
using ssdk::test::runCtl;
using ssdk::test::stdoutJson;

namespace {

std::string kernelRelease() {
    struct utsname name {};
    REQUIRE(::uname(&name) == 0);
    return name.release;
}

// "kernel/drivers/md/dm-cache.ko.xz: ..." -> "dm_cache" (sysfs spells modules with '_').
std::string moduleNameOf(const std::string& line) {
    const std::string path = line.substr(0, line.find(':'));
    std::string name = std::filesystem::path(path).filename().string();
    name = name.substr(0, name.find(".ko"));
    std::ranges::replace(name, '-', '_');
    return name;
}

bool listedIn(const std::filesystem::path& file, const std::string& module) {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        if (line.find(".ko") != std::string::npos && moduleNameOf(line) == module) {
            return true;
        }
    }
    return false;
}

// Whether the running kernel has the module: loaded (/sys/module, /proc/modules), built in or
// installed for it (modules.builtin, modules.dep). Read from the kernel's and depmod's own
// records, not by asking modprobe as the product does.
bool kernelHasModule(const std::string& module) {
    if (std::filesystem::exists("/sys/module/" + module)) {
        return true;
    }
    std::ifstream loaded("/proc/modules");
    std::string line;
    while (std::getline(loaded, line)) {
        if (line.starts_with(module + " ")) {
            return true;
        }
    }
    const std::filesystem::path modules = "/lib/modules/" + kernelRelease();
    return listedIn(modules / "modules.builtin", module) ||
           listedIn(modules / "modules.dep", module);
}

// The helper looks for tools on its PATH and in the sbin directories.
bool toolInstalled(const std::string& tool) {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(std::string(path != nullptr ? path : "") +
                           ":/usr/local/sbin:/usr/sbin:/sbin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        if (!dir.empty() && ::access((std::filesystem::path(dir) / tool).c_str(), X_OK) == 0) {
            return true;
        }
    }
    return false;
}

// What a missing module's reason says: when modprobe finds no such module for this kernel,
// the module is listed in "kernel module(s) … not available on kernel 6.18.44"; otherwise its
// reason carries modprobe's own words.
std::string missingModuleReason(const std::string& module) {
    ssdk::SystemProcessRunner runner;
    auto verbose =
        runner.run({.argv = {"modprobe", "-n", module}, .environment = {{"LC_ALL", "C"}}});
    if (!verbose) {
        return "kernel module " + module + " is not loaded and modprobe is not installed";
    }
    const std::string why = verbose->standardError.substr(0, verbose->standardError.find('\n'));
    if (why.empty() || why.find("not found in directory") != std::string::npos) {
        return " not available on kernel " + kernelRelease();
    }
    return "kernel module " + module + " cannot be loaded (" + why + ")";
}

// One thing a backend needs, whether it is here, and the words that name it in a reason.
struct Need {
    std::string what;
    bool present = false;
    std::string reasonWhenMissing;
    std::string namedAs; // any reason about it has this as a whole word
};

Need module(const std::string& name, bool alsoPresent = false) {
    const bool present = alsoPresent || kernelHasModule(name);
    return {"kernel module " + name, present, present ? "" : missingModuleReason(name), name};
}

Need tool(const std::string& name) {
    return {name, toolInstalled(name), name + " is not installed", name + " is not installed"};
}

// word stands in text on its own: "dm_cache" is not named by "dm_cache_smq".
bool namesWord(const std::string& text, const std::string& word) {
    auto isWordChar = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
        const bool startsWord = at == 0 || !isWordChar(text[at - 1]);
        const auto end = at + word.size();
        if (startsWord && (end == text.size() || !isWordChar(text[end]))) {
            return true;
        }
    }
    return false;
}

std::vector<Need> deviceMapperNeeds() {
    return {module("dm_mod"), module("dm_cache"), module("dm_cache_smq"), tool("dmsetup")};
}

// Every backend with what it needs, found out here.
std::map<std::string, std::vector<Need>> backendNeeds() {
    const auto daemon = std::filesystem::path(SSDK_BINARY_DIR) / "bin" / "ssdkeeper-cached";
    std::map<std::string, std::vector<Need>> needs;
    needs["engine"] = {module("nbd"),
                       tool("nbd-client"),
                       {"ssdkeeper-cached", ::access(daemon.c_str(), X_OK) == 0, "ssdkeeper-cached",
                        "ssdkeeper-cached"}};
    // zram built in without module parameters has no /sys/module entry, only its control.
    needs["zram-writecache"] = deviceMapperNeeds();
    needs["zram-writecache"].push_back(
        module("zram", std::filesystem::exists("/sys/class/zram-control/hot_add")));
    needs["bcache"] = {module("bcache", std::filesystem::exists("/sys/fs/bcache")),
                       tool("make-bcache")};
    needs["ssd-cache"] = deviceMapperNeeds();
    return needs;
}

// The backend's line of the text output: "  engine           unavailable: kernel module …".
std::string textLineOf(const std::string& text, const std::string& name) {
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.starts_with("  " + name + " ")) {
            return line;
        }
    }
    FAIL("no line for backend " << name << " in\n" << text);
    throw std::logic_error("unreachable");
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
    const auto text = runCtl({"cache", "status"});
    REQUIRE(text.exitCode == 0);

    const auto needs = backendNeeds();
    CHECK(status["backends"].size() == needs.size());
    for (const auto& [name, backendNeeds] : needs) {
        const Json& probe = backendNamed(status, name)["probe"];
        const std::string reason = probe["reason"].get<std::string>();
        const std::string line = textLineOf(text.standardOutput, name);
        const bool allPresent =
            std::ranges::all_of(backendNeeds, [](const Need& need) { return need.present; });
        INFO("backend " << name << ": " << probe.dump());
        CHECK(probe["available"] == allPresent);
        CHECK(probe["reasons"].empty() == allPresent);
        CHECK(reason.empty() == allPresent);
        CHECK_THAT(line, Catch::EndsWith(allPresent ? " available" : "unavailable: " + reason));
        for (const Need& need : backendNeeds) {
            INFO(need.what << (need.present ? " is here" : " is missing"));
            if (need.present) {
                CHECK_FALSE(namesWord(reason, need.namedAs));
            } else {
                CHECK(namesWord(reason, need.namedAs));
                CHECK_THAT(reason, Catch::Contains(need.reasonWhenMissing));
            }
        }
    }
}
