#include "ui/app_resources.hpp"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QTranslator>

// Q_INIT_RESOURCE must be used outside any namespace.
static void initRookeryResources() { Q_INIT_RESOURCE(rookery); }

namespace rookery::ui {

void initResources() {
  static const bool once = (initRookeryResources(), true);
  Q_UNUSED(once);
}

QIcon appIcon() {
  initResources();
  return QIcon(QStringLiteral(":/icons/rookery.svg"));
}

QIcon trayIcon(TrayState state) {
  initResources();
  switch (state) {
    case TrayState::Contributing: return QIcon(QStringLiteral(":/icons/tray-contributing.svg"));
    case TrayState::Paused: return QIcon(QStringLiteral(":/icons/tray-paused.svg"));
    case TrayState::Error: break;
  }
  return QIcon(QStringLiteral(":/icons/tray-error.svg"));
}

QString installTranslations(QCoreApplication& app, const QLocale& locale) {
  initResources();
  // Qt's own strings (standard buttons, dialogs) first, then Rookery's.
  auto* qt = new QTranslator(&app);
  if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
               QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
    QCoreApplication::installTranslator(qt);
  } else {
    delete qt;
  }
  auto* rookery = new QTranslator(&app);
  if (!rookery->load(locale, QStringLiteral("rookery"), QStringLiteral("_"), QStringLiteral(":/i18n"))) {
    // No translation for this language (or the C locale of a bare session): English, with
    // its plural forms ("1 micro-batch", "3 micro-batches").
    if (rookery->load(QStringLiteral("rookery_en"), QStringLiteral(":/i18n"))) {
      QCoreApplication::installTranslator(rookery);
    } else {
      delete rookery;
    }
    return {};
  }
  QCoreApplication::installTranslator(rookery);
  return rookery->language();
}

}  // namespace rookery::ui
