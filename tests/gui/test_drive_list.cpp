#include <catch2/catch.hpp>

#include <QListView>
#include <QPainter>
#include <QPixmap>
#include <QSignalSpy>
#include <QStyleOptionViewItem>

#include "app/models/drive_list_model.h"
#include "app/widgets/drive_delegate.h"
#include "app/widgets/drive_icons.h"
#include "tests/gui/gui_support.h"

using namespace ssdk;
using namespace ssdk::app;

namespace {

std::vector<device::Device> threeDrives() {
    return {test::nvmeSystemDisk(), test::usbStick(), test::labDrive()};
}

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
    CHECK(nvme.data(DriveListModel::CapacityRole).toString() == "500 GB · 466 GiB");
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

TEST_CASE("the drive delegate sizes and paints every row in every state") {
    test::application();
    DriveListModel model;
    model.setDevices(threeDrives());
    QListView view;
    view.setModel(&model);
    DriveDelegate delegate;

    QPixmap canvas(320, DriveDelegate::kRowHeight * 2);
    QPainter painter(&canvas);
    for (int row = 0; row < model.rowCount(); ++row) {
        for (const auto state :
             {QStyle::State_None, QStyle::State_Selected, QStyle::State_MouseOver}) {
            QStyleOptionViewItem option;
            option.initFrom(&view);
            option.rect = QRect(0, 0, 320, DriveDelegate::kRowHeight);
            option.state |= state;
            const QSize hint = delegate.sizeHint(option, model.index(row));
            CHECK(hint.height() >= DriveDelegate::kRowHeight);
            CHECK(hint.width() >= 220);
            delegate.paint(&painter, option, model.index(row));
        }
    }
    // Narrower than the content: text is elided, nothing breaks.
    QStyleOptionViewItem narrow;
    narrow.initFrom(&view);
    narrow.rect = QRect(0, 0, 90, DriveDelegate::kRowHeight);
    delegate.paint(&painter, narrow, model.index(0));
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
