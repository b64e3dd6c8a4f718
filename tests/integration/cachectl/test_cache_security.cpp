// cache.enable against a device path its caller keeps pointing elsewhere: a symlink in
// /dev/shm (any user may write there) flipped between a real loop device and a plain file
// while the verb runs. What reaches the backend must be the device node that was validated,
// never the path as given nor what it names a moment later.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <thread>
#include <unistd.h>

#include "core/base/replay_process_runner.h"
#include "core/base/system_process_runner.h"
#include "core/cachectl/backend_fake.h"
#include "helper/cache_verbs.h"
#include "tests/support/allow_all.h"
#include "tests/support/temp_dir.h"

using namespace ssdk;
using namespace ssdk::helper;
namespace fs = std::filesystem;

namespace {

std::string run(const std::vector<std::string>& argv) {
    SystemProcessRunner runner;
    auto result = runner.run({.argv = argv});
    REQUIRE(result);
    INFO(argv[0] << ": " << result->standardError);
    REQUIRE(result->exitCode == 0);
    std::string out = result->standardOutput;
    while (!out.empty() && out.back() == '\n') {
        out.pop_back();
    }
    return out;
}

// A loop device over a sparse file in dir, detached whatever happens in the test.
struct ScratchLoop {
    explicit ScratchLoop(const fs::path& dir) {
        const auto image = dir / "lab.img";
        run({"truncate", "-s", "64M", image.string()});
        device = run({"losetup", "--find", "--show", image.string()});
    }
    ~ScratchLoop() {
        if (!device.empty()) {
            (void)SystemProcessRunner().run({.argv = {"losetup", "-d", device}});
        }
    }
    std::string device;
};

// Points link at one target, then the other, as fast as it can (rename over the link, as an
// attacker would), until stopped.
struct Flipper {
    Flipper(fs::path link, fs::path first, fs::path second)
        : m_link(std::move(link)) {
        const fs::path staging = m_link.string() + ".new";
        m_thread = std::thread([this, staging, first, second] {
            bool which = false;
            while (!m_stop.load()) {
                std::error_code ignored;
                fs::remove(staging, ignored);
                fs::create_symlink(which ? first : second, staging, ignored);
                fs::rename(staging, m_link, ignored);
                which = !which;
            }
        });
    }
    ~Flipper() {
        m_stop.store(true);
        m_thread.join();
        std::error_code ignored;
        fs::remove(m_link, ignored);
        fs::remove(m_link.string() + ".new", ignored);
    }
    fs::path m_link;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace

TEST_CASE("cache.enable hands on the device it validated, whatever the path names next") {
    const test::TempDir dir("ssdk-cache-flip");
    ScratchLoop loop(dir.path);
    const fs::path plain = dir.path / "plain.img";
    run({"truncate", "-s", "64M", plain.string()});
    const fs::path link = "/dev/shm/ssdk-cache-flip-" + std::to_string(::getpid());

    cachectl::Capabilities capabilities;
    capabilities.writeBack = true;
    capabilities.compressions = {cachectl::Compression::None};
    cachectl::BackendRegistry registry;
    auto fake = std::make_unique<cachectl::FakeBackend>("fake", cachectl::ProbeResult{true, {}},
                                                        capabilities);
    auto* backend = fake.get();
    registry.add(std::move(fake));
    ReplayProcessRunner runner;
    cachectl::HostEnv env;
    env.runner = &runner;
    const fs::path state = dir.path / "state";
    cachectl::CacheManager manager(registry, env, state);
    test::AllowAll authorizer;
    HelperService service(authorizer);
    addCacheVerbs(service, manager);

    // Without the flipping, the link resolves to the node and the node is what is used.
    fs::create_symlink(loop.device, link);
    const auto direct = parseJson(
        service.handleLine(rpc::encode(rpc::Request{
            1, "cache.enable", Json{{"device", link}, {"backend", "fake"}, {"size", 64 << 20}}})),
        "response");
    fs::remove(link);
    REQUIRE(direct);
    INFO(direct->dump());
    REQUIRE((*direct)["ok"] == true);
    CHECK((*direct)["result"]["record"]["cache"]["plan"]["origin"] == loop.device);
    fs::remove_all(state);

    int accepted = 0;
    int refused = 0;
    {
        Flipper flipper(link, loop.device, plain);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        for (std::uint64_t id = 2; id < 400 && std::chrono::steady_clock::now() < deadline; ++id) {
            const auto response =
                parseJson(service.handleLine(rpc::encode(rpc::Request{
                              id, "cache.enable",
                              Json{{"device", link}, {"backend", "fake"}, {"size", 64 << 20}}})),
                          "response");
            REQUIRE(response);
            if ((*response)["ok"] == true) {
                ++accepted;
                fs::remove_all(state); // the next attempt starts with no cache
            } else {
                ++refused;
            }
            if (accepted >= 40) {
                break;
            }
        }
    }
    INFO(accepted << " accepted, " << refused << " refused");
    CHECK(accepted > 0);
    CHECK(refused > 0); // the flipping did reach the validation
    // Every cache the backend was asked for is on the loop device the verb validated.
    std::size_t enables = 0;
    for (const auto& call : backend->calls()) {
        if (call.starts_with("enable ")) {
            ++enables;
            CHECK(call == "enable " + loop.device);
        }
    }
    CHECK(enables == static_cast<std::size_t>(accepted) + 1);
}
