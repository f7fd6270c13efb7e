// rookery: the desktop GUI. It shows what rookery-node does and sends it the user's
// commands; it starts the node when none runs. Composition only: the parts live in ui/.
#include <QApplication>
#include <QCommandLineParser>
#include <QEventLoop>
#include <QLineEdit>
#include <QProcessEnvironment>
#include <QSettings>
#include <QStyle>
#include <QTimer>

#include <cstdio>

#include "net/paths.hpp"
#include "ui/app_resources.hpp"
#include "ui/first_run_demo.hpp"
#include "ui/first_run_dialog.hpp"
#include "ui/join_offer.hpp"
#include "ui/main_window.hpp"
#include "ui/node_connection.hpp"
#include "ui/node_launcher.hpp"
#include "ui/single_instance.hpp"
#include "ui/theme.hpp"
#include "ui/tray_icon.hpp"

namespace {

// Waits (events flowing) until the node has gone, at most `ms`.
bool waitUntilDisconnected(rookery::ui::NodeConnection& node, int ms) {
  QEventLoop loop;
  QTimer poll;
  QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
    if (!node.isConnected() && !node.refresh()) loop.quit();
  });
  QTimer::singleShot(ms, &loop, &QEventLoop::quit);
  poll.start(100);
  loop.exec();
  return !node.isConnected();
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("Rookery"));
  QApplication::setOrganizationName(QStringLiteral("Rookery"));
  QApplication::setOrganizationDomain(QStringLiteral("rookery.org"));
  QApplication::setApplicationVersion(QStringLiteral(ROOKERY_VERSION));
  QApplication::setDesktopFileName(QStringLiteral("org.rookery.Rookery"));
  // The desktop's language, unless the appearance/language setting names another.
  rookery::ui::installTranslations(app, rookery::ui::preferredLocale());
  QApplication::setWindowIcon(rookery::ui::appIcon());
  // The window may hide to the tray; MainWindow::finished says when the GUI is done.
  QApplication::setQuitOnLastWindowClosed(false);

  QCommandLineParser cli;
  cli.setApplicationDescription(QCoreApplication::translate(
      "main", "Rookery: lend this PC to a swarm that trains a neural network together."));
  cli.addHelpOption();
  cli.addVersionOption();
  const QCommandLineOption runtime_dir_option(
      QStringLiteral("runtime-dir"),
      QCoreApplication::translate(
          "main", "Folder of rookery-node's control sockets (default: $XDG_RUNTIME_DIR/rookery)."),
      QStringLiteral("dir"));
  const QCommandLineOption node_bin_option(
      QStringLiteral("node-bin"),
      QCoreApplication::translate("main", "The rookery-node program to start when none runs."),
      QStringLiteral("path"));
  const QCommandLineOption minimized_option(
      QStringLiteral("minimized"),
      QCoreApplication::translate("main", "Start in the tray, without opening the window."));
  const QCommandLineOption contribute_option(
      QStringLiteral("contribute"),
      QCoreApplication::translate(
          "main",
          "Contribute at once: ask rookery-node to contribute as soon as it answers "
          "(starting it when none runs)."));
  const QCommandLineOption colours_option(
      QStringLiteral("colours"),
      QCoreApplication::translate("main",
                                  "Light or dark colours, or those of the desktop (default: the "
                                  "appearance/colours setting, else system)."),
      QStringLiteral("system|light|dark"));
  cli.addOptions(
      {runtime_dir_option, node_bin_option, minimized_option, contribute_option, colours_option});
  cli.addPositionalArgument(
      QStringLiteral("link"),
      QCoreApplication::translate(
          "main", "An invite link to join (rookery://join?…): Rookery offers to join its swarm."),
      QStringLiteral("[rookery://join?…]"));
  cli.process(app);
  // The desktop opens rookery:// links with `rookery %u` (the desktop entry's MimeType).
  const QString opened_link = rookery::ui::JoinOffer::linkIn(cli.positionalArguments());

  const std::filesystem::path runtime_dir =
      cli.isSet(runtime_dir_option)
          ? std::filesystem::path(cli.value(runtime_dir_option).toStdString())
          : rookery::net::default_runtime_dir();

  // One window per user and runtime folder: a second launch brings the first forward
  // (handing it --contribute) and exits.
  rookery::ui::SingleInstance instance(runtime_dir);
  QStringList request;
  if (cli.isSet(contribute_option)) request << QStringLiteral("--contribute");
  if (!opened_link.isEmpty()) request << opened_link;
  switch (instance.claim(request)) {
    case rookery::ui::SingleInstance::Role::Primary:
      break;
    case rookery::ui::SingleInstance::Role::Secondary:
      std::fprintf(stderr, "rookery: already running; its window was asked to come forward%s\n",
                   opened_link.isEmpty() ? "" : " and to offer the invite link");
      return 0;
    case rookery::ui::SingleInstance::Role::Failed:
      std::fprintf(stderr, "rookery: %s\n", qPrintable(instance.error()));
      return 1;
    case rookery::ui::SingleInstance::Role::Unguarded:
      std::fprintf(stderr, "rookery: running without the one-instance guard: %s\n",
                   qPrintable(instance.error()));
      break;
  }

  // Qt follows the desktop's palette where its platform theme reports one; "dark" covers
  // desktops where it cannot, "light" keeps the style's own.
  const QString colours =
      cli.isSet(colours_option)
          ? cli.value(colours_option)
          : QSettings()
                .value(QStringLiteral("appearance/colours"), QStringLiteral("system"))
                .toString();
  if (colours == QLatin1String("dark")) {
    QApplication::setStyle(QStringLiteral("Fusion"));
    QApplication::setPalette(rookery::ui::theme::darkPalette());
  } else if (colours == QLatin1String("light")) {
    QApplication::setStyle(QStringLiteral("Fusion"));
    QApplication::setPalette(QApplication::style()->standardPalette());
  }

  rookery::ui::NodeConnection node(runtime_dir);
  node.start();
  rookery::ui::NodeLauncher::Options launch;
  launch.program = cli.value(node_bin_option);
  // A node this GUI starts gets $ROOKERY_NODE_ARGS (split as a shell would: the demo makes
  // it a pipeline stage with "--plan … --stage 0") and the data folder of $ROOKERY_DATA_DIR
  // (else the one chosen in Settings),
  // which the node would read from its environment anyway; explicit, it shows in `ps`.
  launch.extra_arguments = rookery::ui::NodeLauncher::argumentsFrom(
      qEnvironmentVariable("ROOKERY_NODE_ARGS"), rookery::ui::NodeLauncher::chosenDataDir(),
      rookery::ui::NodeLauncher::chosenHost());

  // The swarm this PC joins: the environment's (the demo script), the one chosen at the
  // first run (the demo swarm is started again), or, at the first run, the one the user
  // chooses now.
  const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  QSettings settings;
  // The node's folder (its keys: the first run's probe contacts coordinators as this node).
  const std::filesystem::path node_data_dir =
      rookery::ui::NodeLauncher::chosenDataDir().isEmpty()
          ? rookery::net::default_data_dir()
          : std::filesystem::path(rookery::ui::NodeLauncher::chosenDataDir().toStdString());
  const QString data_dir = QString::fromStdString(node_data_dir.string());
  // The node answers the first run's probe too: the window never speaks to a coordinator.
  const QString node_program = rookery::ui::NodeLauncher::findNodeProgram(launch.program);
  const rookery::ui::DemoSwarm::Setup demo = rookery::ui::DemoSwarm::locate(node_program, data_dir);
  bool demo_swarm = false;
  bool joined_now = false;  // the user just chose a swarm: contribute to it
  if (!opened_link.isEmpty()) {
    // Opened with an invite link: the join dialog with it filled in, which contacts its
    // coordinator before joining. Declined, Rookery goes on with the swarm it had.
    rookery::ui::FirstRunDialog::Options join;
    join.probe = [dir = node_data_dir, node_program](const rookery::ui::InviteLink& l) {
      return rookery::ui::CoordinatorProbe::runAsNode(l, node_program, dir);
    };
    join.link = opened_link;
    join.title = rookery::ui::FirstRunDialog::tr("Join a training swarm");
    rookery::ui::FirstRunDialog dialog(join);
    QObject::connect(
        &instance, &rookery::ui::SingleInstance::activated, &dialog,
        [&dialog](const QStringList& asked) {
          const QString another = rookery::ui::JoinOffer::linkIn(asked);
          if (!another.isEmpty() && !dialog.busy()) {
            std::fprintf(
                stderr,
                "rookery: another launch handed over an invite link: shown in the join dialog\n");
            dialog.linkEdit()->setText(another);
          }
          dialog.raise();
          dialog.activateWindow();
        });
    std::fprintf(stderr, "rookery: opened with an invite link: offering to join\n");
    if (dialog.exec() == QDialog::Accepted && dialog.invite()) {
      rookery::ui::saveInvite(settings, *dialog.invite());
      // The swarm of the link replaces any the environment named.
      launch.extra_arguments = rookery::ui::NodeLauncher::argumentsFrom(
                                   QString(), rookery::ui::NodeLauncher::chosenDataDir(),
                                   rookery::ui::NodeLauncher::chosenHost()) +
                               dialog.invite()->nodeArguments();
      joined_now = true;
      if (node.isConnected() && node.quit()) waitUntilDisconnected(node, 15000);
    }
  }
  if (!joined_now && !rookery::ui::environmentNamesSwarm(env)) {
    QStringList swarm_arguments;
    if (rookery::ui::savedDemo(settings)) {
      QString error;
      if (const auto running = rookery::ui::DemoSwarm::start(demo, &error)) {
        swarm_arguments = running->node_arguments;
        demo_swarm = true;
      } else {
        std::fprintf(stderr, "rookery: the demo swarm did not start: %s\n", qPrintable(error));
      }
    } else if (const auto invite = rookery::ui::savedInvite(settings)) {
      swarm_arguments = invite->nodeArguments();
    } else if (!cli.isSet(minimized_option) &&
               rookery::ui::firstRunNeeded(env, settings,
                                           node.isConnected() ? &node.snapshot() : nullptr)) {
      rookery::ui::FirstRunDialog::Options first_run;
      first_run.probe = [dir = node_data_dir, node_program](const rookery::ui::InviteLink& link) {
        return rookery::ui::CoordinatorProbe::runAsNode(link, node_program, dir);
      };
      QStringList demo_arguments;
      first_run.start_demo =
          [&demo, &demo_arguments](QString* error) -> std::optional<rookery::ui::InviteLink> {
        const auto running = rookery::ui::DemoSwarm::start(demo, error);
        if (!running) return std::nullopt;
        demo_arguments = running->node_arguments;
        return running->invite;
      };
      rookery::ui::FirstRunDialog dialog(first_run);
      // A second launch while the dialog is open brings the dialog forward.
      QObject::connect(&instance, &rookery::ui::SingleInstance::activated, &dialog, [&dialog] {
        dialog.raise();
        dialog.activateWindow();
      });
      if (dialog.exec() == QDialog::Accepted && dialog.invite()) {
        if (dialog.choice() == rookery::ui::FirstRunDialog::Choice::Demo) {
          rookery::ui::saveDemo(settings, *dialog.invite());
          swarm_arguments = demo_arguments;
          demo_swarm = true;
        } else {
          rookery::ui::saveInvite(settings, *dialog.invite());
          swarm_arguments = dialog.invite()->nodeArguments();
        }
        joined_now = true;
        // A node already running without a swarm is restarted with it.
        if (node.isConnected() && node.quit()) waitUntilDisconnected(node, 15000);
      }
    }
    launch.extra_arguments << swarm_arguments;
  }

  rookery::ui::NodeLauncher launcher(node, launch);
  rookery::ui::MainWindow window(node, &launcher);
  QObject::connect(&window, &rookery::ui::MainWindow::finished, &app, [&] {
    // The demo's helpers go with this PC's node (a node left running keeps its swarm).
    if (demo_swarm && !node.isConnected() && !node.refresh())
      rookery::ui::DemoSwarm::stop(demo.dir);
    QCoreApplication::quit();
  });
  QObject::connect(&node, &rookery::ui::NodeConnection::nodeMessage, window.tray(),
                   &rookery::ui::TrayIcon::showNodeMessage);
  // The tray's Snooze for an hour / End the snooze: the node keeps the snooze.
  QObject::connect(window.tray(), &rookery::ui::TrayIcon::snoozeRequested, &node,
                   [&node, &window, runtime_dir](int seconds) {
                     QString error;
                     if (!rookery::ui::TrayIcon::requestSnooze(runtime_dir, seconds, &error)) {
                       window.tray()->notify(
                           QCoreApplication::translate("main", "Rookery could not snooze"), error,
                           QSystemTrayIcon::Warning);
                     }
                     node.refresh();
                   });
  // An invite link a later launch hands over: the window offers to join its swarm.
  rookery::ui::JoinOffer::Options offer_options;
  offer_options.probe = [dir = node_data_dir, node_program](const rookery::ui::InviteLink& l) {
    return rookery::ui::CoordinatorProbe::runAsNode(l, node_program, dir);
  };
  offer_options.base_arguments = rookery::ui::NodeLauncher::argumentsFrom(
      QString(), rookery::ui::NodeLauncher::chosenDataDir(),
      rookery::ui::NodeLauncher::chosenHost());
  rookery::ui::JoinOffer offer(node, launcher, offer_options, &window);
  QObject::connect(&offer, &rookery::ui::JoinOffer::joined, &window,
                   [](const rookery::ui::InviteLink& invite) {
                     std::fprintf(stderr, "rookery: joining job %s at %s\n",
                                  qPrintable(invite.job()), qPrintable(invite.coordinator()));
                   });
  QObject::connect(&instance, &rookery::ui::SingleInstance::activated, &window,
                   [&window, &offer](const QStringList& asked) {
                     const bool contribute = asked.contains(QStringLiteral("--contribute"));
                     const QString handed = rookery::ui::JoinOffer::linkIn(asked);
                     std::fprintf(stderr, "rookery: another launch asked for the window%s%s\n",
                                  contribute ? " and to contribute" : "",
                                  handed.isEmpty() ? "" : " with an invite link: offering to join");
                     window.showAndRaise();
                     if (!handed.isEmpty()) {
                       offer.offer(handed);
                     } else if (contribute) {
                       window.contribute();
                     }
                   });

  if (cli.isSet(contribute_option) || joined_now) {
    window.contribute();  // the running node, or a new one started with --contribute
  } else if (!node.isConnected()) {
    launcher.ensureRunning();
  }
  // Without a tray there would be no way back to a hidden window.
  if (!cli.isSet(minimized_option) || !rookery::ui::TrayIcon::available()) window.show();
  return app.exec();
}
