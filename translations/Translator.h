#pragma once

#include <QString>

namespace redlock {

// Installs the translation of a user interface language on the running QCoreApplication: Redlock Console's own
// (embedded under :/i18n) and Qt's (qtbase, for the texts of Qt's dialogs and command line parser). The
// console and the CLI both call it before they make any translated text.
//
// language: a locale name such as "zh_CN"; empty takes the system's (LC_ALL / LANG). English needs nothing
// (the source texts are English): "C", "POSIX" and "en…" install no translator. Returns false when there is no
// Redlock translation for the language; the text then stays English.
bool installTranslations(const QString& language = {});

} // namespace redlock
