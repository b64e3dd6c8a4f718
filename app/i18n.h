#pragma once
// Which language the GUI speaks: SSD Keeper's translations (translations/*.ts, embedded under
// :/i18n), Qt's own (qtbase, when the system has them) and core's sentences
// (core/base/translate.h) through one hook on QCoreApplication::translate.

#include <QCommandLineOption>
#include <QString>

namespace ssdk::app {

// --lang LANG: show the GUI in LANG (de, de_AT, en, …) instead of the system's language.
QCommandLineOption languageOption();

// Installs the translators for `language`, or, when it is empty, for the system's UI languages
// (QLocale::system(): LANGUAGE, then LC_ALL, LC_MESSAGES, LANG), in order of preference until one
// is English (the source language) or has a translation. Replaces what an earlier call
// installed; needs a QCoreApplication. Returns the name of the loaded translation (e.g. "de"),
// or an empty string when the GUI stays English (with English plural forms, "1 partition").
QString installTranslations(const QString& language = {});

} // namespace ssdk::app
