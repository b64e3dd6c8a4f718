#pragma once

#include <QColor>
#include <QString>

#include "app/color_scheme.h"

class QApplication;
class QChart;

namespace ssdk::app {

// The colours of one scheme (light or dark), in one place so pages, delegates and painted
// widgets agree.
struct SchemeColors {
    QColor window;
    QColor card;
    QColor alternate; // table headers, buttons, quiet panels
    QColor border;
    QColor text;
    QColor mutedText;
    QColor sectionText;
    QColor disabledText;
    QColor accent;
    QColor onAccent; // text on the accent
    QColor selection;
    QColor hover;
    QColor lab;
    QColor system;
    QColor systemBackground;
    QColor error;
    QColor warning;
    QColor success;
    QColor track;
    QColor hatch;
    QColor toolTip;
    QColor toolTipText;
    // Verdict pills and highlighted rows: text on a tinted background.
    QColor goodText;
    QColor goodBackground;
    QColor cautionText;
    QColor cautionBackground;
    QColor cautionBorder;
    QColor badText;
    QColor badBackground;
    QColor neutralText;
    QColor neutralBackground;
    // Chart series: read, write, a quiet third, and the fourth of a comparison.
    QColor chartRead;
    QColor chartWrite;
    QColor chartQuiet;
    QColor chartExtra;
};

const SchemeColors& colorsFor(ColorScheme scheme);

namespace theme {

namespace detail {
// The scheme applied last; applyTheme overwrites it, so the names below, read at paint time,
// always give the current scheme's colour.
inline SchemeColors current = colorsFor(ColorScheme::Light);
inline ColorScheme currentScheme = ColorScheme::Light;
} // namespace detail

inline const QColor& kWindow = detail::current.window;
inline const QColor& kCard = detail::current.card;
inline const QColor& kAlternate = detail::current.alternate;
inline const QColor& kBorder = detail::current.border;
inline const QColor& kText = detail::current.text;
inline const QColor& kMutedText = detail::current.mutedText;
inline const QColor& kSectionText = detail::current.sectionText;
inline const QColor& kAccent = detail::current.accent;
inline const QColor& kOnAccent = detail::current.onAccent;
inline const QColor& kSelection = detail::current.selection;
inline const QColor& kHover = detail::current.hover;
inline const QColor& kLab = detail::current.lab;
inline const QColor& kSystem = detail::current.system;
inline const QColor& kSystemBackground = detail::current.systemBackground;
inline const QColor& kError = detail::current.error;
inline const QColor& kWarning = detail::current.warning;
inline const QColor& kSuccess = detail::current.success;
inline const QColor& kTrack = detail::current.track;
inline const QColor& kHatch = detail::current.hatch;
inline const QColor& kGoodText = detail::current.goodText;
inline const QColor& kGoodBackground = detail::current.goodBackground;
inline const QColor& kCautionText = detail::current.cautionText;
inline const QColor& kCautionBackground = detail::current.cautionBackground;
inline const QColor& kCautionBorder = detail::current.cautionBorder;
inline const QColor& kBadText = detail::current.badText;
inline const QColor& kBadBackground = detail::current.badBackground;
inline const QColor& kNeutralText = detail::current.neutralText;
inline const QColor& kNeutralBackground = detail::current.neutralBackground;
inline const QColor& kChartRead = detail::current.chartRead;
inline const QColor& kChartWrite = detail::current.chartWrite;
inline const QColor& kChartQuiet = detail::current.chartQuiet;
inline const QColor& kChartExtra = detail::current.chartExtra;

inline ColorScheme scheme() {
    return detail::currentScheme;
}
inline bool isDark() {
    return detail::currentScheme == ColorScheme::Dark;
}

// colour moved share (0…1) of the way to the card colour: a pale tint on a light card, a deep
// one on a dark card (where lighter() would glare).
QColor faded(const QColor& colour, double share);

} // namespace theme

// Fusion style, the scheme's palette, DejaVu Sans and the stylesheet for cards and section
// headers (widgets opt in with the "role" property: "card", "section", "muted", …). Called again
// with the other scheme, it re-applies palette and stylesheet, restyles the charts and repaints
// every widget. Charts (QChartView) shown later are styled when they are first shown.
void applyTheme(QApplication& application, ColorScheme scheme = ColorScheme::Light);

// Picks the scheme from SchemeInputs gathered here (the portal, GTK_THEME, the platform
// palette; option and SSDK_THEME as given), applies it, and, when it follows the desktop,
// re-applies it whenever the portal reports a new color-scheme.
void applyThemeFollowingDesktop(QApplication& application, std::optional<SchemeChoice> option);

// Gives a chart the current scheme's background, text and grid colours, keeping the series'
// own pens and brushes.
void styleChart(QChart& chart);

} // namespace ssdk::app
