#pragma once
// The real fwupd daemon on a private system-like D-Bus, with fwupd's test plugin device
// ("Integrated Webcam™", version 1.2.2) and the fwupd-tests remote (releases 1.2.3 and 1.2.4)
// from Debian's fwupd-tests package. Everything lives in a temporary directory; the daemons
// are stopped by the destructor and, should the test process die, by PR_SET_PDEATHSIG.

#include <filesystem>
#include <string>
#include <sys/types.h>

namespace ssdk::firmware::test {

class FwupdFixture {
public:
    // Starts dbus-daemon and fwupd, points DBUS_SYSTEM_BUS_ADDRESS at the private bus and
    // waits until fwupd answers. On failure started() is false and failure() says why:
    // scripts/setup installs fwupd and fwupd-tests, so a test fails then rather than skipping.
    FwupdFixture();
    ~FwupdFixture();
    FwupdFixture(const FwupdFixture&) = delete;
    FwupdFixture& operator=(const FwupdFixture&) = delete;

    bool started() const { return m_failure.empty(); }
    const std::string& failure() const { return m_failure; }
    std::string log() const; // fwupd's verbose log, for failure messages

    static constexpr const char* kTestDeviceId = "08d460be0f1f9f128413f816022a6439e0078018";
    static constexpr const char* kTestsDir = "/usr/share/installed-tests/fwupd";

private:
    void stop(pid_t& pid);
    std::filesystem::path m_dir;
    pid_t m_bus = -1;
    pid_t m_fwupd = -1;
    std::string m_failure;
};

} // namespace ssdk::firmware::test
