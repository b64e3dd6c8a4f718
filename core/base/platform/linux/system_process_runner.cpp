#include "core/base/system_process_runner.h"

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/log.h"

namespace ssdk {

namespace {

class Pipe {
public:
    Pipe() = default;
    Pipe(const Pipe&) = delete;
    Pipe& operator=(const Pipe&) = delete;
    ~Pipe() {
        closeRead();
        closeWrite();
    }

    bool open() { return ::pipe2(m_fds.data(), O_CLOEXEC) == 0; }
    int readEnd() const { return m_fds[0]; }
    int writeEnd() const { return m_fds[1]; }
    void closeRead() { closeFd(m_fds[0]); }
    void closeWrite() { closeFd(m_fds[1]); }

private:
    static void closeFd(int& fd) {
        if (fd >= 0) {
            ::close(fd);
            fd = -1;
        }
    }
    std::array<int, 2> m_fds{-1, -1};
};

int decodeStatus(int status) {
    if (WIFEXITED(status)) {
        return WEXITSTATUS(status);
    }
    if (WIFSIGNALED(status)) {
        return 128 + WTERMSIG(status);
    }
    return -1;
}

void setNonBlocking(int fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

// Executed in the child between fork and exec: only async-signal-safe calls.
[[noreturn]] void execChild(const Pipe& in, const Pipe& out, const Pipe& err, char* const* argv,
                            const std::string& program, int execErrorFd) {
    ::setpgid(0, 0);
    ::dup2(in.readEnd(), STDIN_FILENO);
    ::dup2(out.writeEnd(), STDOUT_FILENO);
    ::dup2(err.writeEnd(), STDERR_FILENO);
    ::execv(program.c_str(), argv);
    const int code = errno;
    [[maybe_unused]] auto written = ::write(execErrorFd, &code, sizeof code);
    ::_exit(127);
}

} // namespace

std::string findExecutable(const std::string& name) {
    if (name.find('/') != std::string::npos) {
        return ::access(name.c_str(), X_OK) == 0 ? name : std::string();
    }
    const char* path = std::getenv("PATH");
    std::string dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
    // Administrative tools live in sbin, which a user's PATH often lacks.
    dirs += ":/usr/local/sbin:/usr/sbin:/sbin";
    std::size_t start = 0;
    while (start <= dirs.size()) {
        const auto end = dirs.find(':', start);
        const auto dir =
            dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (!dir.empty()) {
            const auto candidate = std::filesystem::path(dir) / name;
            if (::access(candidate.c_str(), X_OK) == 0) {
                return candidate.string();
            }
        }
        if (end == std::string::npos) {
            break;
        }
        start = end + 1;
    }
    return {};
}

Expected<ProcessResult> SystemProcessRunner::run(const ProcessRequest& request) {
    using Clock = std::chrono::steady_clock;
    if (request.argv.empty()) {
        return fail(ErrorCode::InvalidArgument, "no program given");
    }
    const std::string program = findExecutable(request.argv.front());
    if (program.empty()) {
        return fail(ErrorCode::ToolMissing,
                    "'" + request.argv.front() + "' is not installed (not found in PATH)");
    }
    Pipe in;
    Pipe out;
    Pipe err;
    Pipe execError;
    if (!in.open() || !out.open() || !err.open() || !execError.open()) {
        return failErrno(errno, "creating pipes for " + request.argv.front());
    }
    std::vector<char*> argv;
    argv.reserve(request.argv.size() + 1);
    for (const auto& arg : request.argv) {
        argv.push_back(const_cast<char*>(arg.c_str()));
    }
    argv.push_back(nullptr);
    // The environment is built before fork: setenv in a threaded parent would race.
    std::vector<std::string> envStrings;
    std::vector<char*> envp;
    const bool customEnv = !request.environment.empty();
    if (customEnv) {
        for (char** e = environ; *e != nullptr; ++e) {
            const std::string_view entry(*e);
            const auto key = entry.substr(0, entry.find('='));
            if (!request.environment.contains(std::string(key))) {
                envStrings.emplace_back(entry);
            }
        }
        for (const auto& [key, value] : request.environment) {
            envStrings.push_back(key + "=" + value);
        }
        for (auto& entry : envStrings) {
            envp.push_back(entry.data());
        }
        envp.push_back(nullptr);
    }

    const pid_t pid = ::fork();
    if (pid < 0) {
        return failErrno(errno, "starting " + request.argv.front());
    }
    if (pid == 0) {
        if (customEnv) {
            environ = envp.data();
        }
        execChild(in, out, err, argv.data(), program, execError.writeEnd());
    }
    ::setpgid(pid, pid);
    in.closeRead();
    out.closeWrite();
    err.closeWrite();
    execError.closeWrite();

    int execErrno = 0;
    if (::read(execError.readEnd(), &execErrno, sizeof execErrno) == sizeof execErrno) {
        int status = 0;
        ::waitpid(pid, &status, 0);
        return failErrno(execErrno, "executing " + program);
    }

    setNonBlocking(in.writeEnd());
    setNonBlocking(out.readEnd());
    setNonBlocking(err.readEnd());
    std::size_t inputOffset = 0;
    if (request.standardInput.empty()) {
        in.closeWrite();
    }

    ProcessResult result;
    const auto deadline = Clock::now() + request.timeout;
    bool timedOut = false;
    bool outOpen = true;
    bool errOpen = true;
    std::array<char, 65536> buffer{};
    while (outOpen || errOpen) {
        std::array<pollfd, 3> fds{};
        nfds_t count = 0;
        if (outOpen) {
            fds[count++] = {out.readEnd(), POLLIN, 0};
        }
        if (errOpen) {
            fds[count++] = {err.readEnd(), POLLIN, 0};
        }
        if (in.writeEnd() >= 0) {
            fds[count++] = {in.writeEnd(), POLLOUT, 0};
        }
        const auto remaining =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (remaining.count() <= 0) {
            timedOut = true;
            break;
        }
        const int ready = ::poll(fds.data(), count, static_cast<int>(remaining.count()));
        if (ready < 0 && errno != EINTR) {
            break;
        }
        for (nfds_t i = 0; i < count; ++i) {
            if (fds[i].revents == 0) {
                continue;
            }
            if (fds[i].fd == in.writeEnd()) {
                const auto left = request.standardInput.size() - inputOffset;
                const auto written =
                    ::write(in.writeEnd(), request.standardInput.data() + inputOffset, left);
                if (written > 0) {
                    inputOffset += static_cast<std::size_t>(written);
                }
                if (written < 0 && errno != EAGAIN) {
                    in.closeWrite();
                } else if (inputOffset == request.standardInput.size()) {
                    in.closeWrite();
                }
                continue;
            }
            const bool isOut = fds[i].fd == out.readEnd();
            const auto got = ::read(fds[i].fd, buffer.data(), buffer.size());
            if (got > 0) {
                (isOut ? result.standardOutput : result.standardError)
                    .append(buffer.data(), static_cast<std::size_t>(got));
            } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
                (isOut ? outOpen : errOpen) = false;
            }
        }
    }
    in.closeWrite();

    int status = 0;
    if (timedOut) {
        ::kill(-pid, SIGTERM);
        const auto grace = Clock::now() + std::chrono::seconds(2);
        while (::waitpid(pid, &status, WNOHANG) == 0) {
            if (Clock::now() > grace) {
                ::kill(-pid, SIGKILL);
                ::waitpid(pid, &status, 0);
                break;
            }
            ::usleep(20000);
        }
        return fail(ErrorCode::Timeout, describeCommand(request.argv) + " did not finish within " +
                                            std::to_string(request.timeout.count()) +
                                            " ms and was stopped");
    }
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    result.exitCode = decodeStatus(status);
    log::get("base")->debug("{} exited with {}", describeCommand(request.argv), result.exitCode);
    return result;
}

} // namespace ssdk
