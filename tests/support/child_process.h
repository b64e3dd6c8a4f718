#pragma once
// ChildProcess: a long-running program (a server under test) started with fork/exec, for
// integration tests and benchmarks. Killed with SIGKILL and reaped when destroyed.

#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <signal.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace ssdk::testing {

class ChildProcess {
public:
    ChildProcess() = default;
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    ChildProcess(ChildProcess&& other) noexcept
        : m_pid(std::exchange(other.m_pid, -1))
        , m_stdout(std::exchange(other.m_stdout, -1)) {}
    ChildProcess& operator=(ChildProcess&& other) noexcept {
        if (this != &other) {
            kill();
            m_pid = std::exchange(other.m_pid, -1);
            m_stdout = std::exchange(other.m_stdout, -1);
        }
        return *this;
    }
    ~ChildProcess() { kill(); }

    // Starts argv[0] (a path, or a name looked up in PATH). Its stdout is a pipe read by
    // waitForLine; its stderr goes to stderrPath (appended) or is inherited when empty.
    static std::optional<ChildProcess> spawn(const std::vector<std::string>& argv,
                                             const std::string& stderrPath = {}) {
        int pipeFds[2];
        if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
            return std::nullopt;
        }
        const pid_t pid = ::fork();
        if (pid < 0) {
            ::close(pipeFds[0]);
            ::close(pipeFds[1]);
            return std::nullopt;
        }
        if (pid == 0) {
            ::dup2(pipeFds[1], STDOUT_FILENO);
            if (!stderrPath.empty()) {
                const int err = ::open(stderrPath.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
                if (err >= 0) {
                    ::dup2(err, STDERR_FILENO);
                }
            }
            std::vector<char*> args;
            for (const auto& arg : argv) {
                args.push_back(const_cast<char*>(arg.c_str()));
            }
            args.push_back(nullptr);
            ::execvp(args[0], args.data());
            ::_exit(127);
        }
        ::close(pipeFds[1]);
        ChildProcess child;
        child.m_pid = pid;
        child.m_stdout = pipeFds[0];
        return child;
    }

    pid_t pid() const { return m_pid; }
    bool running() const { return m_pid > 0; }

    // Reads stdout until a line equal to line arrives; false on timeout or end of output.
    bool waitForLine(const std::string& line, std::chrono::milliseconds timeout) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        std::string buffer;
        while (true) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) {
                return false;
            }
            pollfd fd{.fd = m_stdout, .events = POLLIN, .revents = 0};
            if (::poll(&fd, 1, static_cast<int>(left.count())) <= 0) {
                continue;
            }
            char c = 0;
            if (::read(m_stdout, &c, 1) != 1) {
                return false;
            }
            if (c != '\n') {
                buffer.push_back(c);
                continue;
            }
            if (buffer == line) {
                return true;
            }
            buffer.clear();
        }
    }

    void signal(int number) const {
        if (m_pid > 0) {
            ::kill(m_pid, number);
        }
    }

    // Waits for the exit: the exit code, or 128+N when killed by signal N.
    int wait() {
        if (m_pid <= 0) {
            return -1;
        }
        int status = 0;
        while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
        }
        m_pid = -1;
        closeStdout();
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }

    // SIGKILL and reap (nothing when already reaped).
    void kill() {
        if (m_pid > 0) {
            ::kill(m_pid, SIGKILL);
            wait();
        }
        closeStdout();
    }

private:
    void closeStdout() {
        if (m_stdout >= 0) {
            ::close(m_stdout);
            m_stdout = -1;
        }
    }

    pid_t m_pid = -1;
    int m_stdout = -1;
};

} // namespace ssdk::testing
