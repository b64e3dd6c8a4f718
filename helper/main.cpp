// ssdkeeper-helper: the privileged half of SSD Keeper. Reads one JSON request per line on
// stdin and writes events and one response per request on stdout (core/rpc/protocol.h);
// exits 0 when stdin closes. Started by the GUI/CLI through pkexec, or directly by root.
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <pwd.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/log.h"
#include "core/base/state_store.h"
#include "core/cachectl/backends/registry.h"
#include "core/platform/platform.h"
#include "core/rpc/protocol.h"
#include "helper/authorizer.h"
#include "helper/cache_verbs.h"
#include "helper/firmware_verbs.h"
#include "helper/helper_service.h"
#include "helper/lab_verbs.h"
#include "helper/line_reader.h"
#include "helper/maintenance_verbs.h"
#include "helper/op_verbs.h"
#include "helper/perf_verbs.h"
#include "helper/ping_verb.h"
#include "helper/privileged_state.h"
#include "helper/smart_verbs.h"
#include "helper/trace_verbs.h"

using namespace ssdk;
using namespace ssdk::helper;

namespace {

constexpr std::uint32_t kNoGroup = 65534;

// Whose file access rights the helper uses for the files a caller names (a firmware image):
// the caller's, unless they are root.
std::optional<lab::LabOwner> callerFileIdentity(const Caller& caller) {
    if (caller.uid == 0) {
        return std::nullopt;
    }
    const passwd* user = ::getpwuid(caller.uid);
    return lab::LabOwner{caller.uid, user != nullptr ? user->pw_gid : kNoGroup};
}

void writeLine(const std::string& line) {
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** /*argv*/) {
    ::umask(077);
    log::setup("warn");
    if (argc > 1) {
        std::fputs("ssdkeeper-helper takes no arguments: it reads JSON requests on stdin\n",
                   stderr);
        return 2;
    }
    if (::geteuid() != 0) {
        std::fputs("ssdkeeper-helper must run as root (it is started through pkexec)\n", stderr);
        return 1;
    }
    // A client that goes away must not kill a verb halfway (a loop device attached, the
    // image not yet formatted): writes then fail quietly and the verb finishes or cleans up.
    std::signal(SIGPIPE, SIG_IGN);
    // Ctrl-C in the client's terminal is for the client, which sends a cancel message: the
    // helper and the tools it runs (fio) leave the terminal's foreground process group.
    ::setpgid(0, 0);

    const Caller caller = detectCaller();
    const std::shared_ptr<platform::Platform> platform = platform::makePlatform();
    ProcessRunner& runner = platform->processRunner();
    PolkitAuthorizer authorizer(caller, runner);
    HelperService service(authorizer);
    service.add(pingVerb(caller));
    const auto labContext = labContextFor(caller);
    // The helper's own state (journals, locks, table backups): root-only, never the caller's.
    const auto stateRoot = privilegedStateRoot(caller);
    std::optional<maintenance::erase::EraseJournalStore> eraseJournals;
    if (auto store = StateStore::open(stateRoot / "erase"); store) {
        eraseJournals.emplace(std::move(*store));
    } else {
        log::get("helper")->error("erase journals unavailable: {}", store.error().describe());
    }
    addMaintenanceVerbs(service, runner, platform->transports(), std::move(eraseJournals));
    addOpVerbs(service, stateRoot / "op", runner, platform);
    addSmartVerbs(service, runner);
    addPerfVerbs(service, runner, STDIN_FILENO);
    addTraceVerbs(service, STDIN_FILENO);
    addFirmwareVerbs(service, platform->transports().nvme, firmware::systemFwupdService(),
                     callerFileIdentity(caller));
    cachectl::BackendRegistry cacheBackends;
    cachectl::addSystemBackends(cacheBackends, cachectl::HostEnv::live(runner));
    cachectl::CacheManager cacheManager(cacheBackends, cachectl::HostEnv::live(runner),
                                        kCacheStateDir);
    addCacheVerbs(service, cacheManager, CacheVerbEnv::live());
    if (labContext) {
        addLabVerbs(service, *labContext, runner);
    } else {
        log::get("helper")->error("lab verbs unavailable: {}", labContext.error().describe());
    }

    const EventSink events = [](const rpc::Event& event) { writeLine(rpc::encode(event)); };
    LineReader reader(STDIN_FILENO, rpc::kMaxLineBytes);
    while (true) {
        auto line = reader.next();
        if (!line) {
            if (line.error().code() != ErrorCode::Protocol) {
                log::get("helper")->error("{}", line.error().describe());
                return 1;
            }
            writeLine(rpc::encode(rpc::Response{0, std::unexpected(line.error())}));
            continue;
        }
        if (!line->has_value()) {
            return 0;
        }
        if (!(*line)->empty()) {
            writeLine(service.handleLine(**line, events));
        }
    }
}
