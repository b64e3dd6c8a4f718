#include <catch2/catch.hpp>

#include <QImage>
#include <QListView>
#include <QPainter>
#include <QPixmap>
#include <QSignalSpy>
#include <QStyleOptionViewItem>

#include "app/device_text.h"
#include "app/models/drive_list_model.h"
#include "app/theme.h"
#include "app/widgets/badge.h"
#include "app/widgets/drive_delegate.h"
#include "app/widgets/drive_icons.h"
#include "tests/gui/gui_support.h"

using namespace ssdk;
using namespace ssdk::app;

namespace {

std::vector<device::Device> threeDrives() {
    return {test::nvmeSystemDisk(), test::usbStick(), test::labDrive()};
}

constexpr int kRowWidth = 320;
constexpr int kNarrowRowWidth = 200;

QStyleOptionViewItem rowOption(const QListView& view, QStyle::State state, int width = kRowWidth) {
    QStyleOptionViewItem option;
    option.initFrom(&view);
    option.rect = QRect(0, 0, width, DriveDelegate::kRowHeight);
    option.state |= state;
    return option;
}

// One row as the list paints it: the delegate over the list's white background.
QImage paintedRow(const DriveDelegate& delegate, const QListView& view, const QModelIndex& index,
                  QStyle::State state, int width = kRowWidth) {
    QImage image(width, DriveDelegate::kRowHeight, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    delegate.paint(&painter, rowOption(view, state, width), index);
    return image;
}

// Where the text and badges go: right of the icon (card margin 8 + padding 10 + icon 40 +
// gap 12); the icon has colours of its own (a lab drive's is the LAB orange).
constexpr int kTextLeft = 70;

// The bounding box of the pixels right of the icon painted exactly `colour`; empty when there
// are none.
QRect areaOf(const QImage& image, const QColor& colour) {
    QRect area;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = kTextLeft; x < image.width(); ++x) {
            if (image.pixelColor(x, y) == colour) {
                area |= QRect(x, y, 1, 1);
            }
        }
    }
    return area;
}

// A badge is a pill of its colour at the right end of the row's bottom (capacity) line.
void checkBadgeAtRight(const QImage& row, const QColor& colour) {
    const QRect badge = areaOf(row, colour);
    INFO("badge " << colour.name().toStdString() << " at x " << badge.left() << ".."
                  << badge.right() << ", y " << badge.top() << ".." << badge.bottom());
    REQUIRE_FALSE(badge.isEmpty());
    CHECK(badge.width() >= 20);
    CHECK(badge.height() >= 8);
    // The card ends 8 px before the row's edge and pads its content by 10 px.
    CHECK(badge.right() <= row.width() - 8 - 10);
    CHECK(badge.right() >= row.width() - 8 - 10 - 3);
    CHECK(badge.top() > row.height() / 2);
}

// The three drives in a list view with the delegate that paints its rows.
struct DelegatedList {
    QApplication& application = test::application();
    DriveListModel model;
    QListView view;
    DriveDelegate delegate;

    DelegatedList() {
        model.setDevices(threeDrives()); // the system disk, a USB stick, a lab drive
        view.setModel(&model);
    }
};

} // namespace

TEST_CASE("the drive list model has one row per device with its identity") {
    test::application();
    DriveListModel model;
    CHECK(model.rowCount() == 0);
    model.setDevices(threeDrives());
    REQUIRE(model.rowCount() == 3);

    const QModelIndex nvme = model.index(0);
    CHECK(nvme.data(Qt::DisplayRole).toString() == "Samsung SSD 970 EVO Plus 500GB");
    CHECK(nvme.data(DriveListModel::NameRole).toString() == "nvme0n1");
    CHECK(nvme.data(DriveListModel::PathRole).toString() == "/dev/nvme0n1");
    CHECK(nvme.data(DriveListModel::BusNameRole).toString() == "NVMe");
    CHECK(nvme.data(DriveListModel::CapacityRole).toString() == "466 GiB");
    CHECK(nvme.data(DriveListModel::IsSystemRole).toBool());
    CHECK_FALSE(nvme.data(DriveListModel::IsLabRole).toBool());

    const QModelIndex lab = model.index(2);
    CHECK(lab.data(Qt::DisplayRole).toString() == "loop0"); // no model: the kernel name
    CHECK(lab.data(DriveListModel::IsLabRole).toBool());
    CHECK(lab.data(DriveListModel::LabNameRole).toString() == "demo");
    CHECK_FALSE(lab.data(DriveListModel::IsSystemRole).toBool());
    CHECK(lab.data(Qt::ToolTipRole).toString().contains("demo"));

    CHECK(model.rowOfName("sdb") == 1);
    CHECK(model.rowOfName("sdz") == -1);
    CHECK(model.rowOfName("demo") == 2); // a lab drive by its lab name
    REQUIRE(model.deviceAt(1) != nullptr);
    CHECK(model.deviceAt(1)->model == "Ultra");
    CHECK(model.deviceAt(3) == nullptr);
    CHECK(model.deviceAt(-1) == nullptr);
}

TEST_CASE("the same drives coming back update data without resetting the model") {
    test::application();
    DriveListModel model;
    model.setDevices(threeDrives());
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);

    auto again = threeDrives();
    again[1].partitions.clear();
    model.setDevices(again);
    CHECK(resets.count() == 0);
    CHECK(changes.count() == 1);
    CHECK(model.deviceAt(1)->partitions.empty());

    again.pop_back();
    model.setDevices(again);
    CHECK(resets.count() == 1);
    CHECK(model.rowCount() == 2);
}

TEST_CASE_METHOD(DelegatedList, "the drive delegate sizes every row in every state") {
    for (int row = 0; row < model.rowCount(); ++row) {
        for (const auto state :
             {QStyle::State_None, QStyle::State_Selected, QStyle::State_MouseOver}) {
            const QSize hint = delegate.sizeHint(rowOption(view, state), model.index(row));
            CHECK(hint.height() >= DriveDelegate::kRowHeight);
            CHECK(hint.width() >= 220);
        }
    }
}

TEST_CASE_METHOD(DelegatedList, "the drive delegate highlights the selected and the hovered row") {
    // The card spans the row less 8 px left and right and 3 px top and bottom; above its text
    // (at the top middle) it shows its background, and on its left edge the selection's accent.
    const QPoint background(kRowWidth / 2, 5);
    const QPoint accent(9, DriveDelegate::kRowHeight / 2);
    for (int row = 0; row < model.rowCount(); ++row) {
        INFO("row " << row);
        const QImage plain = paintedRow(delegate, view, model.index(row), QStyle::State_None);
        CHECK(plain.pixelColor(background) == QColor(Qt::white));
        CHECK(plain.pixelColor(accent) == QColor(Qt::white));

        const QImage selected =
            paintedRow(delegate, view, model.index(row), QStyle::State_Selected);
        CHECK(selected.pixelColor(background) == theme::kSelection);
        CHECK(selected.pixelColor(accent) == theme::kAccent);

        const QImage hovered =
            paintedRow(delegate, view, model.index(row), QStyle::State_MouseOver);
        CHECK(hovered.pixelColor(background) == theme::kHover);
        CHECK(hovered.pixelColor(accent) == theme::kHover);
    }
}

TEST_CASE_METHOD(
    DelegatedList,
    "the drive delegate draws the LAB and SYSTEM badges of the drives that have them") {
    const QColor lab = labBadgeStyle().background;
    const QColor system = systemBadgeStyle().background;
    REQUIRE(lab != system);
    for (const auto state : {QStyle::State_None, QStyle::State_Selected}) {
        const QImage nvme = paintedRow(delegate, view, model.index(0), state);
        const QImage usb = paintedRow(delegate, view, model.index(1), state);
        const QImage loop = paintedRow(delegate, view, model.index(2), state);
        checkBadgeAtRight(nvme, system);
        CHECK(areaOf(nvme, lab).isEmpty());
        checkBadgeAtRight(loop, lab);
        CHECK(areaOf(loop, system).isEmpty());
        CHECK(areaOf(usb, lab).isEmpty());
        CHECK(areaOf(usb, system).isEmpty());
    }

    // Narrower than the content: the text is elided, the badge stays inside the card.
    const QImage narrow =
        paintedRow(delegate, view, model.index(2), QStyle::State_None, kNarrowRowWidth);
    const QRect badge = areaOf(narrow, lab);
    CHECK_FALSE(badge.isEmpty());
    CHECK(badge.right() < kNarrowRowWidth - 8);
}

TEST_CASE("every bus has a drawn icon") {
    test::application();
    using device::Bus;
    for (const Bus bus : {Bus::Nvme, Bus::Sata, Bus::Scsi, Bus::Usb, Bus::Virtio, Bus::Mmc,
                          Bus::Loop, Bus::Zram, Bus::DeviceMapper, Bus::Md, Bus::Unknown}) {
        for (const bool rotational : {false, true}) {
            const QPixmap icon = driveIcon(bus, rotational, 40, 2.0);
            REQUIRE_FALSE(icon.isNull());
            CHECK(icon.width() == 80);
            CHECK(icon.deviceIndependentSize().toSize() == QSize(40, 40));
            // Something was drawn: the centre region is not fully transparent.
            const QImage image = icon.toImage();
            bool painted = false;
            for (int y = 20; y < 60 && !painted; ++y) {
                for (int x = 20; x < 60 && !painted; ++x) {
                    painted = qAlpha(image.pixel(x, y)) > 0;
                }
            }
            CHECK(painted);
        }
    }
}

TEST_CASE_METHOD(DelegatedList, "a drive's name gets the room it needs, elided in the middle") {
    const QStyleOptionViewItem option = rowOption(view, QStyle::State_None, 340);
    // A lab drive goes by its name, whole.
    auto lab = test::labDrive();
    lab.labName = "review-2026-11";
    model.setDevices({test::nvmeSystemDisk(), lab});
    auto row = delegate.layoutRow(option, model.index(1));
    CHECK(row.titleText == "review-2026-11");
    CHECK(row.secondText == "/dev/loop0 · lab drive");
    CHECK(row.title.right() < row.card.right());

    // Too long for the row: both ends stay readable, the full name is in the tool tip.
    lab.labName = "a-lab-drive-for-the-release-review-of-the-health-page";
    model.setDevices({test::nvmeSystemDisk(), lab});
    row = delegate.layoutRow(option, model.index(1));
    INFO(row.titleText.toStdString());
    CHECK(row.titleText.contains(QChar(0x2026)));
    CHECK(row.titleText.startsWith("a-lab"));
    CHECK(row.titleText.endsWith("page"));
    CHECK(model.index(1).data(Qt::ToolTipRole).toString().contains(toQString(*lab.labName)));
}

TEST_CASE_METHOD(DelegatedList, "an idle drive has no sparkline and the rate never covers it") {
    const QStyleOptionViewItem option = rowOption(view, QStyle::State_None);
    // The sparkline's column: right of the texts, over the title and path lines.
    const auto column = [&](const QModelIndex& index) {
        const auto row = delegate.layoutRow(option, index);
        return QRect(QPoint(row.title.right() + 1, row.card.top()),
                     QPoint(row.card.right(), row.second.bottom()));
    };
    const auto paintedIn = [](const QImage& image, const QRect& area) {
        int count = 0;
        for (int y = area.top(); y <= area.bottom(); ++y) {
            for (int x = area.left(); x <= area.right(); ++x) {
                count += image.pixelColor(x, y) != QColor(Qt::white) ? 1 : 0;
            }
        }
        return count;
    };

    // Never sampled, and sampled at zero only: nothing at all is drawn there.
    const QModelIndex usb = model.index(1);
    CHECK(delegate.layoutRow(option, usb).graph.isEmpty());
    CHECK(paintedIn(paintedRow(delegate, view, usb, QStyle::State_None), column(usb)) == 0);
    for (int i = 0; i < 10; ++i) {
        model.addActivity(QStringLiteral("sdb"), 0);
    }
    CHECK(delegate.layoutRow(option, usb).graph.isEmpty());
    CHECK(paintedIn(paintedRow(delegate, view, usb, QStyle::State_None), column(usb)) == 0);

    // Busy: the graph on top, its rate under it, apart.
    for (int i = 0; i < 30; ++i) {
        model.addActivity(QStringLiteral("sdb"), (i % 10) * 20e6);
    }
    model.addActivity(QStringLiteral("sdb"), 123e6);
    const auto row = delegate.layoutRow(option, usb);
    REQUIRE_FALSE(row.graph.isEmpty());
    REQUIRE_FALSE(row.rate.isEmpty());
    CHECK_FALSE(row.graph.intersects(row.rate));
    CHECK(row.rate.top() > row.graph.bottom());
    CHECK(row.rateText == "123 MB/s");
    CHECK(row.rate.bottom() <= row.second.bottom());
    CHECK(column(usb).contains(row.graph));
    const QImage busy = paintedRow(delegate, view, usb, QStyle::State_None);
    CHECK(paintedIn(busy, row.graph) > 40);
    // Nothing of the graph outside its box, so nothing of it under the rate's text.
    QRect graphPixels;
    for (int y = 0; y < busy.height(); ++y) {
        for (int x = kTextLeft; x < busy.width(); ++x) {
            const QColor c = busy.pixelColor(x, y);
            if (c.blue() > c.red() + 40) { // the accent line and its fill
                graphPixels |= QRect(x, y, 1, 1);
            }
        }
    }
    INFO("graph pixels " << graphPixels.left() << "," << graphPixels.top() << " .. "
                         << graphPixels.right() << "," << graphPixels.bottom());
    CHECK(row.graph.contains(graphPixels));
    CHECK(paintedIn(busy, row.rate) > 10); // the rate is drawn
}

TEST_CASE_METHOD(DelegatedList, "drive rows have accessible names and descriptions") {
    const QModelIndex nvme = model.index(0);
    CHECK(nvme.data(Qt::AccessibleTextRole).toString() == nvme.data(Qt::DisplayRole).toString());
    const QString system = nvme.data(Qt::AccessibleDescriptionRole).toString();
    INFO(system.toStdString());
    CHECK(system.contains("/dev/nvme0n1"));
    CHECK(system.contains("NVMe"));
    CHECK(system.contains(nvme.data(DriveListModel::CapacityRole).toString()));
    CHECK(system.contains("system disk"));
    CHECK(system.endsWith("idle"));

    const QModelIndex lab = model.index(2);
    CHECK(lab.data(Qt::AccessibleTextRole).toString() == "Lab drive demo");
    CHECK(lab.data(Qt::AccessibleDescriptionRole).toString().contains("lab drive"));
    model.addActivity(QStringLiteral("loop0"), 12.34e6);
    CHECK(lab.data(Qt::AccessibleDescriptionRole).toString().endsWith("12 MB/s now"));
}
