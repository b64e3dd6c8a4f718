#pragma once
// What the files of test_perf_gui_integration share: the QApplication, offscreen unless
// QT_QPA_PLATFORM says otherwise, created on first use and never destroyed (tearing it down
// during static destruction, after Qt's own globals are gone, crashes on exit); and saving a
// widget as a PNG for docs/screenshots when SSDK_SCREENSHOT_DIR is set.

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

#include <QApplication>
#include <QWidget>

namespace ssdk::test {

inline QApplication& offscreenApplication() {
    static int argc = 1;
    static char name[] = "test_perf_gui_integration";
    static char* argv[] = {name, nullptr};
    if (std::getenv("QT_QPA_PLATFORM") == nullptr) {
        ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
    }
    static auto* app = new QApplication(argc, argv);
    return *app;
}

inline void saveShot(QWidget& widget, const char* file) {
    if (const char* dir = std::getenv("SSDK_SCREENSHOT_DIR")) {
        const auto path = std::filesystem::path(dir) / file;
        REQUIRE(widget.grab().save(QString::fromStdString(path.string())));
    }
}

} // namespace ssdk::test
