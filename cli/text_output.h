#pragma once

#include <string>
#include <vector>

#include "core/device/device.h"

namespace ssdk::cli {

// Human output of ssdkeeperctl. Plain text, aligned columns, no colours (safe to pipe).
std::string formatDeviceTable(const std::vector<device::Device>& devices);
std::string formatDeviceDetails(const device::Device& device);

// A simple column-aligned table: the first row is the header.
std::string formatTable(const std::vector<std::vector<std::string>>& rows);

} // namespace ssdk::cli
