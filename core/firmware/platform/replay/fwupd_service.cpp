#include "core/base/platform/replay/unavailable.h"
#include "core/firmware/fwupd.h"

namespace ssdk::firmware {

namespace {

// No system bus and no fwupd daemon to ask.
class UnavailableFwupdService final : public FwupdService {
public:
    Expected<std::string> daemonVersion() override { return refused(); }
    Expected<std::vector<FwupdDevice>> devices() override { return refused(); }
    Expected<std::vector<FwupdRelease>> releases(const std::string& /*deviceId*/) override {
        return refused();
    }
    Expected<std::vector<FwupdRemote>> remotes() override { return refused(); }
    Expected<void> installRelease(const std::string& /*deviceId*/, const std::string& /*version*/,
                                  const FwupdProgressFn& /*progress*/,
                                  const std::atomic<bool>* /*cancel*/) override {
        return refused();
    }
    Expected<void> installCabinet(const std::string& /*deviceId*/, const std::string& /*cabPath*/,
                                  const FwupdProgressFn& /*progress*/,
                                  const std::atomic<bool>* /*cancel*/) override {
        return refused();
    }

private:
    static std::unexpected<Error> refused() {
        return std::unexpected(replay::unavailable("fwupd"));
    }
};

} // namespace

std::unique_ptr<FwupdService> systemFwupdService() {
    return std::make_unique<UnavailableFwupdService>();
}

} // namespace ssdk::firmware
