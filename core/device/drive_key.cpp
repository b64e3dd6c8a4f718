#include "core/device/drive_key.h"

#include <string_view>

namespace ssdk::device {

namespace {

std::string fileSafe(std::string_view text) {
    std::string result;
    for (const char c : text) {
        const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
        result += safe ? c : '_';
    }
    if (result.empty() || result.front() == '.') {
        result.insert(result.begin(), '_');
    }
    return result.substr(0, 96);
}

} // namespace

std::string driveKey(const Device& device) {
    if (device.labName) {
        return fileSafe("lab-" + *device.labName);
    }
    if (!device.serial.empty()) {
        return fileSafe(device.model.empty() ? device.serial : device.model + "-" + device.serial);
    }
    if (!device.wwn.empty()) {
        return fileSafe(device.wwn);
    }
    return fileSafe(device.name);
}

} // namespace ssdk::device
