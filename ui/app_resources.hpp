#pragma once
// The GUI's compiled-in resources: icons for the window and each tray state, and the
// translations for the user's language.
#include <QIcon>
#include <QLocale>
#include <QString>
#include <QStringList>

class QCoreApplication;
class QWidget;

namespace rookery::ui {

// Registers the icons (:/icons/...) and translations (:/i18n/...). Safe to call repeatedly.
void initResources();

QIcon appIcon();

enum class TrayState { Contributing, Paused, Error };
QIcon trayIcon(TrayState state);

// The languages Rookery is translated into, as locale names ("de", "es", "fr", "zh_CN");
// English is the source language.
QStringList translatedLanguages();

// The locale the user wants Rookery in: the "appearance/language" setting when it names a
// language ("de", "fr_FR", "zh_CN"; "system" or empty: the desktop's), else the system locale.
QLocale preferredLocale();

// A "Language" row for a settings form: the system's language, English, and each
// translation, by its own name ("Deutsch", "Français"). The choice goes to the
// appearance/language setting when its dialog is accepted (at once when it is in none) and
// applies the next time Rookery starts (it says so).
// A language's name in itself, capitalised ("Français", "Deutsch"). The C locale (no LANG
// set) names no language; Rookery speaks English there, so it is named English.
QString languageName(const QLocale& locale);
QWidget* createLanguageChooser(QWidget* parent = nullptr);

// Installs Qt's own and Rookery's translations for `locale` into `app`. Returns the
// language loaded ("de_DE"), or an empty string when Rookery has none for it (English stays,
// with its plural forms).
QString installTranslations(QCoreApplication& app, const QLocale& locale = QLocale());

}  // namespace rookery::ui
