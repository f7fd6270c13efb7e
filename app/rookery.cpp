// rookery: the desktop GUI. It shows what rookery-node does and sends it the user's
// commands; it starts the node when none runs. Composition only: the parts live in ui/.
#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>
#include <QStyle>

#include "net/paths.hpp"
#include "ui/app_resources.hpp"
#include "ui/main_window.hpp"
#include "ui/node_connection.hpp"
#include "ui/node_launcher.hpp"
#include "ui/theme.hpp"
#include "ui/tray_icon.hpp"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("Rookery"));
  QApplication::setOrganizationName(QStringLiteral("Rookery"));
  QApplication::setOrganizationDomain(QStringLiteral("rookery.org"));
  QApplication::setApplicationVersion(QStringLiteral(ROOKERY_VERSION));
  QApplication::setDesktopFileName(QStringLiteral("org.rookery.Rookery"));
  rookery::ui::installTranslations(app);
  QApplication::setWindowIcon(rookery::ui::appIcon());
  // The window may hide to the tray; MainWindow::finished says when the GUI is done.
  QApplication::setQuitOnLastWindowClosed(false);

  QCommandLineParser cli;
  cli.setApplicationDescription(
      QCoreApplication::translate("main", "Rookery: lend this PC to a swarm that trains a neural network together."));
  cli.addHelpOption();
  cli.addVersionOption();
  const QCommandLineOption runtime_dir_option(
      QStringLiteral("runtime-dir"),
      QCoreApplication::translate("main", "Folder of rookery-node's control sockets (default: $XDG_RUNTIME_DIR/rookery)."),
      QStringLiteral("dir"));
  const QCommandLineOption node_bin_option(
      QStringLiteral("node-bin"),
      QCoreApplication::translate("main", "The rookery-node program to start when none runs."),
      QStringLiteral("path"));
  const QCommandLineOption minimized_option(
      QStringLiteral("minimized"), QCoreApplication::translate("main", "Start in the tray, without opening the window."));
  const QCommandLineOption contribute_option(
      QStringLiteral("contribute"),
      QCoreApplication::translate("main", "Contribute at once: ask rookery-node to contribute as soon as it answers "
                                          "(starting it when none runs)."));
  const QCommandLineOption colours_option(
      QStringLiteral("colours"),
      QCoreApplication::translate("main", "Light or dark colours, or those of the desktop (default: the "
                                          "appearance/colours setting, else system)."),
      QStringLiteral("system|light|dark"));
  cli.addOptions({runtime_dir_option, node_bin_option, minimized_option, contribute_option, colours_option});
  cli.process(app);

  // Qt follows the desktop's palette where its platform theme reports one; "dark" covers
  // desktops where it cannot, "light" keeps the style's own.
  const QString colours = cli.isSet(colours_option)
                              ? cli.value(colours_option)
                              : QSettings().value(QStringLiteral("appearance/colours"), QStringLiteral("system")).toString();
  if (colours == QLatin1String("dark")) {
    QApplication::setStyle(QStringLiteral("Fusion"));
    QApplication::setPalette(rookery::ui::theme::darkPalette());
  } else if (colours == QLatin1String("light")) {
    QApplication::setStyle(QStringLiteral("Fusion"));
    QApplication::setPalette(QApplication::style()->standardPalette());
  }

  const std::filesystem::path runtime_dir = cli.isSet(runtime_dir_option)
                                                ? std::filesystem::path(cli.value(runtime_dir_option).toStdString())
                                                : rookery::net::default_runtime_dir();

  rookery::ui::NodeConnection node(runtime_dir);
  rookery::ui::NodeLauncher::Options launch;
  launch.program = cli.value(node_bin_option);
  // A node this GUI starts gets $ROOKERY_NODE_ARGS (split as a shell would: the demo makes
  // it a pipeline stage with "--plan … --stage 0") and the data folder of $ROOKERY_DATA_DIR,
  // which the node would read from its environment anyway; explicit, it shows in `ps`.
  launch.extra_arguments = rookery::ui::NodeLauncher::argumentsFrom(qEnvironmentVariable("ROOKERY_NODE_ARGS"),
                                                                     qEnvironmentVariable("ROOKERY_DATA_DIR"));
  rookery::ui::NodeLauncher launcher(node, launch);
  rookery::ui::MainWindow window(node, &launcher);
  QObject::connect(&window, &rookery::ui::MainWindow::finished, &app, &QCoreApplication::quit);

  node.start();
  if (cli.isSet(contribute_option)) {
    window.contribute();  // the running node, or a new one started with --contribute
  } else if (!node.isConnected()) {
    launcher.ensureRunning();
  }
  // Without a tray there would be no way back to a hidden window.
  if (!cli.isSet(minimized_option) || !rookery::ui::TrayIcon::available()) window.show();
  return app.exec();
}
