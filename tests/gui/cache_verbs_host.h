#pragma once
// The real cache verbs (helper/cache_verbs.h) served in this process for the RAM Cache page:
// a HelperService with addCacheVerbs over a test's CacheManager (fake backends), reached
// through the in-process transport, so the page's typed requests and the verbs' results make
// the helper protocol's JSON round trip.
#include <memory>
#include <string>

#include "app/helper_caller.h"
#include "helper/cache_verbs.h"
#include "helper/in_process_transport.h"

namespace ssdk::app::test {

inline constexpr std::uint64_t kHostRamBytes = 8ULL << 30; // 2 GiB suggested
inline constexpr std::uint64_t kHostAvailableBytes = 5ULL << 30;

// A HelperCaller for RamCachePage. The machine the verbs see: device paths taken as given
// (the tests' made-up /dev/loop0), 8 GiB of RAM with 5 free, mains power. owner keeps the
// manager and what it uses alive as long as a call may still run on the caller's pool thread.
inline HelperCaller* cacheVerbCaller(cachectl::CacheManager& manager,
                                     std::shared_ptr<const void> owner) {
    // Everything is allowed (tests/support/allow_all.h is not included: its namespace
    // ssdk::test would make these tests' "test::" ambiguous).
    struct AllowEverything final : helper::Authorizer {
        Expected<void> authorize(const std::string&) override { return {}; }
    };
    struct Served {
        std::shared_ptr<const void> owner;
        AllowEverything authorizer;
        helper::HelperService service{authorizer, {}};
    };
    auto served = std::make_shared<Served>();
    served->owner = std::move(owner);
    helper::CacheVerbEnv env;
    env.validateDevice = [](std::string_view path,
                            const helper::DeviceRules&) -> Expected<std::string> {
        return std::string(path);
    };
    env.readRam = [] { return helper::RamInfo{kHostRamBytes, kHostAvailableBytes}; };
    env.power = [] { return helper::PowerSource{false, "mains (test)"}; };
    helper::addCacheVerbs(served->service, manager, env);
    auto& service = served->service;
    return new HelperCaller(std::make_shared<helper::InProcessTransport>(service, served));
}

} // namespace ssdk::app::test
