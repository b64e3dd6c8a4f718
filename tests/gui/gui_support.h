#pragma once

#include <catch2/catch.hpp>
#include <filesystem>

#include <QApplication>
#include <QSignalSpy>
#include <QString>
#include <QWidget>

#include "app/app_services.h"
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
// The GUI's services over that recorded tree (the helper session is not started by this).
app::AppServices recordedServices(const char* name);

// The widget named "<area>.<name>" below parent (pages name their widgets so); the test
// fails when there is none.
template <typename T> T* namedChild(QWidget& parent, const char* area, const char* name) {
    auto* widget =
        parent.findChild<T*>(QLatin1String(area) + QLatin1Char('.') + QLatin1String(name));
    REQUIRE(widget != nullptr);
    return widget;
}

// With SSDK_SCREENSHOT_DIR set (docs/screenshots), saves the widget there as file once the
// event loop has laid out what was just added to it.
void screenshot(QWidget& widget, const char* file);

// Waits (up to ms) until a page's resultShown signal, watched by spy, named verb.
bool waitForResult(QSignalSpy& spy, const QString& verb, int ms = 60000);

// This machine's device at path (a lab drive a test made), discovered as the GUI does.
device::Device discoverLive(const std::string& path);

} // namespace ssdk::app::test

namespace Catch {
template <> struct StringMaker<QString> {
    static std::string convert(const QString& text) { return '"' + text.toStdString() + '"'; }
};
} // namespace Catch
