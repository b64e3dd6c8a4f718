#include "tests/integration/firmware/fwupd_fixture.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "core/firmware/fwupd.h"

namespace ssdk::firmware::test {

namespace {

constexpr const char* kFwupdDaemon = "/usr/libexec/fwupd/fwupd";
// fwupd's first start on a fresh machine loads every plugin and builds its caches: on a loaded
// 2-core machine that once took over 20 s.
constexpr auto kStartTimeout = std::chrono::seconds(90);

// A bus that, like the system bus, is reached by address; unlike it, lets every peer talk.
constexpr const char* kBusConfig = R"(<!DOCTYPE busconfig PUBLIC
 "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=@SOCKET@</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/><allow send_type="method_return"/>
    <allow send_type="signal"/><allow send_type="error"/>
    <allow receive_type="method_call"/><allow receive_type="method_return"/>
    <allow receive_type="signal"/><allow receive_type="error"/>
  </policy>
</busconfig>
)";

// TestDevices creates the test plugin's device and loads the fwupd-tests remote; the test
// cabinets are unsigned, so this private daemon accepts unsigned payloads (OnlyTrusted=false).
// LVFS is enabled but never refreshed: the "no metadata" case as on a machine without network.
constexpr const char* kFwupdConfig = "[fwupd]\nTestDevices=true\nOnlyTrusted=false\n"
                                     "UpdateMotd=false\n";
constexpr const char* kLvfsRemote = "[fwupd Remote]\nEnabled=true\nTitle=Linux Vendor Firmware "
                                    "Service\nMetadataURI=https://cdn.fwupd.org/downloads/"
                                    "firmware.xml.zst\n";

void writeFile(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

pid_t spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env,
            const std::filesystem::path& output) {
    const pid_t pid = ::fork();
    if (pid != 0) {
        return pid;
    }
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    for (const auto& assignment : env) {
        ::putenv(const_cast<char*>(assignment.c_str()));
    }
    const int fd = ::open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
        ::dup2(fd, STDOUT_FILENO);
        ::dup2(fd, STDERR_FILENO);
    }
    std::vector<char*> args;
    for (const auto& a : argv) {
        args.push_back(const_cast<char*>(a.c_str()));
    }
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
}

} // namespace

FwupdFixture::FwupdFixture() {
    if (::access(kFwupdDaemon, X_OK) != 0) {
        m_failure = std::string("fwupd is not installed (no ") + kFwupdDaemon + ")";
        return;
    }
    if (!std::filesystem::exists(std::string(kTestsDir) + "/fwupd-tests.xml")) {
        m_failure = "fwupd-tests is not installed (no test remote metadata)";
        return;
    }
    char pattern[] = "/tmp/ssdk-fwupd-XXXXXX";
    if (::mkdtemp(pattern) == nullptr) {
        m_failure = "cannot create a temporary directory";
        return;
    }
    m_dir = pattern;
    const auto socket = m_dir / "system_bus_socket";
    std::string config = kBusConfig;
    config.replace(config.find("@SOCKET@"), 8, socket.string());
    writeFile(m_dir / "bus.conf", config);
    writeFile(m_dir / "etc/fwupd/fwupd.conf", kFwupdConfig);
    writeFile(m_dir / "etc/fwupd/remotes.d/lvfs.conf", kLvfsRemote);
    for (const char* sub : {"var", "cache", "run"}) {
        std::filesystem::create_directories(m_dir / sub);
    }
    m_bus = spawn({"/usr/bin/dbus-daemon", "--config-file=" + (m_dir / "bus.conf").string(),
                   "--nofork", "--nopidfile"},
                  {}, m_dir / "dbus.log");
    const std::string address = "unix:path=" + socket.string();
    for (int i = 0; i < 50 && !std::filesystem::exists(socket); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!std::filesystem::exists(socket)) {
        m_failure = "the private dbus-daemon did not start";
        return;
    }
    ::setenv("DBUS_SYSTEM_BUS_ADDRESS", address.c_str(), 1);
    const auto dir = m_dir.string();
    m_fwupd = spawn({kFwupdDaemon, "--verbose"},
                    {"DBUS_SYSTEM_BUS_ADDRESS=" + address, "FWUPD_SYSCONFDIR=" + dir + "/etc",
                     "FWUPD_LOCALSTATEDIR=" + dir + "/var", "STATE_DIRECTORY=" + dir + "/var",
                     "CACHE_DIRECTORY=" + dir + "/cache", "RUNTIME_DIRECTORY=" + dir + "/run",
                     "LC_ALL=C.UTF-8"},
                    m_dir / "fwupd.log");
    const auto service = systemFwupdService();
    const auto deadline = std::chrono::steady_clock::now() + kStartTimeout;
    while (std::chrono::steady_clock::now() < deadline) {
        if (service->daemonVersion()) {
            return;
        }
        int status = 0;
        if (::waitpid(m_fwupd, &status, WNOHANG) == m_fwupd) {
            m_fwupd = -1;
            m_failure = "the fwupd daemon exited at start-up: " + log();
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    m_failure = "the fwupd daemon did not answer within 90 s: " + log();
}

FwupdFixture::~FwupdFixture() {
    stop(m_fwupd);
    stop(m_bus);
    if (!m_dir.empty()) {
        std::error_code ignored;
        std::filesystem::remove_all(m_dir, ignored);
    }
}

void FwupdFixture::stop(pid_t& pid) {
    if (pid <= 0) {
        return;
    }
    ::kill(pid, SIGTERM);
    for (int i = 0; i < 50; ++i) {
        if (::waitpid(pid, nullptr, WNOHANG) == pid) {
            pid = -1;
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    pid = -1;
}

std::string FwupdFixture::log() const {
    std::ifstream in(m_dir / "fwupd.log");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace ssdk::firmware::test
