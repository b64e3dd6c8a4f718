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
#include "core/cachectl/waker.h"

namespace ssdk::daemon {

// Lines longer than this end the connection (a control request is a few hundred bytes).
inline constexpr std::size_t kMaxControlLine = 64 * 1024;

class ControlServer {
public:
    using Handler = std::function<Json(const Json& request)>;

    // Binds path, in a private directory, with mode 0600 from the start (listenUnixSocket).
    // Connections of other users than root and the daemon's own (SO_PEERCRED) are closed
    // unanswered.
    static Expected<std::unique_ptr<ControlServer>> listen(const std::filesystem::path& path,
                                                           Handler handler);
    ~ControlServer();
    ControlServer(const ControlServer&) = delete;
    ControlServer& operator=(const ControlServer&) = delete;

    void start();
    // Stops accepting, ends open control connections and removes the socket file.
    void stop();

    // The reply to one request line (pure apart from the handler): parse errors become
    // {"ok": false, "error": {...}}; never throws (a handler's exception becomes an
    // "internal" error reply).
    static Json answerLine(std::string_view line, const Handler& handler);
    // answerLine as the line sent back: JSON with invalid UTF-8 replaced, and "\n". Never
    // throws.
    static std::string answerText(std::string_view line, const Handler& handler);

private:
    ControlServer(UniqueFd listener, std::filesystem::path path, Handler handler);
    struct ClientThread {
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> done;
    };

    void acceptLoop();
    void serve(int fd);
    // Joins the threads of connections that ended (each would keep its stack until joined).
    void reapFinishedThreads();

    UniqueFd m_listener;
    std::filesystem::path m_path;
    Handler m_handler;
    cachectl::Waker m_stopWaker; // wakes the accept loop
    std::atomic<bool> m_stopping{false};
    std::thread m_acceptThread;
    std::mutex m_mutex;
    std::set<int> m_clients;
    std::vector<ClientThread> m_clientThreads;
};

} // namespace ssdk::daemon
