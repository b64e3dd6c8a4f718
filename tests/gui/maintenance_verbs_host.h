#pragma once
// The real maintenance verbs (helper/maintenance_verbs.h) served in this process for the
// Maintenance page and the erase wizard: a HelperService with addMaintenanceVerbs over this
// machine's tools and transports, reached through the in-process transport, so the pages'
// typed requests and the verbs' results make the helper protocol's JSON round trip. The verbs
// act on real block devices: only root can use them.
#include <filesystem>
#include <memory>

#include "core/base/state_store.h"
#include "core/base/system_process_runner.h"
#include "core/maintenance/erase/eraser.h"
#include "helper/in_process_transport.h"
#include "helper/maintenance_verbs.h"

namespace ssdk::app::test {

// A transport to the maintenance verbs, authorized without asking (the tests' allow-all);
// erase.run journals under journalDir (the helper's <privileged state>/erase).
inline std::shared_ptr<rpc::Transport>
maintenanceVerbTransport(const std::filesystem::path& journalDir) {
    // Everything is allowed (tests/support/allow_all.h is not included: its namespace
    // ssdk::test would make these tests' "test::" ambiguous).
    struct AllowEverything final : helper::Authorizer {
        Expected<void> authorize(const std::string&) override { return {}; }
    };
    struct Served {
        AllowEverything authorizer;
        SystemProcessRunner runner;
        helper::HelperService service{authorizer};
    };
    auto served = std::make_shared<Served>();
    auto journals = StateStore::open(journalDir);
    std::optional<maintenance::erase::EraseJournalStore> store;
    if (journals) {
        store.emplace(std::move(*journals));
    }
    helper::addMaintenanceVerbs(served->service, served->runner,
                                maintenance::erase::systemTransports(), std::move(store));
    auto& service = served->service;
    return std::make_shared<helper::InProcessTransport>(service, served);
}

} // namespace ssdk::app::test
