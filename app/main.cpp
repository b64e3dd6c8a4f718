#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>

#include "app/app_services.h"
#include "app/i18n.h"
#include "app/main_window.h"
#include "app/settings_store.h"
#include "app/startup_screenshot.h"
#include "app/theme.h"
#include "core/base/log.h"
#include "core/base/sysfs_root.h"
#include "core/platform/platform.h"

namespace {

void fail(const QString& message) {
    std::fprintf(stderr, "ssdkeeper: %s\n", qPrintable(message));
}

bool hasDisplay() {
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) {
        const char* value = std::getenv(name);
        if (value != nullptr && *value != '\0') {
            return true;
        }
    }
    return false;
}

// Without a display, --help, --version and --screenshot still work (on Qt's offscreen
// platform); starting the window itself needs one, and the message says how to get one.
bool prepareWithoutDisplay(int argc, char** argv) {
    if (hasDisplay()) {
        return true;
    }
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help" || arg == "-v" || arg == "--version" ||
            arg.starts_with("--screenshot")) {
            setenv("QT_QPA_PLATFORM", "offscreen", 1);
            return true;
        }
    }
    std::fputs("ssdkeeper: no display found (DISPLAY and WAYLAND_DISPLAY are unset); start it "
               "in a desktop session, under `xvfb-run -a`, or with QT_QPA_PLATFORM=offscreen\n",
               stderr);
    return false;
}

} // namespace

int main(int argc, char** argv) {
    if (!prepareWithoutDisplay(argc, argv)) {
        return 1;
    }
    QApplication application(argc, argv);
    QApplication::setApplicationName(QStringLiteral("ssdkeeper"));
    QApplication::setApplicationDisplayName(QStringLiteral("SSD Keeper"));
    QApplication::setApplicationVersion(QStringLiteral(SSDK_VERSION));
    QApplication::setOrganizationName(QStringLiteral("SSD Keeper"));
    QApplication::setOrganizationDomain(QStringLiteral("ssdkeeper.github.io"));
    QApplication::setDesktopFileName(QStringLiteral("io.github.ssdkeeper.SSDKeeper"));
    ssdk::log::setup();

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("SSD Keeper: see and look after every drive in the machine."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption sysfsRoot(
        QStringLiteral("sysfs-root"),
        QStringLiteral("Show a recorded tree (DIR/sys, DIR/proc, DIR/run) instead of this "
                       "machine."),
        QStringLiteral("DIR"));
    const QCommandLineOption select(
        QStringLiteral("select"),
        QStringLiteral("Select the drive NAME (a kernel name such as "
                       "nvme0n1, or a lab drive's name) once it appears."),
        QStringLiteral("NAME"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Save the window as a PNG once the drives are shown, then quit."),
        QStringLiteral("FILE"));
    const QCommandLineOption page(
        QStringLiteral("page"),
        QStringLiteral("Show the area page TITLE (Overview, Health, …) at start."),
        QStringLiteral("TITLE"));
    const QCommandLineOption themeOption(
        QStringLiteral("theme"),
        QStringLiteral("Colours: light, dark or system (the desktop's choice; the default). "
                       "SSDK_THEME sets the same."),
        QStringLiteral("SCHEME"));
    const QCommandLineOption size(QStringLiteral("size"),
                                  QStringLiteral("Start with a window of W×H pixels (1280x900)."),
                                  QStringLiteral("WxH"));
    const QCommandLineOption language = ssdk::app::languageOption();
    parser.addOptions({sysfsRoot, select, page, screenshot, themeOption, size, language});
    parser.process(application);
    ssdk::app::installTranslations(parser.value(language));

    std::optional<ssdk::app::SchemeChoice> schemeChoice;
    if (parser.isSet(themeOption)) {
        schemeChoice = ssdk::app::parseSchemeChoice(parser.value(themeOption));
        if (!schemeChoice) {
            fail(QStringLiteral("--theme %1: use light, dark or system")
                     .arg(parser.value(themeOption)));
            return 2;
        }
    }
    QSize windowSize;
    if (parser.isSet(size)) {
        const auto match = QRegularExpression(QStringLiteral("^(\\d{3,5})[xX×](\\d{3,5})$"))
                               .match(parser.value(size));
        if (!match.hasMatch()) {
            fail(QStringLiteral("--size %1: use WIDTHxHEIGHT, e.g. 1280x900")
                     .arg(parser.value(size)));
            return 2;
        }
        windowSize = QSize(match.captured(1).toInt(), match.captured(2).toInt());
    }

    ssdk::SysfsRoot root;
    if (parser.isSet(sysfsRoot)) {
        const QString dir = parser.value(sysfsRoot);
        if (!QFileInfo(dir).isDir()) {
            fail(QStringLiteral("--sysfs-root %1: not a directory").arg(dir));
            return 2;
        }
        root = ssdk::SysfsRoot(std::filesystem::path(QDir(dir).absolutePath().toStdString()));
    }
    // The one wiring point: every page gets its helper session, tree and Platform from here.
    // The helper session is the platform's (pkexec on Linux), started on its first call.
    ssdk::app::AppServices services(std::move(root), nullptr, ssdk::platform::makePlatform());

    ssdk::app::applyThemeFollowingDesktop(application, schemeChoice);
    ssdk::app::MainWindow window(std::move(services));
    // What the last run left (window, page, drive, options); --screenshot shows a fresh window
    // and leaves the settings alone.
    std::unique_ptr<QSettings> settings;
    if (!parser.isSet(screenshot)) {
        settings = ssdk::app::openSettings();
        window.restoreState(*settings);
        QObject::connect(&application, &QApplication::aboutToQuit, &window,
                         [&window, &settings] { window.saveState(*settings); });
    }
    if (windowSize.isValid()) {
        window.resize(windowSize);
    }
    if (parser.isSet(select)) {
        window.selectWhenAvailable(parser.value(select));
    }
    if (parser.isSet(page) && !window.showPage(parser.value(page))) {
        fail(QStringLiteral("--page %1: there is no such page").arg(parser.value(page)));
        return 2;
    }
    if (parser.isSet(screenshot)) {
        auto* shot = new ssdk::app::StartupScreenshot(window, parser.value(screenshot),
                                                      parser.value(select));
        QObject::connect(shot, &ssdk::app::StartupScreenshot::finished, &application,
                         [](int exitCode, const QString& message) {
                             if (!message.isEmpty()) {
                                 fail(message);
                             }
                             QApplication::exit(exitCode);
                         });
    }
    window.show();
    return QApplication::exec();
}
