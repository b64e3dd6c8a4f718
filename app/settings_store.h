#pragma once

#include <memory>

#include <QSettings>

class QWidget;

namespace ssdk::app {

// Where the window keeps what it remembers between runs: QSettings of organisation "SSDKeeper",
// application "ssdkeeper"; with SSDK_SETTINGS set, the INI file it names instead (tests, and any
// run that must leave the user's settings alone).
std::unique_ptr<QSettings> openSettings();

// The choices a user makes on pages, kept between runs: every widget below root that has the
// dynamic property "remember" set to true and an objectName unique below root. Check boxes and
// radio buttons keep their checked state, combo boxes their current text, spin boxes and sliders
// their value, line edits their text. Values are under options/<objectName>.
void saveRemembered(const QWidget& root, QSettings& settings);
// Sets each remembered widget to its saved value (a combo box only to an item it still has, a
// number only within the widget's range); widgets without a saved value keep theirs.
void restoreRemembered(QWidget& root, const QSettings& settings);

// Marks a widget to be remembered (sets the "remember" property).
void remember(QWidget* widget);

} // namespace ssdk::app
