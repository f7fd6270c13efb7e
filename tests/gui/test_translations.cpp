// Translations: every .ts in translations/ is complete (German, Spanish, French and
// Simplified Chinese entirely; English in its plural forms), placeholders, plural forms and
// accelerators survive translation, lupdate on today's sources finds no string the files
// lack, and the app comes up translated in each language (in this process, and the real
// `rookery` program following the system locale and the appearance/language setting).
#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QStandardPaths>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QFileInfo>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

#include <algorithm>
#include <memory>

#include "ui/app_resources.hpp"
#include "ui/first_run_dialog.hpp"
#include "ui/main_window.hpp"
#include "ui/node_connection.hpp"
#include "ui/settings_dialog.hpp"
#include "ui/tray_icon.hpp"
#include "ui/widgets/contribute_button.hpp"

using namespace rookery::ui;

namespace {

const QString kFix = QStringLiteral(
    "\nTo fix: `cmake --build build --target update_translations`, then translate the unfinished "
    "entries of "
    "translations/rookery_{de,es,fr,zh_CN}.ts (Qt Linguist, or edit the XML: fill <translation>, "
    "drop "
    "type=\"unfinished\"; %n messages need one <numerusform> per plural form) and run "
    "translations/english_plurals.py for the English plural forms.");

struct Message {
  QString context;
  QString source;
  bool numerus = false;
  QString type;              // "", "unfinished", "vanished", "obsolete"
  QStringList translations;  // one, or the plural forms
};

QList<Message> readTs(const QString& path, QString* language) {
  QList<Message> messages;
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return messages;
  QXmlStreamReader xml(&file);
  QString context;
  Message m;
  while (!xml.atEnd()) {
    xml.readNext();
    if (!xml.isStartElement()) continue;
    const auto name = xml.name();
    if (name == QLatin1String("TS")) {
      *language = xml.attributes().value(QLatin1String("language")).toString();
    } else if (name == QLatin1String("name")) {
      context = xml.readElementText();
    } else if (name == QLatin1String("message")) {
      m = Message{context,
                  {},
                  xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes"),
                  {},
                  {}};
    } else if (name == QLatin1String("source")) {
      m.source = xml.readElementText();
    } else if (name == QLatin1String("translation")) {
      m.type = xml.attributes().value(QLatin1String("type")).toString();
      if (m.numerus) {
        while (xml.readNextStartElement()) m.translations << xml.readElementText();
      } else {
        m.translations << xml.readElementText();
      }
      messages << m;
    }
  }
  return messages;
}

QStringList placeholders(const QString& text) {
  static const QRegularExpression re(QStringLiteral("%(?:[1-9]|n)"));
  QStringList found;
  for (auto it = re.globalMatch(text); it.hasNext();) found << it.next().captured();
  found.sort();
  found.removeDuplicates();
  return found;
}

// An accelerator is a single '&' (a literal one is written "&&").
qsizetype accelerators(const QString& text) {
  return QString(text).remove(QStringLiteral("&&")).count(QLatin1Char('&'));
}

// What is wrong with one file: messages not translated, and translations that lost a
// placeholder, a plural form or an accelerator.
QStringList problems(const QString& path) {
  QString language;
  const QList<Message> messages = readTs(path, &language);
  QStringList out;
  if (messages.isEmpty()) return {QStringLiteral("no messages read from %1").arg(path)};
  const bool english = language.startsWith(QLatin1String("en"));
  const int forms =
      language.startsWith(QLatin1String("zh")) ? 1 : 2;  // de, es, fr, en: one and many
  for (const Message& m : messages) {
    const QString where = QStringLiteral("[%1] \"%2\"").arg(m.context, m.source);
    if (m.type == QLatin1String("vanished") || m.type == QLatin1String("obsolete")) {
      out << QStringLiteral("%1 is %2 (no longer in the code)").arg(where, m.type);
      continue;
    }
    if (english && !m.numerus) continue;  // English shows its source text
    if (m.type == QLatin1String("unfinished") ||
        std::any_of(m.translations.cbegin(), m.translations.cend(),
                    [](const QString& t) { return t.isEmpty(); })) {
      out << QStringLiteral("%1 is not translated").arg(where);
      continue;
    }
    if (m.numerus && m.translations.size() != forms) {
      out << QStringLiteral("%1 has %2 plural forms, %3 needs %4")
                 .arg(where)
                 .arg(m.translations.size())
                 .arg(language)
                 .arg(forms);
    }
    for (const QString& t : m.translations) {
      if (placeholders(t) != placeholders(m.source)) {
        out << QStringLiteral("%1: \"%2\" has placeholders %3, the source %4")
                   .arg(where, t, placeholders(t).join(u','), placeholders(m.source).join(u','));
      }
      if (accelerators(t) != accelerators(m.source)) {
        out << QStringLiteral("%1: \"%2\" must keep exactly %3 '&' accelerator(s)")
                   .arg(where, t)
                   .arg(accelerators(m.source));
      }
    }
  }
  return out;
}

QStringList tsFiles(const QString& dir) {
  QStringList files;
  for (const QString& f :
       QDir(dir).entryList({QStringLiteral("rookery_*.ts")}, QDir::Files, QDir::Name)) {
    files << QDir(dir).filePath(f);
  }
  return files;
}

// The sources update_translations gives lupdate (ui/CMakeLists.txt): the GUI's code and
// the rookery main.
QStringList translatableSources() {
  QStringList sources;
  QDirIterator it(QStringLiteral(ROOKERY_SOURCE_DIR "/ui"),
                  {QStringLiteral("*.cpp"), QStringLiteral("*.hpp")}, QDir::Files,
                  QDirIterator::Subdirectories);
  while (it.hasNext()) sources << it.next();
  sources.sort();
  sources << QStringLiteral(ROOKERY_SOURCE_DIR "/app/rookery.cpp");
  return sources;
}

void removeTranslators() {
  for (QTranslator* t : QCoreApplication::instance()->findChildren<QTranslator*>()) {
    QCoreApplication::removeTranslator(t);
    delete t;
  }
}

}  // namespace

class TestTranslations : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // settings in a test folder, not the user's
    QCoreApplication::setOrganizationName(QStringLiteral("RookeryTest"));
    QCoreApplication::setApplicationName(QStringLiteral("test_translations"));
    QSettings().clear();
  }

  void languageChooser() {
    std::unique_ptr<QWidget> chooser(createLanguageChooser());
    auto* combo = chooser->findChild<QComboBox*>(QStringLiteral("languageCombo"));
    QVERIFY(combo);
    QStringList languages;
    for (int i = 0; i < combo->count(); ++i) languages << combo->itemData(i).toString();
    QCOMPARE(languages,
             (QStringList{QStringLiteral("system"), QStringLiteral("en"), QStringLiteral("de"),
                          QStringLiteral("es"), QStringLiteral("fr"), QStringLiteral("zh_CN")}));
    QCOMPARE(combo->currentData().toString(), QStringLiteral("system"));
    QVERIFY(combo->findText(QStringLiteral("Deutsch")) >= 0);
    QVERIFY(combo->findText(QStringLiteral("Français")) >= 0);
    // Without LANG (the C locale) the system's entry names English, which Rookery speaks there,
    // not an empty "()".
    QCOMPARE(languageName(QLocale::c()), QStringLiteral("English"));
    QVERIFY2(combo->itemText(0).contains(QLatin1Char('(') + languageName(QLocale::system()) +
                                         QLatin1Char(')')),
             qPrintable(combo->itemText(0)));
    QVERIFY(chooser->findChild<QLabel*>(QStringLiteral("languageNote"))->isHidden());
    combo->setCurrentIndex(combo->findData(QStringLiteral("fr")));
    QCOMPARE(QSettings().value(QStringLiteral("appearance/language")).toString(),
             QStringLiteral("fr"));
    QCOMPARE(preferredLocale().language(), QLocale::French);
    QVERIFY(!chooser->findChild<QLabel*>(QStringLiteral("languageNote"))->isHidden());
    // Shown again, the chooser starts at the saved choice.
    std::unique_ptr<QWidget> again(createLanguageChooser());
    QCOMPARE(
        again->findChild<QComboBox*>(QStringLiteral("languageCombo"))->currentData().toString(),
        QStringLiteral("fr"));
    // In a dialog: saved when the dialog is accepted, not on Cancel.
    {
      QDialog dialog;
      auto* in_dialog = createLanguageChooser(&dialog);
      auto* c = in_dialog->findChild<QComboBox*>(QStringLiteral("languageCombo"));
      c->setCurrentIndex(c->findData(QStringLiteral("de")));
      QCOMPARE(QSettings().value(QStringLiteral("appearance/language")).toString(),
               QStringLiteral("fr"));
      dialog.reject();
      QCOMPARE(QSettings().value(QStringLiteral("appearance/language")).toString(),
               QStringLiteral("fr"));
      c->setCurrentIndex(c->findData(QStringLiteral("zh_CN")));
      dialog.accept();
      QCOMPARE(QSettings().value(QStringLiteral("appearance/language")).toString(),
               QStringLiteral("zh_CN"));
      QCOMPARE(preferredLocale().language(), QLocale::Chinese);
    }
    // The settings dialog offers it.
    {
      QTemporaryDir dir;
      SettingsDialog settings(dir.filePath(QStringLiteral("run")).toStdString());
      QVERIFY(settings.findChild<QComboBox*>(QStringLiteral("languageCombo")));
    }
    // A setting naming no language leaves the system's.
    QSettings().setValue(QStringLiteral("appearance/language"), QStringLiteral("xx-nonsense"));
    QCOMPARE(preferredLocale(), QLocale());
    QSettings().remove(QStringLiteral("appearance/language"));
    QCOMPARE(preferredLocale(), QLocale());
  }

  void everyFileIsComplete() {
    const QStringList files = tsFiles(QStringLiteral(ROOKERY_SOURCE_DIR "/translations"));
    QCOMPARE(files.size(), 5);  // en, de, es, fr, zh_CN
    QStringList all;
    for (const QString& f : files) {
      for (const QString& p : problems(f))
        all << QFileInfo(f).fileName() + QStringLiteral(": ") + p;
    }
    QVERIFY2(all.isEmpty(), qPrintable(all.join(u'\n') + kFix));
  }

  void lupdateFindsNoNewStrings() {
    // lupdate over today's code, into copies: a tr() string added since the files were
    // last updated shows up here as unfinished.
    QTemporaryDir dir;
    QStringList copies;
    for (const QString& f : tsFiles(QStringLiteral(ROOKERY_SOURCE_DIR "/translations"))) {
      const QString copy = dir.filePath(QFileInfo(f).fileName());
      QVERIFY(QFile::copy(f, copy));
      QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
      copies << copy;
    }
    QProcess lupdate;
    lupdate.setProcessChannelMode(QProcess::MergedChannels);
    lupdate.start(QStringLiteral(ROOKERY_LUPDATE),
                  QStringList{QStringLiteral("-no-obsolete"), QStringLiteral("-locations"),
                              QStringLiteral("none"), QStringLiteral("-I"),
                              QStringLiteral(ROOKERY_SOURCE_DIR)} +
                      translatableSources() + QStringList{QStringLiteral("-ts")} + copies);
    QVERIFY2(lupdate.waitForFinished(60000), "lupdate did not finish");
    const QByteArray output = lupdate.readAll();
    QVERIFY2(lupdate.exitStatus() == QProcess::NormalExit && lupdate.exitCode() == 0,
             output.constData());
    QStringList all;
    for (const QString& f : copies) {
      for (const QString& p : problems(f))
        all << QFileInfo(f).fileName() + QStringLiteral(": ") + p;
    }
    QVERIFY2(all.isEmpty(),
             qPrintable(QStringLiteral("The code has strings the translations lack:\n") +
                        all.join(u'\n') + kFix));
  }

  void appInEachLanguage_data() {
    QTest::addColumn<QString>("locale");
    QTest::addColumn<QString>("loaded");
    QTest::addColumn<QString>("contribute");
    QTest::addColumn<QString>("settings");
    QTest::addColumn<QString>("welcome");
    QTest::addColumn<QString>("quit");
    QTest::newRow("de_DE") << "de_DE"
                           << "de_DE"
                           << "Beitragen"
                           << "Einstellungen…"
                           << "Willkommen bei Rookery"
                           << "Beenden";
    QTest::newRow("es_ES") << "es_ES"
                           << "es_ES"
                           << "Contribuir"
                           << "Ajustes…"
                           << "Te damos la bienvenida a Rookery"
                           << "Salir";
    QTest::newRow("fr_FR") << "fr_FR"
                           << "fr_FR"
                           << "Contribuer"
                           << "Paramètres…"
                           << "Bienvenue dans Rookery"
                           << "Quitter";
    QTest::newRow("zh_CN") << "zh_CN"
                           << "zh_CN"
                           << "贡献算力"
                           << "设置…"
                           << "欢迎使用 Rookery"
                           << "退出";
    QTest::newRow("en_GB") << "en_GB"
                           << "en_US"
                           << "Contribute"
                           << "Settings…"
                           << "Welcome to Rookery"
                           << "Quit";
  }

  void appInEachLanguage() {
    QFETCH(QString, locale);
    QFETCH(QString, loaded);
    removeTranslators();
    QCOMPARE(installTranslations(*QCoreApplication::instance(), QLocale(locale)), loaded);
    QTemporaryDir dir;
    NodeConnection node(dir.filePath(QStringLiteral("run")).toStdString());  // nobody answers there
    MainWindow window(node, nullptr);
    window.show();
    QCOMPARE(window.windowTitle(), QStringLiteral("Rookery"));
    QTEST(window.contributeButton()->text(), "contribute");
    QTEST(window.settingsButton()->text(), "settings");
    QTEST(window.tray()->quitAction()->text(), "quit");
    FirstRunDialog dialog({[](const InviteLink&) { return CoordinatorProbe{}; }, {}, {}, {}});
    QTEST(dialog.windowTitle(), "welcome");
    // A translated plural: "%n micro-batch(es)" in English too.
    const QString one =
        QCoreApplication::translate("rookery::ui::SwarmCard", "%n micro-batch(es)", nullptr, 1);
    const QString many =
        QCoreApplication::translate("rookery::ui::SwarmCard", "%n micro-batch(es)", nullptr, 5);
    QVERIFY2(one != many && !one.contains(u'(') && many.contains(u'5'),
             qPrintable(one + u'|' + many));
    removeTranslators();
  }

  void realAppFollowsLocaleAndSetting() {
    const QString program = QStringLiteral(ROOKERY_BINARY_DIR "/app/rookery");
    if (!QFile::exists(program)) QSKIP("the rookery program is not built");
    QTemporaryDir dir;
    const auto help = [&](const QString& lang) {
      QProcess p;
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
      env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
      env.remove(QStringLiteral("LANGUAGE"));
      env.insert(QStringLiteral("LC_ALL"), lang);
      env.insert(QStringLiteral("LANG"), lang);
      p.setProcessEnvironment(env);
      p.start(program, {QStringLiteral("--help")});
      p.waitForFinished(20000);
      return QString::fromUtf8(p.readAllStandardOutput());
    };
    QVERIFY2(help(QStringLiteral("de_DE.UTF-8"))
                 .contains(QStringLiteral("Stellen Sie diesen PC einem Schwarm")),
             qPrintable(help(QStringLiteral("de_DE.UTF-8"))));
    QVERIFY(help(QStringLiteral("zh_CN.UTF-8")).contains(QStringLiteral("共同训练神经网络")));
    QVERIFY(help(QStringLiteral("C")).contains(QStringLiteral("lend this PC to a swarm")));
    // The setting overrides the system's language.
    QDir().mkpath(dir.filePath(QStringLiteral("config/Rookery")));
    QSettings settings(dir.filePath(QStringLiteral("config/Rookery/Rookery.conf")),
                       QSettings::IniFormat);
    settings.setValue(QStringLiteral("appearance/language"), QStringLiteral("fr"));
    settings.sync();
    QVERIFY(
        help(QStringLiteral("de_DE.UTF-8")).contains(QStringLiteral("prêtez ce PC à un essaim")));
  }
};

QTEST_MAIN(TestTranslations)
#include "test_translations.moc"
