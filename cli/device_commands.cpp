#include "cli/device_commands.h"

#include <iostream>
#include <memory>

#include "cli/text_output.h"
#include "core/device/device_json.h"

namespace ssdk::cli {

int runList(const CliContext& context) {
    auto devices = context.makeDiscovery().discover();
    if (!devices) {
        return reportError(context, devices.error());
    }
    if (context.json) {
        Json array = Json::array();
        for (const auto& device : *devices) {
            array.push_back(device::toJson(device));
        }
        printJson(Json{{"version", 1}, {"devices", std::move(array)}});
    } else {
        std::cout << formatDeviceTable(*devices);
    }
    return kExitOk;
}

int runInfo(const CliContext& context, const std::string& name) {
    auto device = context.makeDiscovery().find(name);
    if (!device) {
        return reportError(context, device.error());
    }
    if (context.json) {
        printJson(device::toJson(*device));
    } else {
        std::cout << formatDeviceDetails(*device);
    }
    return kExitOk;
}

void addDeviceCommands(CLI::App& app, CliContext& context, Commands& commands) {
    auto* list = app.add_subcommand("list", "List block devices with identity and capabilities");
    commands.add(list, [&context] { return runList(context); });

    auto device = std::make_shared<std::string>();
    auto* info = app.add_subcommand("info", "Show everything known about one device");
    info->add_option("device", *device, "Device name, /dev path or by-id link")->required();
    commands.add(info, [&context, device] { return runInfo(context, *device); });
}

} // namespace ssdk::cli
