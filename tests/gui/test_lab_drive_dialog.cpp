#include <catch2/catch.hpp>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include "app/lab_drive_dialog.h"
#include "tests/gui/gui_support.h"

using namespace ssdk;
using namespace ssdk::app;

namespace {

bool createEnabled(const LabDriveDialog& dialog) {
    const auto* buttons = dialog.findChild<QDialogButtonBox*>();
    REQUIRE(buttons != nullptr);
    return buttons->button(QDialogButtonBox::Ok)->isEnabled();
}

} // namespace

TEST_CASE("the lab drive dialog offers 8 GiB, 512-byte sectors and an empty layout") {
    test::application();
    LabDriveDialog dialog({});
    const auto request = dialog.request();
    CHECK(request.name == "lab");
    CHECK(request.size == Bytes::gib(8));
    CHECK(request.logicalSectorSize == 512);
    CHECK(request.layout == "empty");
    CHECK(dialog.sizeSpin()->minimum() == 1);
    CHECK(dialog.sizeSpin()->maximum() == 64);
    CHECK(createEnabled(dialog));
}

TEST_CASE("the lab drive dialog builds the helper's lab.create arguments") {
    test::application();
    LabDriveDialog dialog({QStringLiteral("lab")});
    CHECK(dialog.nameEdit()->text() == "lab2");
    dialog.nameEdit()->setText(QStringLiteral("scratch-1"));
    dialog.sizeSpin()->setValue(16);
    dialog.sectorCombo()->setCurrentIndex(1);
    dialog.layoutCombo()->setCurrentIndex(1);
    const Json args = LabDriveDialog::toHelperArgs(dialog.request());
    CHECK(args == Json{{"name", "scratch-1"},
                       {"size", 17179869184ULL},
                       {"sector_size", 4096},
                       {"layout", "gpt-ext4"}});
}

TEST_CASE("the lab drive dialog refuses empty and existing names") {
    test::application();
    LabDriveDialog dialog({QStringLiteral("demo")});
    dialog.nameEdit()->setText(QString());
    CHECK_FALSE(createEnabled(dialog));
    dialog.nameEdit()->setText(QStringLiteral("demo"));
    CHECK_FALSE(createEnabled(dialog));
    dialog.nameEdit()->setText(QStringLiteral("demo2"));
    CHECK(createEnabled(dialog));
}
