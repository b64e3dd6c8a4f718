#include <catch2/catch.hpp>

#include <QCheckBox>
#include <QComboBox>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QVBoxLayout>

#include "app/main_window.h"
#include "app/settings_store.h"
#include "tests/gui/gui_support.h"

using namespace ssdk;
using namespace ssdk::app;

namespace {

// The window over the recorded workstation, its first discovery result shown.
struct ShownWindow {
    MainWindow window{test::recordedServices("workstation")};

    explicit ShownWindow(const QSettings* settings) {
        QSignalSpy shown(&window, &MainWindow::devicesShown);
        if (settings != nullptr) {
            window.restoreState(*settings);
        }
        window.show();
        REQUIRE(shown.wait(5000));
    }
};

} // namespace

TEST_CASE("the window remembers its size, page, drive and options between runs") {
    test::application();
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("ssdkeeper.ini"));
    const QString firstPage = [] {
        ShownWindow first(nullptr);
        return first.window.pages()->tabText(0);
    }();

    QString remembered;
    {
        QSettings settings(file, QSettings::IniFormat);
        ShownWindow first(&settings);
        first.window.resize(1111, 777);
        REQUIRE(first.window.selectDevice(QStringLiteral("sda")));
        first.window.pages()->setCurrentIndex(2);
        remembered = first.window.currentPageTitle();
        // Every remembered option, changed away from its default.
        int marked = 0;
        for (QWidget* widget : first.window.findChildren<QWidget*>()) {
            if (!widget->property("remember").toBool()) {
                continue;
            }
            ++marked;
            if (auto* box = qobject_cast<QCheckBox*>(widget)) {
                box->setChecked(!box->isChecked());
            } else if (auto* combo = qobject_cast<QComboBox*>(widget);
                       combo && combo->count() > 1) {
                combo->setCurrentIndex((combo->currentIndex() + 1) % combo->count());
            } else if (auto* spin = qobject_cast<QSpinBox*>(widget)) {
                spin->setValue(spin->value() == spin->minimum() ? spin->maximum()
                                                                : spin->minimum());
            }
        }
        CHECK(marked > 0);
        first.window.saveState(settings);
        settings.sync();
    }

    QSettings settings(file, QSettings::IniFormat);
    ShownWindow second(&settings);
    CHECK(second.window.size() == QSize(1111, 777));
    CHECK(second.window.currentPageTitle() == remembered);
    CHECK(second.window.currentPageTitle() != firstPage);
    CHECK(second.window.selectedDeviceName() == "sda");
    for (QWidget* widget : second.window.findChildren<QWidget*>()) {
        if (!widget->property("remember").toBool()) {
            continue;
        }
        INFO(widget->objectName().toStdString());
        const QVariant saved = settings.value(QStringLiteral("options/") + widget->objectName());
        REQUIRE(saved.isValid());
        if (auto* box = qobject_cast<QCheckBox*>(widget)) {
            CHECK(box->isChecked() == saved.toBool());
        } else if (auto* combo = qobject_cast<QComboBox*>(widget)) {
            CHECK(combo->currentText() == saved.toString());
        } else if (auto* spin = qobject_cast<QSpinBox*>(widget)) {
            CHECK(spin->value() == saved.toInt());
        }
    }
}

TEST_CASE("the command line (--select, --page) wins over what the last run left") {
    test::application();
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    QSettings settings(dir.filePath(QStringLiteral("ssdkeeper.ini")), QSettings::IniFormat);
    settings.setValue(QStringLiteral("window/drive"), QStringLiteral("sda"));
    settings.setValue(QStringLiteral("window/page"), 1);

    MainWindow window(test::recordedServices("workstation"));
    QSignalSpy shown(&window, &MainWindow::devicesShown);
    window.restoreState(settings);
    window.selectWhenAvailable(QStringLiteral("nvme0n1")); // as main does for --select
    REQUIRE(window.showPage(QStringLiteral("Firmware")));  // and for --page
    window.show();
    REQUIRE(shown.wait(5000));
    CHECK(window.selectedDeviceName() == "nvme0n1");
    CHECK(window.currentPageTitle() == "Firmware");
}

TEST_CASE("remembered widgets: saved by objectName, restored only to values they can take") {
    test::application();
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    QSettings settings(dir.filePath(QStringLiteral("options.ini")), QSettings::IniFormat);
    QWidget root;
    auto* layout = new QVBoxLayout(&root);
    auto* box = new QCheckBox;
    box->setObjectName(QStringLiteral("t.box"));
    remember(box);
    auto* combo = new QComboBox;
    combo->setObjectName(QStringLiteral("t.combo"));
    combo->addItems({QStringLiteral("ext4"), QStringLiteral("xfs")});
    remember(combo);
    auto* spin = new QSpinBox;
    spin->setObjectName(QStringLiteral("t.spin"));
    spin->setRange(0, 50);
    remember(spin);
    auto* forgotten = new QSpinBox;
    forgotten->setObjectName(QStringLiteral("t.forgotten"));
    for (QWidget* w : std::initializer_list<QWidget*>{box, combo, spin, forgotten}) {
        layout->addWidget(w);
    }
    box->setChecked(true);
    combo->setCurrentIndex(1);
    spin->setValue(28);
    forgotten->setValue(7);
    saveRemembered(root, settings);
    CHECK_FALSE(settings.contains(QStringLiteral("options/t.forgotten")));

    box->setChecked(false);
    combo->setCurrentIndex(0);
    spin->setValue(0);
    restoreRemembered(root, settings);
    CHECK(box->isChecked());
    CHECK(combo->currentText() == "xfs");
    CHECK(spin->value() == 28);

    settings.setValue(QStringLiteral("options/t.combo"), QStringLiteral("zfs"));
    settings.setValue(QStringLiteral("options/t.spin"), 99);
    restoreRemembered(root, settings);
    CHECK(combo->currentText() == "xfs");
    CHECK(spin->value() == 50);
}
