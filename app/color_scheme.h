#pragma once

#include <optional>

#include <QColor>
#include <QDBusVariant>
#include <QObject>
#include <QString>

namespace ssdk::app {

enum class ColorScheme { Light, Dark };

// What the user asked for: --theme, or SSDK_THEME. System = follow the desktop.
enum class SchemeChoice { System, Light, Dark };

// "light", "dark", "system" (case-insensitive); nullopt for anything else.
std::optional<SchemeChoice> parseSchemeChoice(const QString& text);

// Everything the scheme is picked from, gathered by the caller so the choice is a pure function.
struct SchemeInputs {
    std::optional<SchemeChoice> option;   // --theme
    std::optional<SchemeChoice> env;      // SSDK_THEME
    std::optional<unsigned> portalScheme; // org.freedesktop.appearance color-scheme
    QString gtkTheme;                     // GTK_THEME
    QColor platformWindow;                // the platform palette's Window colour
};

// --theme wins over SSDK_THEME; either one saying light or dark decides. Otherwise (system) the
// desktop decides: the portal's color-scheme (1 = prefer dark, 2 = prefer light, 0 = no
// preference), then GTK_THEME ending in ":dark", then the platform window colour's lightness.
ColorScheme chooseColorScheme(const SchemeInputs& inputs);

// Whether the choice follows the desktop (neither --theme nor SSDK_THEME says light or dark).
bool followsDesktop(const SchemeInputs& inputs);

// The freedesktop portal's color-scheme, read over the session bus; nullopt when there is no
// portal (no session bus, no answer within a short time).
std::optional<unsigned> readPortalColorScheme();

// Reports the portal's color-scheme changes (SettingChanged of org.freedesktop.appearance).
class PortalSchemeWatcher : public QObject {
    Q_OBJECT
public:
    explicit PortalSchemeWatcher(QObject* parent = nullptr);
    // Whether the session bus accepted the subscription.
    bool isWatching() const { return m_watching; }

signals:
    void colorSchemeChanged(unsigned scheme);

private slots:
    void settingChanged(const QString& nameSpace, const QString& key, const QDBusVariant& value);

private:
    bool m_watching = false;
};

} // namespace ssdk::app
