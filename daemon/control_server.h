#pragma once
// ControlServer: the daemon's control socket. A client sends one JSON object per line and gets
// one JSON object per line back (see docs/daemon.md); a line that is not JSON gets an error
// reply and the connection stays usable.

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/base/unique_fd.h"

namespace ssdk::daemon {

// Lines longer than this end the connection (a control request is a few hundred bytes).
inline constexpr std::size_t kMaxControlLine = 64 * 1024;

class ControlServer {
public:
    using Handler = std::function<Json(const Json& request)>;

    // Binds path (mode 0600: only the daemon's user controls it).
    static Expected<std::unique_ptr<ControlServer>> listen(const std::filesystem::path& path,
                                                           Handler handler);
    ~ControlServer();
    ControlServer(const ControlServer&) = delete;
    ControlServer& operator=(const ControlServer&) = delete;

    void start();
    // Stops accepting, ends open control connections and removes the socket file.
    void stop();

    // The reply to one request line (pure apart from the handler): parse errors become
    // {"ok": false, "error": {...}}.
    static Json answerLine(std::string_view line, const Handler& handler);

private:
    ControlServer(UniqueFd listener, std::filesystem::path path, Handler handler);
    void acceptLoop();
    void serve(int fd);

    UniqueFd m_listener;
    std::filesystem::path m_path;
    Handler m_handler;
    UniqueFd m_stopEvent;
    std::atomic<bool> m_stopping{false};
    std::thread m_acceptThread;
    std::mutex m_mutex;
    std::set<int> m_clients;
    std::vector<std::thread> m_clientThreads;
};

} // namespace ssdk::daemon
