#include "cli/lab_commands.h"

#include <fmt/format.h>
#include <iostream>
#include <memory>

#include "cli/text_output.h"
#include "core/lab/lab_client.h"
#include "core/rpc/client.h"

namespace ssdk::cli {

int runLabCreate(const CliContext& context, const lab::LabCreateRequest& request) {
    if (auto valid = lab::validateLabName(request.name); !valid) {
        return reportError(context, valid.error());
    }
    lab::LabClient helper(context.helper());
    auto result = helper.create(request);
    if (!result) {
        return reportError(
            context, Error(result.error()).addContext("creating lab drive '" + request.name + "'"));
    }
    if (context.json) {
        printJson(lab::toJson(*result));
        return kExitOk;
    }
    std::cout << fmt::format("Created lab drive '{}': {} ({}, {}-byte sectors, layout {})\n"
                             "Sparse image: {}\n",
                             result->name, result->devicePath, formatIec(result->size),
                             request.logicalSectorSize, request.layout, result->image.string());
    return kExitOk;
}

int runLabList(const CliContext& context) {
    const lab::LabManager manager(lab::userStateDirectory(), SysfsRoot(), context.processes());
    auto drives = manager.list();
    if (!drives) {
        return reportError(context, drives.error());
    }
    if (context.json) {
        Json array = Json::array();
        for (const auto& drive : *drives) {
            array.push_back(toJson(drive));
        }
        printJson(Json{{"version", 1}, {"lab_drives", std::move(array)}});
        return kExitOk;
    }
    if (drives->empty()) {
        std::cout << "No lab drives. Create one with: ssdkeeperctl lab create --size 8G\n";
        return kExitOk;
    }
    std::vector<std::vector<std::string>> rows{{"NAME", "DEVICE", "SIZE", "ALLOCATED", "IMAGE"}};
    for (const auto& drive : *drives) {
        rows.push_back({drive.name, drive.devicePath.empty() ? "(detached)" : drive.devicePath,
                        formatIec(drive.size), formatIec(drive.allocated), drive.image.string()});
    }
    std::cout << formatTable(rows);
    return kExitOk;
}

int runLabDestroy(const CliContext& context, const std::string& nameOrDevice) {
    lab::LabClient helper(context.helper());
    auto result = helper.destroy({nameOrDevice});
    if (!result) {
        return reportError(
            context,
            Error(result.error()).addContext("destroying lab drive '" + nameOrDevice + "'"));
    }
    if (context.json) {
        printJson(lab::toJson(*result));
    } else {
        std::cout << "Destroyed lab drive '" << nameOrDevice
                  << "': loop device detached and image removed.\n";
    }
    return kExitOk;
}

void addLabCommands(CLI::App& app, CliContext& context, Commands& commands) {
    auto* lab = app.add_subcommand("lab", "Lab drives: sparse images on loop devices for safe "
                                          "experiments with destructive features");
    lab->require_subcommand(1);

    struct CreateOptions {
        lab::LabCreateRequest request;
        std::string size = "8G";
    };
    auto create = std::make_shared<CreateOptions>();
    auto* labCreate = lab->add_subcommand("create", "Create and attach a lab drive (needs root; "
                                                    "asks through polkit)");
    labCreate->add_option("--size", create->size, "Apparent size, e.g. 8G, 512M, 100GB")
        ->capture_default_str();
    labCreate->add_option("--name", create->request.name, "Name ([A-Za-z0-9_-], up to 32)")
        ->capture_default_str();
    labCreate->add_option("--sector-size", create->request.logicalSectorSize, "Logical sector size")
        ->check(CLI::IsMember({512, 4096}))
        ->capture_default_str();
    labCreate
        ->add_option("--layout", create->request.layout,
                     "empty, or gpt-ext4 (a GPT with one ext4 partition)")
        ->check(CLI::IsMember({"empty", "gpt-ext4"}))
        ->capture_default_str();
    commands.add(labCreate, [&context, create] {
        auto size = parseSize(create->size);
        if (!size) {
            return reportError(context, size.error());
        }
        lab::LabCreateRequest request = create->request;
        request.size = *size;
        return runLabCreate(context, request);
    });

    auto* labList = lab->add_subcommand("list", "List lab drives of this user");
    commands.add(labList, [&context] { return runLabList(context); });

    auto target = std::make_shared<std::string>();
    auto* labDestroy = lab->add_subcommand("destroy", "Detach a lab drive and delete its image");
    labDestroy->add_option("target", *target, "Lab drive name or its /dev/loopN")->required();
    commands.add(labDestroy, [&context, target] { return runLabDestroy(context, *target); });
}

} // namespace ssdk::cli
