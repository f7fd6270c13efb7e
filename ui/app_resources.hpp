#pragma once
// The GUI's compiled-in resources: icons for the window and each tray state, and the
// translations for the user's language.
#include <QIcon>
#include <QLocale>
#include <QString>

class QCoreApplication;

namespace rookery::ui {

// Registers the icons (:/icons/...) and translations (:/i18n/...). Safe to call repeatedly.
void initResources();

QIcon appIcon();

enum class TrayState { Contributing, Paused, Error };
QIcon trayIcon(TrayState state);

// Installs Qt's own and Rookery's translations for `locale` into `app`. Returns the
// language loaded ("de_DE"), or an empty string when Rookery has none for it (English stays,
// with its plural forms).
QString installTranslations(QCoreApplication& app, const QLocale& locale = QLocale());

}  // namespace rookery::ui
