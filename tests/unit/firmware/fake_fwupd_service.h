#pragma once
// An FwupdService that answers from fields and records what was installed, for unit tests of
// matching, the offered releases and the install checks.

#include <map>
#include <optional>

#include "core/firmware/fwupd.h"

namespace ssdk::firmware::test {

class FakeFwupdService : public FwupdService {
public:
    std::optional<Error> failure; // every call fails with it (daemon missing, no bus)
    std::vector<FwupdDevice> deviceList;
    std::map<std::string, std::vector<FwupdRelease>> releaseLists;
    std::vector<FwupdRemote> remoteList;
    std::vector<FwupdProgress> progressToReport;
    std::vector<std::string> installed; // "deviceId version" or "deviceId cab-path"
    std::string versionAfterInstall;

    Expected<std::string> daemonVersion() override {
        if (failure) {
            return std::unexpected(*failure);
        }
        return std::string("2.0.20");
    }
    Expected<std::vector<FwupdDevice>> devices() override {
        if (failure) {
            return std::unexpected(*failure);
        }
        return deviceList;
    }
    Expected<std::vector<FwupdRelease>> releases(const std::string& deviceId) override {
        if (failure) {
            return std::unexpected(*failure);
        }
        auto it = releaseLists.find(deviceId);
        return it == releaseLists.end() ? std::vector<FwupdRelease>{} : it->second;
    }
    Expected<std::vector<FwupdRemote>> remotes() override {
        if (failure) {
            return std::unexpected(*failure);
        }
        return remoteList;
    }
    Expected<void> installRelease(const std::string& deviceId, const std::string& version,
                                  const FwupdProgressFn& progress,
                                  const std::atomic<bool>*) override {
        return install(deviceId + " " + version, progress);
    }
    Expected<void> installCabinet(const std::string& deviceId, const std::string& cabPath,
                                  const FwupdProgressFn& progress,
                                  const std::atomic<bool>*) override {
        return install(deviceId + " " + cabPath, progress);
    }

private:
    Expected<void> install(const std::string& what, const FwupdProgressFn& progress) {
        if (failure) {
            return std::unexpected(*failure);
        }
        installed.push_back(what);
        for (const auto& step : progressToReport) {
            progress(step);
        }
        for (auto& device : deviceList) {
            if (what.starts_with(device.id + " ") && !versionAfterInstall.empty()) {
                device.version = versionAfterInstall;
            }
        }
        return {};
    }
};

} // namespace ssdk::firmware::test
