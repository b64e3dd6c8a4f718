#include <catch2/catch.hpp>

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QChartView>
#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>

#include "app/main_window.h"
#include "app/widgets/analysis_chart.h"
#include "app/widgets/badge.h"
#include "app/widgets/partition_bar.h"
#include "app/widgets/spare_area_bar.h"
#include "app/widgets/throughput_chart.h"
#include "app/widgets/what_if_panel.h"
#include "tests/gui/gui_support.h"

using namespace ssdk;
using namespace ssdk::app;

namespace {

// Controls a screen reader user reaches, and the widgets we paint ourselves.
bool needsName(const QWidget& widget) {
    if (qobject_cast<const QScrollBar*>(&widget) != nullptr ||
        qobject_cast<const QHeaderView*>(&widget) != nullptr) {
        return false;
    }
    return qobject_cast<const QAbstractButton*>(&widget) != nullptr ||
           qobject_cast<const QComboBox*>(&widget) != nullptr ||
           qobject_cast<const QAbstractSpinBox*>(&widget) != nullptr ||
           qobject_cast<const QAbstractSlider*>(&widget) != nullptr ||
           qobject_cast<const QLineEdit*>(&widget) != nullptr ||
           qobject_cast<const QAbstractItemView*>(&widget) != nullptr ||
           qobject_cast<const PartitionBar*>(&widget) != nullptr ||
           qobject_cast<const SpareAreaBar*>(&widget) != nullptr ||
           qobject_cast<const ThroughputChart*>(&widget) != nullptr ||
           qobject_cast<const AnalysisChart*>(&widget) != nullptr ||
           qobject_cast<const Badge*>(&widget) != nullptr ||
           qobject_cast<const WhatIfPanel*>(&widget) != nullptr;
}

// Parts Qt builds inside a control (a combo box's editor, a spin box's line edit, a tab bar's
// scroll arrows, a table's corner button), which the control itself names.
bool isInnerPart(const QWidget& widget) {
    if (widget.objectName().startsWith(QLatin1String("qt_"))) {
        return true;
    }
    const QWidget* parent = widget.parentWidget();
    return parent != nullptr && (qobject_cast<const QComboBox*>(parent) != nullptr ||
                                 qobject_cast<const QAbstractSpinBox*>(parent) != nullptr ||
                                 qobject_cast<const QTabBar*>(parent) != nullptr ||
                                 qobject_cast<const QAbstractItemView*>(parent) != nullptr ||
                                 qobject_cast<const QChartView*>(parent) != nullptr);
}

QString describe(const QWidget& widget) {
    QString where = widget.objectName();
    for (const QWidget* up = widget.parentWidget(); up != nullptr && where.isEmpty();
         up = up->parentWidget()) {
        if (!up->objectName().isEmpty()) {
            where = QStringLiteral("in ") + up->objectName();
        }
    }
    return QString::fromLatin1(widget.metaObject()->className()) + QLatin1Char(' ') + where;
}

// The visible widgets of window that need an accessible name and have none.
QStringList unnamed(QWidget& window) {
    QStringList offenders;
    for (QWidget* widget : window.findChildren<QWidget*>()) {
        if (!widget->isVisibleTo(&window) || !needsName(*widget) || isInnerPart(*widget)) {
            continue;
        }
        QAccessibleInterface* accessible = QAccessible::queryAccessibleInterface(widget);
        if (accessible == nullptr || accessible->text(QAccessible::Name).trimmed().isEmpty()) {
            offenders << describe(*widget);
        }
    }
    offenders.removeDuplicates();
    return offenders;
}

} // namespace

TEST_CASE("every control and painted widget on every page has an accessible name") {
    test::application();
    MainWindow window(test::recordedServices("workstation"));
    QSignalSpy shown(&window, &MainWindow::devicesShown);
    window.selectWhenAvailable(QStringLiteral("nvme0n1"));
    window.resize(1280, 900);
    window.show();
    REQUIRE(shown.wait(5000));
    REQUIRE(window.isSelected(QStringLiteral("nvme0n1")));

    QStringList offenders;
    for (int index = 0; index < window.pages()->count(); ++index) {
        window.pages()->setCurrentIndex(index);
        for (int i = 0; i < 50 && window.currentPageLoading(); ++i) {
            QTest::qWait(100);
        }
        QTest::qWait(50);
        for (const QString& offender : unnamed(window)) {
            offenders << window.currentPageTitle() + QStringLiteral(": ") + offender;
        }
    }
    offenders.removeDuplicates();
    INFO(offenders.join(QLatin1Char('\n')).toStdString());
    CHECK(offenders.isEmpty());
}

TEST_CASE("the painted bars describe what they show") {
    test::application();
    const device::Device disk = test::nvmeSystemDisk();
    PartitionBar bar;
    bar.setDevice(&disk);
    QAccessibleInterface* accessible = QAccessible::queryAccessibleInterface(&bar);
    REQUIRE(accessible != nullptr);
    CHECK_FALSE(accessible->text(QAccessible::Name).isEmpty());
    const QString description = accessible->text(QAccessible::Description);
    INFO(description.toStdString());
    CHECK(description.startsWith(QStringLiteral("%1 partitions").arg(disk.partitions.size())));
    CHECK(description.contains(QStringLiteral("ext4")));
    bar.setDevice(nullptr);
    CHECK(accessible->text(QAccessible::Description) != description);
}
