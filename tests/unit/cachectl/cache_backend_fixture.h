#pragma once
// A scratch machine for backend tests: a directory standing in for / (sys, proc, dev, usr/sbin)
// and a ReplayProcessRunner for the programs.
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "core/base/replay_process_runner.h"
#include "core/cachectl/backend.h"
#include "core/cachectl/host_env.h"

namespace ssdk::cachectl::testing {

constexpr std::uint64_t kMiB = 1024ULL * 1024ULL;

// A 64 MiB LZ4 cache of the lab partition /dev/labx1 as device-mapper target ssdk-labx1.
inline CachePlan labPlan(CacheMode mode = CacheMode::WriteBack) {
    return CachePlan{"/dev/labx1", "ssdk-labx1", 64 * kMiB, Compression::Lz4, mode, ""};
}

struct ScratchHost {
    std::filesystem::path dir;
    ReplayProcessRunner runner;
    HostEnv env;
    int sleeps = 0;

    explicit ScratchHost(const std::string& tag) {
        dir = std::filesystem::temp_directory_path() /
              ("ssdk-cache-" + tag + "-" + std::to_string(::getpid()));
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir / "proc/self");
        std::filesystem::create_directories(dir / "sys/module");
        std::filesystem::create_directories(dir / "usr/sbin");
        file("/proc/modules", "ext4 1 0 - Live 0x0\n");
        file("/proc/self/mountinfo", "");
        env.root = dir;
        env.runner = &runner;
        env.isRoot = true;
        env.kernelRelease = "6.1.0-test";
        env.searchPath = "/usr/sbin";
        env.sleep = [this](std::chrono::milliseconds) { ++sleeps; };
    }
    ~ScratchHost() {
        std::error_code ignored;
        std::filesystem::remove_all(dir, ignored);
    }
    ScratchHost(const ScratchHost&) = delete;
    ScratchHost& operator=(const ScratchHost&) = delete;

    void file(const std::filesystem::path& absolute, const std::string& text) const {
        const auto path = dir / absolute.relative_path();
        std::filesystem::create_directories(path.parent_path());
        std::ofstream(path) << text;
    }
    std::string contents(const std::filesystem::path& absolute) const {
        std::ifstream in(dir / absolute.relative_path());
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        return text;
    }
    void module(const std::string& name) const {
        std::filesystem::create_directories(dir / "sys/module" / name);
    }
    void tool(const std::string& name) const { file("/usr/sbin/" + name, "#!/bin/sh\n"); }
    void blockDevice(const std::string& name, std::uint64_t bytes) const {
        file("/sys/class/block/" + name + "/size", std::to_string(bytes / 512) + "\n");
    }
};

inline ProcessResult ok(std::string out = "") {
    return ProcessResult{0, std::move(out), ""};
}
inline ProcessResult failed(int code, std::string err) {
    return ProcessResult{code, "", std::move(err)};
}

} // namespace ssdk::cachectl::testing
