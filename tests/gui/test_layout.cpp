// Every page of the main window at 1024×700, the smallest window the app promises to work in
// (issue 28 §4): no visible button, tab or label may be cut, and no two widgets of one layout
// may overlap. CTest runs this executable twice: as it is, and with QT_SCALE_FACTOR=2 (the
// same logical size on a 2048×1400 screen, glyphs rendered at twice the pixels), see
// tests/gui/CMakeLists.txt.
#include <catch2/catch.hpp>

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLayout>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>

#include "app/main_window.h"
#include "app/models/drive_list_model.h"
#include "tests/gui/gui_support.h"

using namespace ssdk;
using namespace ssdk::app;

namespace {

constexpr QSize kSmallWindow(1024, 700);

const QStringList kPages{QStringLiteral("Overview"),    QStringLiteral("Health"),
                         QStringLiteral("Performance"), QStringLiteral("Spare Area"),
                         QStringLiteral("Maintenance"), QStringLiteral("Firmware"),
                         QStringLiteral("RAM Cache")};

// QTabBar::tabSizeHint is protected; a pointer to it through a class that makes it public is
// an ordinary pointer to QTabBar's member.
struct TabBarAccess : QTabBar {
    using QTabBar::tabSizeHint;
};

QString describe(const QWidget& widget) {
    QString text = QString::fromLatin1(widget.metaObject()->className());
    if (!widget.objectName().isEmpty()) {
        text += QLatin1Char(' ') + widget.objectName();
    }
    if (const auto* button = qobject_cast<const QAbstractButton*>(&widget)) {
        text += QStringLiteral(" \"%1\"").arg(button->text());
    } else if (const auto* label = qobject_cast<const QLabel*>(&widget)) {
        text += QStringLiteral(" \"%1\"").arg(label->text().left(60));
    }
    return text;
}

// Widgets that are part of another widget's own drawing (scroll bars, spin box and combo box
// internals, a tab bar's scroll arrows) are that widget's business.
bool isInternalPart(const QWidget& widget) {
    for (const QWidget* parent = widget.parentWidget(); parent != nullptr;
         parent = parent->parentWidget()) {
        if (qobject_cast<const QAbstractSpinBox*>(parent) != nullptr ||
            qobject_cast<const QComboBox*>(parent) != nullptr ||
            qobject_cast<const QScrollBar*>(parent) != nullptr) {
            return true;
        }
    }
    return qobject_cast<const QTabBar*>(widget.parentWidget()) != nullptr;
}

void collectLayoutWidgets(const QLayout& layout, QList<QWidget*>& widgets) {
    for (int i = 0; i < layout.count(); ++i) {
        QLayoutItem* item = layout.itemAt(i);
        if (QWidget* widget = item->widget(); widget != nullptr && widget->isVisible()) {
            widgets << widget;
        } else if (const QLayout* inner = item->layout()) {
            collectLayoutWidgets(*inner, widgets);
        }
    }
}

void checkTabBar(const QTabBar& bar, QStringList& problems) {
    const auto sizeHint = &TabBarAccess::tabSizeHint;
    for (int i = 0; i < bar.count(); ++i) {
        if (!bar.isTabVisible(i)) {
            continue;
        }
        const QRect rect = bar.tabRect(i);
        if (!bar.rect().contains(rect) || rect.width() < (bar.*sizeHint)(i).width()) {
            problems << QStringLiteral("tab \"%1\" is cut (%2 px of %3)")
                            .arg(bar.tabText(i))
                            .arg(bar.rect().intersected(rect).width())
                            .arg((bar.*sizeHint)(i).width());
        }
    }
    for (const auto* arrow : bar.findChildren<QAbstractButton*>(Qt::FindDirectChildrenOnly)) {
        if (arrow->isVisible()) {
            problems << QStringLiteral("tab bar with \"%1\" scrolls: its tabs do not fit")
                            .arg(bar.tabText(0));
            break;
        }
    }
}

// What is wrong with widget at its present size; empty when nothing is.
void checkWidget(const QWidget& widget, QStringList& problems) {
    if (isInternalPart(widget)) {
        return;
    }
    if (const auto* bar = qobject_cast<const QTabBar*>(&widget)) {
        checkTabBar(*bar, problems);
    }
    if (const auto* button = qobject_cast<const QAbstractButton*>(&widget);
        button != nullptr && !button->text().isEmpty()) {
        const QSize wanted = button->sizeHint();
        if (button->width() < wanted.width() || button->height() < wanted.height()) {
            problems << QStringLiteral("%1 is cut: %2×%3 of %4×%5")
                            .arg(describe(widget))
                            .arg(button->width())
                            .arg(button->height())
                            .arg(wanted.width())
                            .arg(wanted.height());
        }
    }
    if (const auto* label = qobject_cast<const QLabel*>(&widget);
        label != nullptr && !label->text().isEmpty()) {
        if (label->wordWrap()) {
            const int wanted = label->heightForWidth(label->width());
            if (label->height() < wanted) {
                problems << QStringLiteral("%1 is cut: %2 px high of %3")
                                .arg(describe(widget))
                                .arg(label->height())
                                .arg(wanted);
            }
        } else {
            const QSize wanted = label->sizeHint();
            if (label->width() < wanted.width() || label->height() < wanted.height()) {
                problems << QStringLiteral("%1 is cut: %2×%3 of %4×%5")
                                .arg(describe(widget))
                                .arg(label->width())
                                .arg(label->height())
                                .arg(wanted.width())
                                .arg(wanted.height());
            }
        }
    }
    if (const auto* area = qobject_cast<const QScrollArea*>(&widget);
        area != nullptr && area->widget() != nullptr &&
        area->horizontalScrollBarPolicy() == Qt::ScrollBarAlwaysOff &&
        area->widget()->width() > area->viewport()->width()) {
        problems << QStringLiteral("%1 is wider than its page: %2 px in %3")
                        .arg(describe(*area->widget()))
                        .arg(area->widget()->width())
                        .arg(area->viewport()->width());
    }
    if (const QLayout* layout = widget.layout()) {
        QList<QWidget*> children;
        collectLayoutWidgets(*layout, children);
        for (qsizetype a = 0; a < children.size(); ++a) {
            for (qsizetype b = a + 1; b < children.size(); ++b) {
                if (children[a]->geometry().intersects(children[b]->geometry())) {
                    problems << QStringLiteral("%1 overlaps %2")
                                    .arg(describe(*children[a]), describe(*children[b]));
                }
            }
        }
    }
}

// Every problem of the window's visible widgets.
QStringList layoutProblems(QWidget& window) {
    QStringList problems;
    checkWidget(window, problems);
    for (const QWidget* widget : window.findChildren<QWidget*>()) {
        if (widget->isVisible() && !widget->isWindow()) {
            checkWidget(*widget, problems);
        }
    }
    problems.removeDuplicates();
    return problems;
}

// The visible widgets that need more than kSmallWindow allows, smallest first: where a
// window that cannot shrink to kSmallWindow is held open.
QString widestParts(QWidget& window) {
    QStringList parts;
    for (const QWidget* widget : window.findChildren<QWidget*>()) {
        const QSize least = widget->minimumSizeHint().expandedTo(widget->minimumSize());
        if (widget->isVisible() && !isInternalPart(*widget) &&
            (least.width() > kSmallWindow.width() - 250 ||
             least.height() > kSmallWindow.height() - 150)) {
            parts << QStringLiteral("%1 %2×%3")
                         .arg(describe(*widget))
                         .arg(least.width())
                         .arg(least.height());
        }
    }
    // A tab widget is as large as its largest page, shown or not.
    for (const QTabWidget* tabs : window.findChildren<QTabWidget*>()) {
        for (int i = 0; i < tabs->count(); ++i) {
            const QSize least =
                tabs->widget(i)->minimumSizeHint().expandedTo(tabs->widget(i)->minimumSize());
            parts << QStringLiteral("tab \"%1\" %2×%3")
                         .arg(tabs->tabText(i))
                         .arg(least.width())
                         .arg(least.height());
        }
    }
    return parts.join(QStringLiteral("; "));
}

void settle(MainWindow& window) {
    for (int waited = 0; waited < 5000 && window.currentPageLoading(); waited += 50) {
        QTest::qWait(50);
    }
    // Rows shown or hidden by the new drive are laid out over a few passes of the event loop.
    for (int i = 0; i < 5; ++i) {
        QTest::qWait(20);
    }
}

// Shows every page of every drive of the recorded workstation in a 1024×700 window; the
// problems found, each "<drive> / <page>: <problem>".
QStringList problemsOnEveryPage(const char* shotSuffix) {
    MainWindow window(app::test::recordedServices("workstation"));
    QSignalSpy shown(&window, &MainWindow::devicesShown);
    window.resize(kSmallWindow);
    window.show();
    REQUIRE(shown.wait(5000));
    CHECK(window.size() == kSmallWindow); // nothing makes the window wider or taller
    QStringList problems;
    for (int row = 0; row < window.driveModel()->rowCount(); ++row) {
        const QString drive =
            window.driveModel()->index(row).data(DriveListModel::NameRole).toString();
        REQUIRE(window.selectDevice(drive));
        for (const QString& page : kPages) {
            REQUIRE(window.showPage(page));
            settle(window);
            if (window.size() != kSmallWindow) {
                problems << QStringLiteral("%1 / %2: the window is %3×%4; its widest parts: %5")
                                .arg(drive, page)
                                .arg(window.width())
                                .arg(window.height())
                                .arg(widestParts(window));
            }
            for (const QString& problem : layoutProblems(window)) {
                problems << QStringLiteral("%1 / %2: %3").arg(drive, page, problem);
            }
            const QString shot =
                QStringLiteral("layout-%1-%2%3.png")
                    .arg(drive, QString(page).remove(QLatin1Char(' ')), QLatin1String(shotSuffix));
            app::test::screenshot(window, shot.toUtf8().constData());
        }
    }
    return problems;
}

} // namespace

TEST_CASE("every page fits a 1024x700 window: no cut button, tab or label, no overlap",
          "[scaling]") {
    app::test::application();
    const bool scaled = qEnvironmentVariableIsSet("QT_SCALE_FACTOR");
    const QStringList problems = problemsOnEveryPage(scaled ? "@2x" : "");
    INFO(problems.join(QLatin1Char('\n')).toStdString());
    CHECK(problems.isEmpty());
}
