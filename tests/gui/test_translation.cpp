#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTabWidget>

#include "app/i18n.h"
#include "app/main_window.h"
#include "app/pages/overview_page.h"
#include "core/maintenance/erase/guards.h"
#include "core/smart/health_rules.h"
#include "tests/gui/gui_support.h"

using namespace ssdk;
using namespace ssdk::app;

namespace {

// Puts the GUI back in English when a test ends, whatever it installed.
struct EnglishAfter {
    ~EnglishAfter() { installTranslations(QStringLiteral("en")); }
};

QStringList tabTexts(const QTabWidget& tabs) {
    QStringList texts;
    for (int index = 0; index < tabs.count(); ++index) {
        texts << tabs.tabText(index);
    }
    return texts;
}

bool hasLabel(const QWidget& parent, const QString& text) {
    const auto labels = parent.findChildren<QLabel*>();
    return std::any_of(labels.begin(), labels.end(),
                       [&text](const QLabel* label) { return label->text() == text; });
}

// The mnemonic of a menu text ("&Datei" → 'd'), or 0 without one.
QChar mnemonic(const QString& text) {
    const qsizetype at = text.indexOf(QLatin1Char('&'));
    return at >= 0 && at + 1 < text.size() ? text.at(at + 1).toLower() : QChar();
}

std::string erasingTheSystemDisk() {
    const auto device = test::nvmeSystemDisk();
    const auto checked =
        maintenance::erase::checkEraseGuards(device, maintenance::erase::confirmationWord(device));
    REQUIRE_FALSE(checked);
    return checked.error().message();
}

std::string healthWithoutSmart() {
    smart::SmartReport report;
    report.smartAvailable = false;
    const auto reason = smart::missingSmartData(report);
    REQUIRE(reason);
    return reason->message;
}

} // namespace

TEST_CASE("the German translation shows the window, a page and core's verdicts in German") {
    test::application();
    const EnglishAfter english;
    REQUIRE(installTranslations(QStringLiteral("de")) == QStringLiteral("de"));

    MainWindow window(test::recordedServices("workstation"));
    QSignalSpy shown(&window, &MainWindow::devicesShown);
    window.selectWhenAvailable(QStringLiteral("sda"));
    window.show();
    REQUIRE(shown.wait(5000));

    const QStringList tabs = tabTexts(*window.pages());
    CHECK(tabs.contains(QStringLiteral("Übersicht")));
    CHECK(tabs.contains(QStringLiteral("Zustand")));
    CHECK(tabs.contains(QStringLiteral("Reservebereich")));
    CHECK_FALSE(tabs.contains(QStringLiteral("Overview")));
    const auto* header = window.findChild<QLabel*>(QStringLiteral("drivesHeader"));
    REQUIRE(header != nullptr);
    CHECK(header->text() == QStringLiteral("LAUFWERKE"));

    // The menus: German titles and items, each mnemonic used once within its menu and bar.
    QStringList menuTitles;
    std::set<QChar> barMnemonics;
    for (QAction* menuAction : window.menuBar()->actions()) {
        menuTitles << menuAction->text();
        CHECK(barMnemonics.insert(mnemonic(menuAction->text())).second);
        std::set<QChar> itemMnemonics;
        for (QAction* item : menuAction->menu()->actions()) {
            if (!item->isSeparator() && !mnemonic(item->text()).isNull()) {
                CHECK(itemMnemonics.insert(mnemonic(item->text())).second);
            }
        }
    }
    CHECK(menuTitles == QStringList{QStringLiteral("&Datei"), QStringLiteral("&Laufwerke"),
                                    QStringLiteral("&Hilfe")});

    // The Overview page of the selected drive.
    CHECK(hasLabel(*window.overviewPage(), QStringLiteral("Identität")));
    CHECK(hasLabel(*window.overviewPage(), QStringLiteral("Kapazität und Fähigkeiten")));
    CHECK_FALSE(hasLabel(*window.overviewPage(), QStringLiteral("Identity")));

    // Plural forms.
    CHECK(QCoreApplication::translate("ssdk::app::PartitionBar", "%n partitions: %1", nullptr, 1) ==
          QStringLiteral("1 Partition: %1"));
    CHECK(QCoreApplication::translate("ssdk::app::PartitionBar", "%n partitions: %1", nullptr, 2) ==
          QStringLiteral("2 Partitionen: %1"));

    // Core's sentences go through the same translation, arguments formatted in.
    CHECK(erasingTheSystemDisk() ==
          "/dev/nvme0n1 enthält das Wurzeldateisystem des laufenden Systems; es wird nicht "
          "gelöscht");
    CHECK(healthWithoutSmart() ==
          "Das Laufwerk bietet kein SMART, daher lässt sich sein Zustand nicht beurteilen.");
}

TEST_CASE("a language without a translation, or English, leaves everything English") {
    test::application();
    const EnglishAfter english;
    REQUIRE(installTranslations(QStringLiteral("de")) == QStringLiteral("de"));
    CHECK(installTranslations(QStringLiteral("en")).isEmpty());
    CHECK(QCoreApplication::translate("ssdk::app::MainWindow", "Overview") ==
          QStringLiteral("Overview"));
    CHECK(erasingTheSystemDisk() ==
          "/dev/nvme0n1 holds the running system's root filesystem; refusing to erase it");

    CHECK(QCoreApplication::translate("ssdk::app::PartitionBar", "%n partitions: %1", nullptr, 1) ==
          QStringLiteral("1 partition: %1"));
    CHECK(QCoreApplication::translate("ssdk::app::PartitionBar", "%n partitions: %1", nullptr, 3) ==
          QStringLiteral("3 partitions: %1"));

    CHECK(installTranslations(QStringLiteral("fr")).isEmpty());
    CHECK(healthWithoutSmart() ==
          "The drive does not offer SMART, so its health cannot be judged.");
}

TEST_CASE("a regional variant falls back to its language's translation") {
    test::application();
    const EnglishAfter english;
    CHECK(installTranslations(QStringLiteral("de_AT")) == QStringLiteral("de"));
    CHECK(installTranslations(QStringLiteral("de-CH")) == QStringLiteral("de"));
    CHECK(QCoreApplication::translate("ssdk::app::MainWindow", "Overview") ==
          QStringLiteral("Übersicht"));
}
