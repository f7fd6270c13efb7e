#include "ui/app_resources.hpp"

#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QDir>
#include <QSettings>
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
    case TrayState::Contributing:
      return QIcon(QStringLiteral(":/icons/tray-contributing.svg"));
    case TrayState::Paused:
      return QIcon(QStringLiteral(":/icons/tray-paused.svg"));
    case TrayState::Error:
      break;
  }
  return QIcon(QStringLiteral(":/icons/tray-error.svg"));
}

QStringList translatedLanguages() {
  initResources();
  QStringList languages;
  const QStringList files =
      QDir(QStringLiteral(":/i18n"))
          .entryList({QStringLiteral("rookery_*.qm")}, QDir::Files, QDir::Name);
  for (const QString& file : files) {
    const QString language = file.mid(8, file.size() - 8 - 3);  // rookery_<language>.qm
    if (language != QLatin1String("en")) languages << language;
  }
  return languages;
}

QLocale preferredLocale() {
  const QString setting =
      QSettings().value(QStringLiteral("appearance/language")).toString().trimmed();
  if (setting.isEmpty() || setting == QLatin1String("system")) return QLocale();
  const QLocale chosen(setting);
  // QLocale falls back to C for names it does not know; then the desktop's language stays.
  return chosen.language() == QLocale::C ? QLocale() : chosen;
}

QString languageName(const QLocale& locale) {
  if (locale.language() == QLocale::C) return QStringLiteral("English");
  QString name = locale.nativeLanguageName();
  if (!name.isEmpty()) name[0] = name[0].toUpper();
  return name;
}

QWidget* createLanguageChooser(QWidget* parent) {
  auto* row = new QWidget(parent);
  row->setObjectName(QStringLiteral("languageChooser"));
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* label =
      new QLabel(QCoreApplication::translate("rookery::ui::LanguageChooser", "&Language:"), row);
  auto* combo = new QComboBox(row);
  combo->setObjectName(QStringLiteral("languageCombo"));
  combo->setAccessibleName(QCoreApplication::translate("rookery::ui::LanguageChooser", "Language"));
  label->setBuddy(combo);
  combo->addItem(QCoreApplication::translate("rookery::ui::LanguageChooser", "The system's (%1)")
                     .arg(languageName(QLocale::system())),
                 QStringLiteral("system"));
  combo->addItem(QStringLiteral("English"), QStringLiteral("en"));
  for (const QString& language : translatedLanguages())
    combo->addItem(languageName(QLocale(language)), language);
  const QString current =
      QSettings().value(QStringLiteral("appearance/language"), QStringLiteral("system")).toString();
  const int index = combo->findData(current);
  combo->setCurrentIndex(index >= 0 ? index : 0);
  auto* note = new QLabel(QCoreApplication::translate("rookery::ui::LanguageChooser",
                                                      "Applies when Rookery starts again."),
                          row);
  note->setObjectName(QStringLiteral("languageNote"));
  note->setVisible(false);
  const auto save = [combo] {
    QSettings settings;
    settings.setValue(QStringLiteral("appearance/language"), combo->currentData().toString());
    settings.sync();
  };
  // In a dialog the choice is saved with the dialog (Save, not Cancel); alone, at once.
  auto* dialog = parent ? qobject_cast<QDialog*>(parent->window()) : nullptr;
  if (dialog) QObject::connect(dialog, &QDialog::accepted, row, save);
  QObject::connect(combo, &QComboBox::currentIndexChanged, row, [dialog, save, note] {
    if (!dialog) save();
    note->setVisible(true);
  });
  layout->addWidget(label);
  layout->addWidget(combo, 1);
  layout->addWidget(note);
  return row;
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
  if (!rookery->load(locale, QStringLiteral("rookery"), QStringLiteral("_"),
                     QStringLiteral(":/i18n"))) {
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
