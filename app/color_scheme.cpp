#include "app/color_scheme.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusReply>

namespace ssdk::app {

namespace {

const QString kPortalService = QStringLiteral("org.freedesktop.portal.Desktop");
const QString kPortalPath = QStringLiteral("/org/freedesktop/portal/desktop");
const QString kSettingsInterface = QStringLiteral("org.freedesktop.portal.Settings");
const QString kAppearance = QStringLiteral("org.freedesktop.appearance");
const QString kColorScheme = QStringLiteral("color-scheme");
// The portal answers at once when it runs; a desktop without one must not hold the start.
constexpr int kPortalTimeoutMs = 300;

// Read answers a variant holding the value's variant (v of v); SettingChanged sends v.
std::optional<unsigned> schemeValue(QVariant value) {
    while (value.metaType() == QMetaType::fromType<QDBusVariant>()) {
        value = value.value<QDBusVariant>().variant();
    }
    bool ok = false;
    const unsigned scheme = value.toUInt(&ok);
    return ok ? std::optional<unsigned>(scheme) : std::nullopt;
}

} // namespace

std::optional<SchemeChoice> parseSchemeChoice(const QString& text) {
    const QString value = text.trimmed().toLower();
    if (value == QLatin1String("light")) {
        return SchemeChoice::Light;
    }
    if (value == QLatin1String("dark")) {
        return SchemeChoice::Dark;
    }
    if (value == QLatin1String("system")) {
        return SchemeChoice::System;
    }
    return std::nullopt;
}

bool followsDesktop(const SchemeInputs& inputs) {
    const std::optional<SchemeChoice> asked = inputs.option ? inputs.option : inputs.env;
    return !asked || *asked == SchemeChoice::System;
}

ColorScheme chooseColorScheme(const SchemeInputs& inputs) {
    const std::optional<SchemeChoice> asked = inputs.option ? inputs.option : inputs.env;
    if (asked == SchemeChoice::Light) {
        return ColorScheme::Light;
    }
    if (asked == SchemeChoice::Dark) {
        return ColorScheme::Dark;
    }
    if (inputs.portalScheme == 1U) {
        return ColorScheme::Dark;
    }
    if (inputs.portalScheme == 2U) {
        return ColorScheme::Light;
    }
    if (inputs.gtkTheme.endsWith(QLatin1String(":dark"), Qt::CaseInsensitive)) {
        return ColorScheme::Dark;
    }
    if (inputs.platformWindow.isValid() && inputs.platformWindow.lightnessF() < 0.5) {
        return ColorScheme::Dark;
    }
    return ColorScheme::Light;
}

std::optional<unsigned> readPortalColorScheme() {
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected()) {
        return std::nullopt;
    }
    QDBusMessage call = QDBusMessage::createMethodCall(kPortalService, kPortalPath,
                                                       kSettingsInterface, QStringLiteral("Read"));
    call << kAppearance << kColorScheme;
    const QDBusMessage answer = bus.call(call, QDBus::Block, kPortalTimeoutMs);
    if (answer.type() != QDBusMessage::ReplyMessage || answer.arguments().isEmpty()) {
        return std::nullopt;
    }
    return schemeValue(answer.arguments().constFirst());
}

PortalSchemeWatcher::PortalSchemeWatcher(QObject* parent)
    : QObject(parent) {
    QDBusConnection bus = QDBusConnection::sessionBus();
    m_watching =
        bus.isConnected() && bus.connect(kPortalService, kPortalPath, kSettingsInterface,
                                         QStringLiteral("SettingChanged"), this,
                                         SLOT(settingChanged(QString, QString, QDBusVariant)));
}

void PortalSchemeWatcher::settingChanged(const QString& nameSpace, const QString& key,
                                         const QDBusVariant& value) {
    if (nameSpace != kAppearance || key != kColorScheme) {
        return;
    }
    if (const auto scheme = schemeValue(value.variant())) {
        emit colorSchemeChanged(*scheme);
    }
}

} // namespace ssdk::app
