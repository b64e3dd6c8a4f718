#include "core/rpc/client.h"

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/log.h"
#include "core/base/system_process_runner.h"

#ifndef SSDK_HELPER_INSTALL_PATH
#error "SSDK_HELPER_INSTALL_PATH must be defined by the build"
#endif

namespace ssdk::rpc {

namespace fs = std::filesystem;

namespace {

// pkexec's own exit codes: 126 when the authentication dialog was dismissed, 127 when the
// caller is not authorized or authorization could not be obtained.
constexpr int kPkexecDismissed = 126;
constexpr int kPkexecNotAuthorized = 127;

void closeFd(int& fd) {
    if (fd >= 0) {
        ::close(fd);
        fd = -1;
    }
}

// Writes all of data. A helper that has gone away gives EPIPE instead of killing the client
// with SIGPIPE: the signal is blocked for this thread while writing and a pending one consumed.
Expected<void> writeAll(int fd, std::string_view data) {
    sigset_t pipeSignal;
    sigset_t previous;
    sigemptyset(&pipeSignal);
    sigaddset(&pipeSignal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous);
    int error = 0;
    while (!data.empty()) {
        const auto written = ::write(fd, data.data(), data.size());
        if (written < 0) {
            if (errno == EINTR) {
                continue;
            }
            error = errno;
            break;
        }
        data.remove_prefix(static_cast<std::size_t>(written));
    }
    if (error == EPIPE) {
        const timespec noWait{0, 0};
        sigtimedwait(&pipeSignal, nullptr, &noWait);
    }
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    if (error != 0) {
        return failErrno(error, "sending a request to ssdkeeper-helper");
    }
    return {};
}

std::string describeExit(int status) {
    if (WIFEXITED(status)) {
        return "exited with status " + std::to_string(WEXITSTATUS(status));
    }
    if (WIFSIGNALED(status)) {
        return "was killed by signal " + std::to_string(WTERMSIG(status));
    }
    return "stopped";
}

int reap(pid_t pid) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

// Reads the errno a child writes to its close-on-exec error pipe when exec fails; 0 when the
// pipe closed without data, i.e. the exec succeeded.
int readExecError(int fd) {
    int childErrno = 0;
    ssize_t got = 0;
    do {
        got = ::read(fd, &childErrno, sizeof childErrno);
    } while (got < 0 && errno == EINTR);
    return got == static_cast<ssize_t>(sizeof childErrno) ? childErrno : 0;
}

} // namespace

HelperLocation locateHelper() {
    HelperLocation location;
    location.usePkexec = ::geteuid() != 0;
    if (const char* fromEnv = std::getenv("SSDK_HELPER"); fromEnv != nullptr && *fromEnv != '\0') {
        location.helperPath = fromEnv;
        return location;
    }
    std::error_code ec;
    const auto self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const auto sibling = self.parent_path() / "ssdkeeper-helper";
        if (fs::exists(sibling, ec)) {
            location.helperPath = sibling;
            return location;
        }
    }
    location.helperPath = SSDK_HELPER_INSTALL_PATH;
    return location;
}

HelperClient::HelperClient(HelperLocation location)
    : m_location(std::move(location)) {}

HelperClient::~HelperClient() {
    std::lock_guard lock(m_mutex);
    stop();
}

Expected<void> HelperClient::start() {
    std::error_code ec;
    // pkexec insists on an absolute path, and it is what the policy's exec.path names.
    const fs::path helper = fs::absolute(m_location.helperPath, ec);
    if (ec || !fs::is_regular_file(helper, ec)) {
        return fail(ErrorCode::NotFound, "ssdkeeper-helper is not installed (looked for " +
                                             m_location.helperPath.string() +
                                             "; set SSDK_HELPER to its path)");
    }
    std::vector<std::string> argv;
    if (m_location.usePkexec) {
        const auto pkexec = findExecutable("pkexec");
        if (pkexec.empty()) {
            return fail(ErrorCode::ToolMissing,
                        "pkexec is not installed; it is needed to ask for administrator rights "
                        "(install the pkexec package, or run as root)");
        }
        argv = {pkexec, helper.string()};
    } else {
        argv = {helper.string()};
    }
    std::array<int, 2> toHelper{-1, -1};
    std::array<int, 2> fromHelper{-1, -1};
    std::array<int, 2> execError{-1, -1};
    for (auto* pipe : {&toHelper, &fromHelper, &execError}) {
        if (::pipe2(pipe->data(), O_CLOEXEC) != 0) {
            const int error = errno;
            for (auto* opened : {&toHelper, &fromHelper, &execError}) {
                closeFd((*opened)[0]);
                closeFd((*opened)[1]);
            }
            return failErrno(error, "creating pipes to ssdkeeper-helper");
        }
    }
    // Built before fork: the child only calls async-signal-safe functions.
    std::vector<char*> args;
    for (auto& arg : argv) {
        args.push_back(arg.data());
    }
    args.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(toHelper[0], STDIN_FILENO);
        ::dup2(fromHelper[1], STDOUT_FILENO);
        ::execv(args[0], args.data());
        const int error = errno;
        (void)!::write(execError[1], &error, sizeof error);
        ::_exit(127);
    }
    const int forkError = errno;
    closeFd(toHelper[0]);
    closeFd(fromHelper[1]);
    closeFd(execError[1]);
    if (pid < 0) {
        closeFd(toHelper[1]);
        closeFd(fromHelper[0]);
        closeFd(execError[0]);
        return failErrno(forkError, "starting ssdkeeper-helper");
    }
    const int childErrno = readExecError(execError[0]);
    closeFd(execError[0]);
    if (childErrno != 0) {
        reap(pid);
        closeFd(toHelper[1]);
        closeFd(fromHelper[0]);
        return failErrno(childErrno, "starting " + describeCommand(argv));
    }
    m_pid = pid;
    m_toHelper = toHelper[1];
    m_fromHelper = fromHelper[0];
    m_buffer.clear();
    log::get("rpc")->debug("started {} (pid {})", describeCommand(argv), pid);
    return {};
}

void HelperClient::closeToHelper() {
    std::lock_guard lock(m_writeMutex);
    closeFd(m_toHelper);
}

void HelperClient::cancelRunning() {
    std::lock_guard lock(m_writeMutex);
    if (m_runningId != 0 && m_toHelper >= 0) {
        if (auto sent = writeAll(m_toHelper, encodeCancel(m_runningId)); !sent) {
            log::get("rpc")->warn("could not send cancel: {}", sent.error().describe());
        }
    }
}

void HelperClient::stop() {
    // Closing its stdin is how the helper is told to finish: it exits on EOF. The helper may
    // run as root under pkexec, so it cannot be signalled; this waits for it instead.
    closeToHelper();
    closeFd(m_fromHelper);
    if (m_pid > 0) {
        reap(m_pid);
        m_pid = -1;
    }
}

Expected<std::string> HelperClient::readLine() {
    std::array<char, 4096> chunk{};
    while (true) {
        if (const auto newline = m_buffer.find('\n'); newline != std::string::npos) {
            std::string line = m_buffer.substr(0, newline);
            m_buffer.erase(0, newline + 1);
            return line;
        }
        if (m_buffer.size() > kMaxLineBytes) {
            stop();
            return fail(ErrorCode::Protocol, "ssdkeeper-helper sent a line longer than " +
                                                 std::to_string(kMaxLineBytes) + " bytes");
        }
        const auto got = ::read(m_fromHelper, chunk.data(), chunk.size());
        if (got > 0) {
            m_buffer.append(chunk.data(), static_cast<std::size_t>(got));
            continue;
        }
        if (got < 0 && errno == EINTR) {
            continue;
        }
        // The helper closed its output, so it is exiting: reap it and say why.
        closeToHelper();
        closeFd(m_fromHelper);
        const int status = m_pid > 0 ? reap(m_pid) : 0;
        m_pid = -1;
        if (m_location.usePkexec && WIFEXITED(status) &&
            (WEXITSTATUS(status) == kPkexecDismissed ||
             WEXITSTATUS(status) == kPkexecNotAuthorized)) {
            return fail(ErrorCode::PermissionDenied,
                        "authorization was refused or cancelled (pkexec " + describeExit(status) +
                            ")");
        }
        return fail(ErrorCode::Protocol,
                    "ssdkeeper-helper stopped before answering (it " + describeExit(status) + ")");
    }
}

Expected<Json> HelperClient::send(const std::string& verb, const Json& args,
                                  const EventHandler& onEvent) {
    std::lock_guard lock(m_mutex);
    if (m_pid <= 0) {
        if (auto started = start(); !started) {
            return std::unexpected(started.error());
        }
    }
    const Request request{m_nextId++, verb, args};
    Expected<void> sent;
    {
        std::lock_guard writeLock(m_writeMutex);
        sent = writeAll(m_toHelper, encode(request));
        m_runningId = sent ? request.id : 0;
    }
    struct NotRunning {
        HelperClient& client;
        ~NotRunning() {
            std::lock_guard writeLock(client.m_writeMutex);
            client.m_runningId = 0;
        }
    } notRunning{*this};
    if (!sent) {
        // The helper has gone away: its exit status says more than EPIPE does.
        closeToHelper();
        auto reason = readLine();
        stop();
        return std::unexpected(reason ? sent.error() : reason.error());
    }
    while (true) {
        auto line = readLine();
        if (!line) {
            return std::unexpected(line.error());
        }
        auto message = decodeMessage(*line);
        if (!message) {
            stop();
            return std::unexpected(
                Error(message.error()).addContext("reading ssdkeeper-helper's answer"));
        }
        if (message->isEvent) {
            if (message->event.id == request.id && onEvent) {
                onEvent(message->event);
            }
            continue;
        }
        if (message->response.id != request.id) {
            stop();
            return fail(ErrorCode::Protocol, "ssdkeeper-helper answered request " +
                                                 std::to_string(message->response.id) +
                                                 " while request " + std::to_string(request.id) +
                                                 " was waiting");
        }
        return std::move(message->response.result);
    }
}

} // namespace ssdk::rpc
