#include "app/i18n.h"

#include <memory>
#include <string>
#include <string_view>

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QStringList>
#include <QTranslator>

#include "core/base/log.h"
#include "core/base/translate.h"

namespace ssdk::app {

namespace {

// The translators installed last; replaced together by the next installTranslations().
struct Installed {
    std::unique_ptr<QTranslator> own;
    std::unique_ptr<QTranslator> qtBase;
};

Installed& installed() {
    static Installed translators;
    return translators;
}

// "de-AT" → {"de_AT", "de"}; the languages to try for one preference, most specific first.
QStringList candidates(const QString& uiLanguage) {
    QString name = uiLanguage;
    name.replace(QLatin1Char('-'), QLatin1Char('_'));
    QStringList names{name};
    const qsizetype separator = name.indexOf(QLatin1Char('_'));
    if (separator > 0) {
        names.append(name.left(separator));
    }
    return names;
}

bool isEnglish(const QString& name) {
    return name == QLatin1String("C") || name == QLatin1String("POSIX") ||
           name == QLatin1String("en") || name.startsWith(QLatin1String("en_"));
}

std::unique_ptr<QTranslator> loadFrom(const QString& file, const QString& dir) {
    auto translator = std::make_unique<QTranslator>();
    if (!translator->load(file, dir)) {
        return nullptr;
    }
    return translator;
}

std::string translateCore(std::string_view context, std::string_view text) {
    const std::string contextZ(context);
    const std::string textZ(text);
    return QCoreApplication::translate(contextZ.c_str(), textZ.c_str()).toStdString();
}

} // namespace

QCommandLineOption languageOption() {
    return {QStringLiteral("lang"),
            QStringLiteral("Show the window in LANG (for example de, or en for English) instead of "
                           "the system's language."),
            QStringLiteral("LANG")};
}

QString installTranslations(const QString& language) {
    auto& current = installed();
    for (auto* translator : {current.own.get(), current.qtBase.get()}) {
        if (translator != nullptr) {
            QCoreApplication::removeTranslator(translator);
        }
    }
    current = {};
    ssdk::setTranslator({});

    const QStringList preferences =
        language.isEmpty() ? QLocale::system().uiLanguages() : QStringList{language};
    QString loaded;
    for (const QString& preference : preferences) {
        for (const QString& name : candidates(preference)) {
            if (isEnglish(name)) {
                break;
            }
            current.own = loadFrom(QStringLiteral("ssdkeeper_") + name, QStringLiteral(":/i18n"));
            if (current.own) {
                // load() falls back from "ssdkeeper_de_AT" to "ssdkeeper_de" by itself: the
                // translation's own language says which one it found.
                loaded = current.own->language().isEmpty() ? name : current.own->language();
                break;
            }
        }
        if (!loaded.isEmpty() || isEnglish(candidates(preference).constLast())) {
            break;
        }
    }
    if (loaded.isEmpty()) {
        if (!language.isEmpty() && !isEnglish(candidates(language).constLast())) {
            log::get("app")->warn("no translation for the language {}; showing English",
                                  language.toStdString());
        }
        // English needs only the plural forms of the %n strings ("1 partition").
        current.own = loadFrom(QStringLiteral("ssdkeeper_en"), QStringLiteral(":/i18n"));
        if (current.own) {
            QCoreApplication::installTranslator(current.own.get());
        }
        return {};
    }
    QCoreApplication::installTranslator(current.own.get());
    // Qt's own dialogs and buttons; a missing qtbase translation only leaves those English.
    current.qtBase = loadFrom(QStringLiteral("qtbase_") + loaded,
                              QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    if (current.qtBase) {
        QCoreApplication::installTranslator(current.qtBase.get());
    }
    ssdk::setTranslator(translateCore);
    return loaded;
}

} // namespace ssdk::app
