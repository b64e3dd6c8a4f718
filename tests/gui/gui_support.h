#pragma once

#include <catch2/catch.hpp>
#include <filesystem>

#include <QApplication>
#include <QString>

#include "core/device/device.h"
#include "core/device/discovery.h"

namespace ssdk::app::test {

// The process's QApplication, created (with the application theme) on first use. Every GUI
// test case calls it before touching a widget: Catch's own main creates none.
QApplication& application();

// Drives built in code, shaped like the recorded workstation tree.
device::Device nvmeSystemDisk(); // nvme0n1: GPT, EFI at /boot/efi + ext4 at /
device::Device labDrive();       // loop0: lab "demo", 8 GiB, no partitions
device::Device usbStick();       // sdb: removable, DOS table, exFAT "My Stick"

// tests/data/sysfs/<name>
std::filesystem::path recordedTree(const char* name);
device::Discovery recordedDiscovery(const char* name);

} // namespace ssdk::app::test

namespace Catch {
template <> struct StringMaker<QString> {
    static std::string convert(const QString& text) { return '"' + text.toStdString() + '"'; }
};
} // namespace Catch
