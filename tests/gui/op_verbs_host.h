#pragma once
// The real spare-area verbs (helper/op_verbs.h) served in this process for the Spare Area
// page: a HelperService with addOpVerbs over a ReplayProcessRunner (no tool may run: a
// recorded answer is missing for every command) and a journal directory of the test's own,
// reached through the in-process transport, so the page's typed requests and the verbs'
// results make the helper protocol's JSON round trip.
#include <filesystem>
#include <memory>
#include <string>
#include <unistd.h>

#include "core/base/replay_process_runner.h"
#include "helper/in_process_transport.h"
#include "helper/op_verbs.h"

namespace ssdk::app::test {

// What the verbs run with; outlives every call through transport().
class OpVerbHost {
public:
    OpVerbHost() {
        std::string pattern = "/tmp/ssdk-gui-opverbs-XXXXXX";
        if (::mkdtemp(pattern.data()) != nullptr) {
            m_served->stateDir = pattern;
        }
        helper::addOpVerbs(m_served->service, m_served->stateDir / "op", m_served->runner);
    }
    ~OpVerbHost() {
        std::error_code ignored;
        std::filesystem::remove_all(m_served->stateDir, ignored);
    }
    OpVerbHost(const OpVerbHost&) = delete;
    OpVerbHost& operator=(const OpVerbHost&) = delete;

    // For SpareAreaPage: every call goes to the real op verbs.
    std::shared_ptr<rpc::Transport> transport() const {
        return std::make_shared<helper::InProcessTransport>(m_served->service, m_served);
    }
    // "" when the journal directory could not be made.
    const std::filesystem::path& stateDir() const { return m_served->stateDir; }
    // The commands the verbs ran (or tried to).
    std::vector<ProcessRequest> commands() const { return m_served->runner.requests(); }

private:
    // Everything is allowed (tests/support/allow_all.h is not included: its namespace
    // ssdk::test would make these tests' "test::" ambiguous).
    struct AllowEverything final : helper::Authorizer {
        Expected<void> authorize(const std::string&) override { return {}; }
    };
    struct Served {
        std::filesystem::path stateDir;
        ReplayProcessRunner runner;
        AllowEverything authorizer;
        helper::HelperService service{authorizer, {}};
    };
    std::shared_ptr<Served> m_served = std::make_shared<Served>();
};

} // namespace ssdk::app::test
