#include "app/theme.h"

#include <vector>

#include <QAbstractAxis>
#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QFont>
#include <QLegend>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>
#include <QXYSeries>

namespace ssdk::app {

namespace {

SchemeColors lightColors() {
    SchemeColors c;
    c.window = QColor(0xf4, 0xf5, 0xf7);
    c.card = QColor(0xff, 0xff, 0xff);
    c.alternate = QColor(0xf8, 0xf9, 0xfb);
    c.border = QColor(0xe1, 0xe4, 0xe8);
    c.text = QColor(0x1f, 0x23, 0x28);
    c.mutedText = QColor(0x5f, 0x67, 0x73);
    c.sectionText = QColor(0x37, 0x41, 0x51);
    c.disabledText = QColor(0xa0, 0xa6, 0xb0);
    c.accent = QColor(0x25, 0x63, 0xeb);
    c.onAccent = QColor(0xff, 0xff, 0xff);
    c.selection = QColor(0xe3, 0xec, 0xfd);
    c.hover = QColor(0xee, 0xf1, 0xf6);
    c.lab = QColor(0xd9, 0x77, 0x06);
    c.system = QColor(0x47, 0x55, 0x69);
    c.systemBackground = QColor(0xe2, 0xe8, 0xf0);
    c.error = QColor(0xb9, 0x1c, 0x1c);
    c.warning = QColor(0xb4, 0x53, 0x09);
    c.success = QColor(0x15, 0x80, 0x3d);
    c.track = QColor(0xee, 0xf0, 0xf3);
    c.hatch = QColor(0xc3, 0xc8, 0xd0);
    c.toolTip = QColor(0x1f, 0x23, 0x28);
    c.toolTipText = QColor(0xff, 0xff, 0xff);
    c.goodText = QColor(0x16, 0x65, 0x34);
    c.goodBackground = QColor(0xdc, 0xfc, 0xe7);
    c.cautionText = QColor(0x92, 0x40, 0x0e);
    c.cautionBackground = QColor(0xfe, 0xf3, 0xc7);
    c.cautionBorder = QColor(0xf5, 0x9e, 0x0b);
    c.badText = QColor(0x99, 0x1b, 0x1b);
    c.badBackground = QColor(0xfe, 0xe2, 0xe2);
    c.neutralText = QColor(0x37, 0x41, 0x51);
    c.neutralBackground = QColor(0xe5, 0xe7, 0xeb);
    c.chartRead = QColor(0x25, 0x63, 0xeb);
    c.chartWrite = QColor(0xdc, 0x26, 0x26);
    c.chartQuiet = QColor(0x6b, 0x72, 0x80);
    c.chartExtra = QColor(0x16, 0xa3, 0x4a);
    return c;
}

// The same families, lifted for a dark background: text at least 7:1 on the card, muted text
// and accents at least 4.5:1, tints turned into deep backgrounds under light text.
SchemeColors darkColors() {
    SchemeColors c;
    c.window = QColor(0x16, 0x19, 0x1e);
    c.card = QColor(0x1f, 0x23, 0x2a);
    c.alternate = QColor(0x26, 0x2b, 0x33);
    c.border = QColor(0x36, 0x3c, 0x46);
    c.text = QColor(0xe6, 0xe8, 0xeb);
    c.mutedText = QColor(0xa0, 0xa8, 0xb4);
    c.sectionText = QColor(0xcb, 0xd2, 0xdc);
    c.disabledText = QColor(0x6b, 0x72, 0x7d);
    c.accent = QColor(0x60, 0x9c, 0xfa);
    c.onAccent = QColor(0x0b, 0x12, 0x20);
    c.selection = QColor(0x1d, 0x33, 0x5c);
    c.hover = QColor(0x2a, 0x30, 0x3a);
    c.lab = QColor(0xf5, 0x9e, 0x0b);
    c.system = QColor(0xcb, 0xd5, 0xe1);
    c.systemBackground = QColor(0x33, 0x41, 0x55);
    c.error = QColor(0xf8, 0x71, 0x71);
    c.warning = QColor(0xfb, 0xbf, 0x24);
    c.success = QColor(0x4a, 0xde, 0x80);
    c.track = QColor(0x2a, 0x2f, 0x38);
    c.hatch = QColor(0x4b, 0x53, 0x5f);
    c.toolTip = QColor(0x30, 0x36, 0x40);
    c.toolTipText = QColor(0xf3, 0xf4, 0xf6);
    c.goodText = QColor(0x86, 0xef, 0xac);
    c.goodBackground = QColor(0x14, 0x3d, 0x26);
    c.cautionText = QColor(0xfc, 0xd3, 0x4d);
    c.cautionBackground = QColor(0x45, 0x2a, 0x08);
    c.cautionBorder = QColor(0xb4, 0x53, 0x09);
    c.badText = QColor(0xfc, 0xa5, 0xa5);
    c.badBackground = QColor(0x4c, 0x15, 0x15);
    c.neutralText = QColor(0xd1, 0xd5, 0xdb);
    c.neutralBackground = QColor(0x37, 0x41, 0x51);
    c.chartRead = QColor(0x60, 0x9c, 0xfa);
    c.chartWrite = QColor(0xf8, 0x71, 0x71);
    c.chartQuiet = QColor(0x9c, 0xa3, 0xaf);
    c.chartExtra = QColor(0x4a, 0xde, 0x80);
    return c;
}

QString styleSheet(const SchemeColors& c) {
    QString sheet = QStringLiteral(R"(
QFrame[role="card"] {
    background: @card;
    border: 1px solid @border;
    border-radius: 8px;
}
QLabel[role="section"] {
    color: @section;
    font-weight: 600;
    font-size: 11pt;
}
QLabel[role="title"] {
    color: @text;
    font-weight: 600;
    font-size: 15pt;
}
QLabel[role="subtitle"], QLabel[role="muted"], QLabel[role="field"] {
    color: @muted;
}
QLabel[role="empty"] {
    color: @muted;
    font-size: 11pt;
}
QLabel[role="emptyTitle"] {
    color: @text;
    font-size: 14pt;
    font-weight: 600;
}
QLabel[role="error"] {
    color: @error;
}
QListView#driveList {
    background: @card;
    border: none;
    border-right: 1px solid @border;
}
QLabel#drivesHeader {
    background: @card;
    color: @muted;
    font-weight: 600;
    padding: 12px 16px 6px 16px;
    border-right: 1px solid @border;
}
QTabWidget::pane {
    border: none;
    border-top: 1px solid @border;
}
QTabBar::tab {
    padding: 8px 18px;
    border: none;
    color: @muted;
    background: transparent;
}
QTabBar::tab:selected {
    color: @accent;
    border-bottom: 2px solid @accent;
    font-weight: 600;
}
QTableWidget {
    border: none;
    gridline-color: @track;
}
QTableWidget::item {
    padding: 0px 8px;
}
QHeaderView::section {
    background: @alternate;
    color: @muted;
    border: none;
    border-bottom: 1px solid @border;
    padding: 6px 8px;
    font-weight: 600;
}
QToolBar {
    background: @card;
    border: none;
    border-bottom: 1px solid @border;
    spacing: 4px;
    padding: 4px 8px;
}
QToolButton {
    padding: 4px 10px;
    border-radius: 4px;
}
QToolButton:hover {
    background: @hover;
}
QStatusBar {
    background: @card;
    border-top: 1px solid @border;
}
)");
    const std::pair<const char*, const QColor*> names[] = {
        {"@card", &c.card},     {"@border", &c.border},   {"@section", &c.sectionText},
        {"@text", &c.text},     {"@muted", &c.mutedText}, {"@error", &c.error},
        {"@accent", &c.accent}, {"@track", &c.track},     {"@alternate", &c.alternate},
        {"@hover", &c.hover},
    };
    for (const auto& [name, colour] : names) {
        sheet.replace(QLatin1String(name), colour->name());
    }
    return sheet;
}

QPalette paletteFor(const SchemeColors& c) {
    QPalette palette;
    palette.setColor(QPalette::Window, c.window);
    palette.setColor(QPalette::WindowText, c.text);
    palette.setColor(QPalette::Base, c.card);
    palette.setColor(QPalette::AlternateBase, c.alternate);
    palette.setColor(QPalette::Text, c.text);
    palette.setColor(QPalette::Button, c.alternate);
    palette.setColor(QPalette::ButtonText, c.text);
    palette.setColor(QPalette::BrightText, c.error);
    palette.setColor(QPalette::Light, c.hover);
    palette.setColor(QPalette::Midlight, c.border);
    palette.setColor(QPalette::Mid, c.hatch);
    palette.setColor(QPalette::Dark, c.hatch);
    palette.setColor(QPalette::Shadow, theme::isDark() ? QColor(0, 0, 0) : c.hatch);
    palette.setColor(QPalette::Highlight, c.accent);
    palette.setColor(QPalette::HighlightedText, c.onAccent);
    palette.setColor(QPalette::Link, c.accent);
    palette.setColor(QPalette::LinkVisited, c.accent);
    palette.setColor(QPalette::ToolTipBase, c.toolTip);
    palette.setColor(QPalette::ToolTipText, c.toolTipText);
    palette.setColor(QPalette::PlaceholderText, c.mutedText);
    palette.setColor(QPalette::Disabled, QPalette::Text, c.disabledText);
    palette.setColor(QPalette::Disabled, QPalette::ButtonText, c.disabledText);
    palette.setColor(QPalette::Disabled, QPalette::WindowText, c.disabledText);
    return palette;
}

// Styles each chart view when it is first shown, and again after a scheme change.
class ChartStyler : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Show) {
            if (auto* view = qobject_cast<QChartView*>(watched)) {
                styleView(*view);
            }
        }
        return false;
    }

public:
    static void styleView(QChartView& view) {
        const int scheme = static_cast<int>(theme::scheme());
        if (view.chart() == nullptr || view.property("ssdkChartScheme") == scheme) {
            return;
        }
        view.setProperty("ssdkChartScheme", scheme);
        view.setBackgroundBrush(theme::kCard);
        styleChart(*view.chart());
    }
};

ChartStyler* chartStyler() {
    static auto* styler = [] {
        auto* made = new ChartStyler(qApp);
        qApp->installEventFilter(made);
        return made;
    }();
    return styler;
}

} // namespace

const SchemeColors& colorsFor(ColorScheme scheme) {
    static const SchemeColors light = lightColors();
    static const SchemeColors dark = darkColors();
    return scheme == ColorScheme::Dark ? dark : light;
}

QColor theme::faded(const QColor& colour, double share) {
    const QColor& card = theme::kCard;
    const auto mix = [share](float from, float to) {
        return from + (to - from) * static_cast<float>(share);
    };
    return QColor::fromRgbF(mix(colour.redF(), card.redF()), mix(colour.greenF(), card.greenF()),
                            mix(colour.blueF(), card.blueF()), colour.alphaF());
}

void styleChart(QChart& chart) {
    struct Kept {
        QXYSeries* series;
        QPen pen;
        QBrush brush;
    };
    std::vector<Kept> xy;
    std::vector<std::pair<QBarSet*, QColor>> bars;
    for (QAbstractSeries* series : chart.series()) {
        if (auto* line = qobject_cast<QXYSeries*>(series)) {
            xy.push_back({line, line->pen(), line->brush()});
        } else if (auto* barSeries = qobject_cast<QAbstractBarSeries*>(series)) {
            for (QBarSet* set : barSeries->barSets()) {
                bars.emplace_back(set, set->color());
            }
        }
    }
    // The chart theme styles axes, titles and legend (and the axes added later).
    chart.setTheme(theme::isDark() ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    for (const Kept& kept : xy) {
        kept.series->setPen(kept.pen);
        kept.series->setBrush(kept.brush);
    }
    for (const auto& [set, colour] : bars) {
        set->setColor(colour);
    }
    chart.setBackgroundBrush(theme::kCard);
    chart.setBackgroundPen(Qt::NoPen);
    chart.setTitleBrush(theme::kText);
    chart.legend()->setLabelColor(theme::kText);
    for (QAbstractAxis* axis : chart.axes()) {
        axis->setLabelsColor(theme::kMutedText);
        axis->setTitleBrush(theme::kMutedText);
        axis->setGridLineColor(theme::kBorder);
        axis->setLinePenColor(theme::kBorder);
    }
}

void applyTheme(QApplication& application, ColorScheme scheme) {
    if (auto* fusion = QStyleFactory::create(QStringLiteral("Fusion"));
        fusion != nullptr &&
        QApplication::style()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive) != 0) {
        QApplication::setStyle(fusion);
    }
    theme::detail::current = colorsFor(scheme);
    theme::detail::currentScheme = scheme;
    const SchemeColors& colors = theme::detail::current;
    QApplication::setPalette(paletteFor(colors));

    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(9.5);
    QApplication::setFont(font);
    application.setStyleSheet(styleSheet(colors));

    chartStyler();
    for (QWidget* widget : QApplication::allWidgets()) {
        if (auto* view = qobject_cast<QChartView*>(widget)) {
            ChartStyler::styleView(*view);
        }
        widget->update();
    }
}

void applyThemeFollowingDesktop(QApplication& application, std::optional<SchemeChoice> option) {
    SchemeInputs inputs;
    inputs.option = option;
    inputs.env = parseSchemeChoice(qEnvironmentVariable("SSDK_THEME"));
    inputs.gtkTheme = qEnvironmentVariable("GTK_THEME");
    // The platform's own palette, before ours replaces it.
    inputs.platformWindow = QGuiApplication::palette().color(QPalette::Window);
    if (followsDesktop(inputs)) {
        inputs.portalScheme = readPortalColorScheme();
    }
    applyTheme(application, chooseColorScheme(inputs));
    if (!followsDesktop(inputs)) {
        return;
    }
    auto* watcher = new PortalSchemeWatcher(&application);
    QObject::connect(watcher, &PortalSchemeWatcher::colorSchemeChanged, &application,
                     [&application, inputs](unsigned portalScheme) mutable {
                         inputs.portalScheme = portalScheme;
                         const ColorScheme next = chooseColorScheme(inputs);
                         if (next != theme::scheme()) {
                             applyTheme(application, next);
                         }
                     });
}

} // namespace ssdk::app
