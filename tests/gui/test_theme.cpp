#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include <QImage>
#include <QListView>
#include <QPainter>

#include "app/color_scheme.h"
#include "app/models/drive_list_model.h"
#include "app/theme.h"
#include "app/widgets/drive_delegate.h"
#include "app/widgets/partition_bar.h"
#include "app/widgets/spare_area_bar.h"
#include "tests/gui/gui_support.h"

using namespace ssdk;
using namespace ssdk::app;

namespace {

SchemeInputs lightDesktop() {
    SchemeInputs inputs;
    inputs.platformWindow = QColor(0xef, 0xef, 0xef);
    return inputs;
}

// Applies a scheme for one test case and puts the light one (the tests' default) back.
struct SchemeScope {
    explicit SchemeScope(ColorScheme scheme) { applyTheme(test::application(), scheme); }
    ~SchemeScope() { applyTheme(test::application(), ColorScheme::Light); }
    SchemeScope(const SchemeScope&) = delete;
    SchemeScope& operator=(const SchemeScope&) = delete;
};

// The grey pixels of a painted widget, its background and its text (the coloured ones are
// partition fills and accents, which both schemes share): the share of dark and of light ones.
struct Lightness {
    double darkShare = 0;  // lightness below 0.45
    double lightShare = 0; // lightness above 0.6
};

Lightness lightnessOf(const QImage& image) {
    int dark = 0;
    int light = 0;
    int grey = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor pixel = image.pixelColor(x, y);
            if (pixel.hslSaturationF() > 0.35) {
                continue;
            }
            ++grey;
            const double l = pixel.lightnessF();
            dark += l < 0.45 ? 1 : 0;
            light += l > 0.6 ? 1 : 0;
        }
    }
    REQUIRE(grey > 0);
    return {static_cast<double>(dark) / grey, static_cast<double>(light) / grey};
}

QImage rendered(QWidget& widget, QSize size) {
    widget.resize(size);
    widget.ensurePolished();
    return widget.grab().toImage();
}

SpareBarModel spareModel() {
    SpareBarModel model;
    model.total = Bytes::gib(100);
    SpareBarSegment partition;
    partition.kind = SpareBarSegment::Kind::Partition;
    partition.start = Bytes::gib(0);
    partition.size = Bytes::gib(50);
    partition.usedFraction = 0.5;
    partition.color = theme::kAccent;
    partition.label = QStringLiteral("p1 ext4");
    SpareBarSegment unallocated;
    unallocated.kind = SpareBarSegment::Kind::Unallocated;
    unallocated.start = Bytes::gib(50);
    unallocated.size = Bytes::gib(30);
    unallocated.color = spare_colors::kUnallocated;
    SpareBarSegment spare;
    spare.kind = SpareBarSegment::Kind::UserSpare;
    spare.start = Bytes::gib(80);
    spare.size = Bytes::gib(20);
    spare.color = spare_colors::kUserSpare;
    spare.label = QStringLiteral("spare");
    model.segments = {partition, unallocated, spare};
    return model;
}

// The three painted widgets a dark desktop shows most, as images.
std::vector<std::pair<const char*, QImage>> paintedWidgets() {
    std::vector<std::pair<const char*, QImage>> images;
    const device::Device disk = test::nvmeSystemDisk();
    PartitionBar bar;
    bar.setDevice(&disk);
    images.emplace_back("partition bar", rendered(bar, QSize(600, bar.sizeHint().height())));

    SpareAreaBar spare;
    spare.setModel(spareModel());
    images.emplace_back("spare area bar", rendered(spare, QSize(600, spare.sizeHint().height())));

    DriveListModel model;
    model.setDevices({test::nvmeSystemDisk(), test::usbStick(), test::labDrive()});
    QListView view;
    view.setModel(&model);
    DriveDelegate delegate;
    QImage row(320, DriveDelegate::kRowHeight, QImage::Format_ARGB32);
    row.fill(theme::kCard); // the list's background (QListView#driveList)
    {
        QPainter painter(&row);
        QStyleOptionViewItem option;
        option.initFrom(&view);
        option.rect = QRect(0, 0, row.width(), row.height());
        delegate.paint(&painter, option, model.index(0));
    }
    images.emplace_back("drive delegate", row);
    return images;
}

} // namespace

TEST_CASE("the colour scheme: --theme, then SSDK_THEME, then the desktop") {
    SchemeInputs inputs = lightDesktop();
    CHECK(chooseColorScheme(inputs) == ColorScheme::Light);
    CHECK(followsDesktop(inputs));

    SECTION("the option wins over the environment and the desktop") {
        inputs.option = SchemeChoice::Dark;
        inputs.env = SchemeChoice::Light;
        inputs.portalScheme = 2;
        CHECK(chooseColorScheme(inputs) == ColorScheme::Dark);
        CHECK_FALSE(followsDesktop(inputs));
        inputs.option = SchemeChoice::Light;
        inputs.portalScheme = 1;
        CHECK(chooseColorScheme(inputs) == ColorScheme::Light);
    }
    SECTION("the environment decides when there is no option") {
        inputs.env = SchemeChoice::Dark;
        CHECK(chooseColorScheme(inputs) == ColorScheme::Dark);
        CHECK_FALSE(followsDesktop(inputs));
    }
    SECTION("--theme system sends the choice to the desktop, whatever SSDK_THEME says") {
        inputs.option = SchemeChoice::System;
        inputs.env = SchemeChoice::Dark;
        CHECK(chooseColorScheme(inputs) == ColorScheme::Light);
        CHECK(followsDesktop(inputs));
        inputs.portalScheme = 1;
        CHECK(chooseColorScheme(inputs) == ColorScheme::Dark);
    }
    SECTION("the portal: 1 prefers dark, 2 light, 0 has no preference") {
        inputs.portalScheme = 1;
        CHECK(chooseColorScheme(inputs) == ColorScheme::Dark);
        inputs.portalScheme = 2;
        inputs.gtkTheme = QStringLiteral("Adwaita:dark");
        CHECK(chooseColorScheme(inputs) == ColorScheme::Light);
        inputs.portalScheme = 0;
        CHECK(chooseColorScheme(inputs) == ColorScheme::Dark); // GTK_THEME decides then
    }
    SECTION("GTK_THEME ending in :dark, then the platform window colour") {
        inputs.gtkTheme = QStringLiteral("Adwaita:dark");
        CHECK(chooseColorScheme(inputs) == ColorScheme::Dark);
        inputs.gtkTheme = QStringLiteral("Adwaita-dark-ish");
        CHECK(chooseColorScheme(inputs) == ColorScheme::Light);
        inputs.platformWindow = QColor(0x2b, 0x2b, 0x2b);
        CHECK(chooseColorScheme(inputs) == ColorScheme::Dark);
    }
    SECTION("the option's words") {
        CHECK(parseSchemeChoice(QStringLiteral("Dark")) == SchemeChoice::Dark);
        CHECK(parseSchemeChoice(QStringLiteral(" light ")) == SchemeChoice::Light);
        CHECK(parseSchemeChoice(QStringLiteral("system")) == SchemeChoice::System);
        CHECK_FALSE(parseSchemeChoice(QStringLiteral("blue")));
    }
}

TEST_CASE("every dark colour keeps its text readable and differs from the light one") {
    const SchemeColors& dark = colorsFor(ColorScheme::Dark);
    const SchemeColors& light = colorsFor(ColorScheme::Light);
    // WCAG relative luminance and contrast ratio.
    const auto luminance = [](const QColor& c) {
        const auto channel = [](double v) {
            return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) +
               0.0722 * channel(c.blueF());
    };
    const auto contrast = [&](const QColor& a, const QColor& b) {
        const double la = luminance(a);
        const double lb = luminance(b);
        return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
    };
    for (const SchemeColors* c : {&light, &dark}) {
        CHECK(contrast(c->text, c->card) >= 7.0);
        CHECK(contrast(c->text, c->window) >= 7.0);
        CHECK(contrast(c->mutedText, c->card) >= 4.5);
        CHECK(contrast(c->accent, c->card) >= 4.5);
        CHECK(contrast(c->onAccent, c->accent) >= 4.5);
        CHECK(contrast(c->error, c->card) >= 4.5);
        CHECK(contrast(c->success, c->card) >= 4.5);
        CHECK(contrast(c->goodText, c->goodBackground) >= 4.5);
        CHECK(contrast(c->cautionText, c->cautionBackground) >= 4.5);
        CHECK(contrast(c->badText, c->badBackground) >= 4.5);
        CHECK(contrast(c->neutralText, c->neutralBackground) >= 4.5);
        CHECK(contrast(c->text, c->selection) >= 4.5);
    }
    CHECK(dark.card.lightnessF() < 0.25);
    CHECK(dark.text.lightnessF() > 0.8);
}

TEST_CASE("painted widgets take the dark scheme's colours, at paint time") {
    for (const ColorScheme scheme : {ColorScheme::Dark, ColorScheme::Light}) {
        SchemeScope applied(scheme);
        CHECK(theme::kCard == colorsFor(scheme).card);
        for (const auto& [name, image] : paintedWidgets()) {
            INFO(name << (scheme == ColorScheme::Dark ? " dark" : " light"));
            const Lightness l = lightnessOf(image);
            // Mostly background, with text in the other lightness on it.
            const double background = scheme == ColorScheme::Dark ? l.darkShare : l.lightShare;
            const double text = scheme == ColorScheme::Dark ? l.lightShare : l.darkShare;
            CHECK(background > 0.5);
            CHECK(text > 0.002);
        }
    }
}

TEST_CASE("applying the other scheme re-applies the palette and the stylesheet") {
    test::application();
    {
        SchemeScope applied(ColorScheme::Dark);
        CHECK(QApplication::palette().color(QPalette::Window) ==
              colorsFor(ColorScheme::Dark).window);
        CHECK(qApp->styleSheet().contains(colorsFor(ColorScheme::Dark).card.name()));
        CHECK(theme::isDark());
    }
    CHECK(QApplication::palette().color(QPalette::Window) == colorsFor(ColorScheme::Light).window);
    CHECK_FALSE(qApp->styleSheet().contains(colorsFor(ColorScheme::Dark).card.name()));
}
