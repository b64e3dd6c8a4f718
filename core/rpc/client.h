#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <sys/types.h>
#include <vector>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/rpc/protocol.h"
#include "core/rpc/transport.h"

namespace ssdk::rpc {

// How the client reaches the privileged helper.
struct HelperLocation {
    std::filesystem::path helperPath; // the ssdkeeper-helper executable
    bool usePkexec = true;            // false when the caller is already root
};

// Finds ssdkeeper-helper: $SSDK_HELPER if set, else next to the running executable
// (a build tree), else the installed path. pkexec is used unless the caller is root.
HelperLocation locateHelper();

// The Transport to one helper process over its stdin/stdout. The process is started on the
// first call and kept for the client's lifetime (so pkexec asks for a password once); calls
// are serialized. Thread-safe; call() blocks, so GUI code runs it on a worker thread.
// A helper that could not start, was refused by polkit or died gives PermissionDenied /
// Protocol errors that say so.
class HelperClient final : public Transport {
public:
    explicit HelperClient(HelperLocation location = locateHelper());
    ~HelperClient() override;

protected:
    Expected<Json> send(const std::string& verb, const Json& args,
                        const EventHandler& onEvent) override;
    // Sends the cancel message (from another thread, or a signal-driven thread of the CLI).
    void cancelRunning() override;

private:
    Expected<void> start();
    void stop();
    Expected<std::string> readLine();
    void closeToHelper();

    HelperLocation m_location;
    std::mutex m_mutex;
    std::mutex m_writeMutex;       // guards m_toHelper against cancel() from other threads
    std::uint64_t m_runningId = 0; // the call waiting for its response (under m_writeMutex)
    pid_t m_pid = -1;
    int m_toHelper = -1;
    int m_fromHelper = -1;
    std::string m_buffer;
    std::uint64_t m_nextId = 1;
};

} // namespace ssdk::rpc
