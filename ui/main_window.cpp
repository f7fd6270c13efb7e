#include "ui/main_window.hpp"

#include <QAction>
#include <QCloseEvent>
#include <QElapsedTimer>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QTimer>
#include <QVBoxLayout>

#include "ui/app_resources.hpp"
#include "ui/cards/contribution_card.hpp"
#include "ui/cards/device_card.hpp"
#include "ui/cards/node_state_card.hpp"
#include "ui/cards/swarm_card.hpp"
#include "ui/cards/training_card.hpp"
#include "ui/first_run_dialog.hpp"
#include "ui/format.hpp"
#include "ui/node_connection.hpp"
#include "ui/node_launcher.hpp"
#include "ui/presence_reporter.hpp"
#include "ui/settings_dialog.hpp"
#include "ui/theme.hpp"
#include "ui/tray_icon.hpp"
#include "ui/widgets/card.hpp"
#include "ui/widgets/contribute_button.hpp"

namespace rookery::ui {

namespace pb = wire::pb;

namespace {
// How long Quit waits for the node to finish its work unit and save before the GUI leaves
// anyway (the node goes on stopping by itself).
constexpr int kQuitWaitMs = 20000;
}  // namespace

MainWindow::MainWindow(NodeConnection& node, NodeLauncher* launcher, QWidget* parent)
    : QMainWindow(parent), node_(node), launcher_(launcher) {
  setWindowTitle(tr("Rookery"));
  setWindowIcon(appIcon());
  setObjectName(QStringLiteral("mainWindow"));

  auto* central = new QWidget(this);
  auto* page = new QVBoxLayout(central);
  page->setContentsMargins(24, 20, 24, 16);
  page->setSpacing(18);

  // Header: who we are, and the one thing the user comes here to do.
  auto* header = new QHBoxLayout;
  header->setSpacing(14);
  auto* logo = new QLabel(central);
  logo->setPixmap(appIcon().pixmap(QSize(52, 52), devicePixelRatioF()));
  logo->setAccessibleName(tr("Rookery logo"));
  auto* titles = new QVBoxLayout;
  titles->setSpacing(2);
  auto* title = new QLabel(tr("Rookery"), central);
  title->setFont(theme::scaled(font(), 1.7, QFont::Bold));
  tagline_ = new QLabel(
      tr("Lend this PC to a swarm of volunteers training a neural network together."), central);
  tagline_->setWordWrap(true);
  titles->addStretch(1);
  titles->addWidget(title);
  titles->addWidget(tagline_);
  titles->addStretch(1);
  button_ = new ContributeButton(central);
  button_->setObjectName(QStringLiteral("contributeButton"));
  button_->setAccessibleDescription(tr("Starts or pauses this PC's contribution to the training"));
  header->addWidget(logo, 0, Qt::AlignVCenter);
  header->addLayout(titles, 1);
  settings_button_ = new QPushButton(tr("Settings…"), central);
  settings_button_->setObjectName(QStringLiteral("settingsButton"));
  settings_button_->setAccessibleDescription(
      tr("How much of this PC Rookery may use, while you use it and while it is idle"));
  header->addWidget(settings_button_, 0, Qt::AlignVCenter);
  header->addWidget(button_, 0, Qt::AlignVCenter);
  page->addLayout(header);

  // The dashboard scrolls where the window is smaller than the cards (200 % scale on a
  // small screen); Tab into a card's chart or diagram scrolls it into view.
  auto* scroll = new QScrollArea(central);
  scroll->setObjectName(QStringLiteral("dashboardScroll"));
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidgetResizable(true);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setFocusPolicy(Qt::NoFocus);
  scroll->viewport()->setAutoFillBackground(false);
  auto* cards = new QWidget(scroll);
  cards->setObjectName(QStringLiteral("dashboard"));
  cards->setAutoFillBackground(false);
  auto* cards_page = new QVBoxLayout(cards);
  cards_page->setContentsMargins(0, 0, 0, 0);
  dashboard_ = new QGridLayout;
  dashboard_->setSpacing(16);
  for (int c = 0; c < kDashboardColumns; ++c) dashboard_->setColumnStretch(c, 1);
  cards_page->addLayout(dashboard_);
  cards_page->addStretch(1);
  scroll->setWidget(cards);
  page->addWidget(scroll, 1);
  state_card_ = new NodeStateCard(cards);
  device_card_ = new DeviceCard(cards);
  swarm_card_ = new SwarmCard(cards);
  training_card_ = new TrainingCard(cards);
  addCard(state_card_);
  addCard(device_card_);
  addCard(swarm_card_);
  addCard(training_card_);
  contribution_card_ = new ContributionCard(cards);
  contribution_card_->setNodeRuntimeDir(node_.runtimeDir());
  addCard(contribution_card_, kDashboardColumns);

  notice_ = new QLabel(central);
  notice_->setObjectName(QStringLiteral("notice"));
  notice_->setWordWrap(true);
  notice_->setAccessibleName(tr("Notice"));
  notice_->hide();
  notice_timer_ = new QTimer(this);
  notice_timer_->setSingleShot(true);
  connect(notice_timer_, &QTimer::timeout, notice_, &QLabel::hide);
  page->addWidget(notice_);
  footer_ = new QLabel(central);
  footer_->setObjectName(QStringLiteral("footer"));
  footer_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  page->addWidget(footer_);
  applyColours();
  setCentralWidget(central);
  // Room for every card (two rows and the contribution) where the screen has it, else what
  // the screen allows; the page scrolls.
  QSize size(1060, 1110);
  if (const QScreen* s = screen()) size = size.boundedTo(s->availableGeometry().size() * 0.92);
  resize(size);
  setMinimumSize(720, 480);

  tray_ = new TrayIcon(this);
  connect(tray_, &TrayIcon::contributeRequested, this, &MainWindow::contribute);
  connect(tray_, &TrayIcon::pauseRequested, this, &MainWindow::pause);
  connect(tray_, &TrayIcon::openRequested, this, &MainWindow::showAndRaise);
  connect(tray_, &TrayIcon::quitRequested, this, &MainWindow::quitRookery);
  tray_->show();

  connect(button_, &QPushButton::clicked, this, &MainWindow::toggleContribution);
  connect(settings_button_, &QPushButton::clicked, this, &MainWindow::openSettings);
  // The node learns from the desktop session whether its owner is at the PC.
  presence_ = new PresenceReporter(node_.runtimeDir(), this);
  connect(&node_, &NodeConnection::snapshotChanged, this, &MainWindow::render);
  connect(&node_, &NodeConnection::connectionChanged, this, &MainWindow::render);
  connect(&node_, &NodeConnection::nodeMessage, this,
          [this](const QString& message) { showNotice(message); });
  connect(&node_, &NodeConnection::requestFailed, this,
          [this](const QString& error) { showNotice(tr("rookery-node refused: %1").arg(error)); });
  if (launcher_) {
    connect(launcher_, &NodeLauncher::launched, this, [this](qint64 pid) {
      launch_problem_.clear();
      showNotice(tr("Started rookery-node (process %1)").arg(pid));
      render();
    });
    connect(launcher_, &NodeLauncher::launchFailed, this, [this](const QString& error) {
      launch_problem_ = error;
      render();
    });
  }
  render();
}

MainWindow::~MainWindow() = default;

void MainWindow::openSettings() {
  auto* dialog = new SettingsDialog(node_.runtimeDir(), this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  if (!dialog->load()) {
    showNotice(tr("Settings are kept by rookery-node, which does not answer: %1")
                   .arg(dialog->errorText()));
    delete dialog;
    return;
  }
  connect(dialog, &QDialog::accepted, this, [this] { node_.refresh(); });
  connect(dialog, &SettingsDialog::dataFolderChanged, this, [this](const QString& dir) {
    NodeLauncher::setChosenDataDir(dir);
    if (!launcher_) return;
    showNotice(tr("Restarting rookery-node with its data in %1…").arg(dir));
    restartNode(NodeLauncher::withDataDir(launcher_->extraArguments(), dir),
                /*keep_contributing=*/true);
  });
  connect(dialog, &SettingsDialog::reachHostChanged, this, [this](const QString& host) {
    NodeLauncher::setChosenHost(host);
    if (!launcher_) return;
    showNotice(host.isEmpty() ? tr("Restarting rookery-node to find out how it is reached…")
                              : tr("Restarting rookery-node to be reached at %1…").arg(host));
    restartNode(NodeLauncher::withHost(launcher_->extraArguments(), host),
                /*keep_contributing=*/true);
  });
  connect(dialog, &SettingsDialog::leftJob, this, [this] {
    QSettings settings;
    forgetSwarm(settings);
    showNotice(tr("This PC left the job. Open an invite link to join a swarm again."));
    if (launcher_)
      restartNode(NodeLauncher::withoutSwarm(launcher_->extraArguments()),
                  /*keep_contributing=*/false);
  });
  settings_dialog_ = dialog;
  dialog->open();
}

SettingsDialog* MainWindow::settingsDialog() const { return settings_dialog_.data(); }

void MainWindow::restartNode(const QStringList& arguments, bool keep_contributing) {
  if (!launcher_) return;
  launcher_->setExtraArguments(arguments);
  // The node's state as it is asked to stop, not as last heard: the window's copy may be a
  // moment old (a node that has just begun contributing would otherwise come back paused).
  const bool running = node_.refresh();
  const bool contribute =
      keep_contributing && running && node_.snapshot().state() == wire::pb::CONTRIBUTING;
  if (running) node_.quit();
  // Started again once the node has gone (it saves its state first), at most 20 s later.
  auto* poll = new QTimer(this);
  auto* waited = new QElapsedTimer;
  waited->start();
  connect(poll, &QTimer::timeout, this, [this, poll, waited, contribute] {
    // Gone: its sockets closed and its process ended (a launch counts as pending while its
    // process lives, and would keep the new one from starting).
    if ((node_.isConnected() || node_.refresh() || launcher_->launchPending()) &&
        waited->elapsed() < 20000)
      return;
    poll->stop();
    poll->deleteLater();
    delete waited;
    launcher_->ensureRunning(contribute);
  });
  poll->start(200);
}

void MainWindow::addCard(Card* card, int column_span) {
  column_span = std::clamp(column_span, 1, kDashboardColumns);
  if (next_column_ + column_span > kDashboardColumns) {
    ++next_row_;
    next_column_ = 0;
  }
  dashboard_->addWidget(card, next_row_, next_column_, 1, column_span);
  next_column_ += column_span;
}

void MainWindow::toggleContribution() {
  if (node_.isConnected() && node_.snapshot().state() == pb::CONTRIBUTING) {
    pause();
  } else {
    contribute();
  }
}

void MainWindow::contribute() {
  if (node_.isConnected()) {
    node_.contribute();
  } else if (launcher_) {
    launcher_->ensureRunning(/*contribute=*/true);
  }
  render();
}

void MainWindow::pause() {
  if (node_.isConnected()) node_.pause();
  render();
}

void MainWindow::showAndRaise() {
  show();
  setWindowState((windowState() & ~Qt::WindowMinimized) | Qt::WindowActive);
  raise();
  activateWindow();
}

void MainWindow::render() {
  const bool connected = node_.isConnected();
  const pb::NodeSnapshot& s = node_.snapshot();
  if (connected) {
    state_card_->showSnapshot(s);
    device_card_->showSnapshot(s.device());
    swarm_card_->showSnapshot(s);
    training_card_->showSnapshot(s);
    contribution_card_->showSnapshot(s);
    tray_->showNodeState(s);
    footer_->setText(tr("rookery-node %1 · process %2 · data in %3")
                         .arg(QString::fromStdString(s.version()))
                         .arg(s.pid())
                         .arg(QString::fromStdString(s.data_dir())));
  } else {
    QString why = !launch_problem_.isEmpty()                ? launch_problem_
                  : quitting_                               ? tr("rookery-node stopped")
                  : launcher_ && launcher_->launchPending() ? tr("Starting rookery-node…")
                  : !node_.lastError().isEmpty()            ? node_.lastError()
                                                            : tr("Connecting to rookery-node…");
    state_card_->showDisconnected(why);
    if (!node_.hasSnapshot()) device_card_->showDisconnected();
    swarm_card_->showDisconnected();
    training_card_->showDisconnected();
    contribution_card_->showDisconnected();
    tray_->showDisconnected(why);
    tray_->contributeAction()->setEnabled(launcher_ != nullptr && !quitting_);
  }

  // The button offers what the node's reported state allows next.
  const auto state = s.state();
  if (quitting_ || (connected && state == pb::STOPPING)) {
    button_->setAction(ContributeButton::Action::Pause);
    button_->setText(tr("Stopping…"));
    button_->setEnabled(false);
  } else if (connected && state == pb::CONTRIBUTING) {
    button_->setAction(ContributeButton::Action::Pause);
    button_->setText(tr("Pause"));
    button_->setEnabled(true);
  } else {
    button_->setAction(ContributeButton::Action::Contribute);
    button_->setText(tr("Contribute"));
    button_->setEnabled(connected ? state != pb::FAILED : launcher_ != nullptr);
  }
  button_->setAccessibleName(button_->text());
  button_->updateGeometry();
}

void MainWindow::showNotice(const QString& text) {
  notice_->setText(text);
  notice_->show();
  notice_timer_->start(20000);
}

void MainWindow::changeEvent(QEvent* event) {
  QMainWindow::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) applyColours();
}

void MainWindow::applyColours() {
  for (auto* label : {tagline_, footer_}) {
    QPalette pal = label->palette();
    pal.setColor(QPalette::WindowText, theme::secondaryText(palette()));
    label->setPalette(pal);
  }
  QPalette pal = notice_->palette();
  pal.setColor(QPalette::WindowText, theme::warning(palette()));
  notice_->setPalette(pal);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (quitting_ || finished_) {
    event->accept();
    return;
  }
  if (tray_->isVisible()) {
    // The tray keeps Rookery at hand; say so once, the first time the window goes there.
    QSettings settings;
    if (!settings.value(QStringLiteral("notices/hiddenToTray")).toBool()) {
      tray_->notify(tr("Rookery is still running"),
                    tr("Rookery keeps working in the tray. Use its menu to pause or quit."));
      settings.setValue(QStringLiteral("notices/hiddenToTray"), true);
    }
    hide();
    event->ignore();
    return;
  }
  // No tray: closing the window is the way out. A node that is contributing keeps going,
  // because that is what the user asked for and reopening Rookery reaches it again; an idle
  // node has nothing to do, so it stops with the window.
  if (node_.isConnected() && node_.snapshot().state() == pb::CONTRIBUTING) {
    QSettings settings;
    if (!settings.value(QStringLiteral("notices/contributingInBackground")).toBool()) {
      QMessageBox::information(
          this, tr("Rookery keeps contributing"),
          tr("This PC goes on contributing in the background. Open Rookery again to "
             "pause it or to quit."));
      settings.setValue(QStringLiteral("notices/contributingInBackground"), true);
    }
    if (launcher_) launcher_->stopKeepingAlive();
    finished_ = true;
    event->accept();
    Q_EMIT finished();
    return;
  }
  event->ignore();
  quitRookery();
}

void MainWindow::quitRookery() {
  if (quitting_) return;
  quitting_ = true;
  if (launcher_) launcher_->stopKeepingAlive();
  render();
  if (!node_.isConnected() || !node_.quit() || !node_.isConnected()) {
    finishQuit();
    return;
  }
  auto* progress =
      new QProgressDialog(tr("Stopping rookery-node: it finishes its current work unit and saves…"),
                          tr("Close Now"), 0, 0, isVisible() ? this : nullptr);
  progress->setObjectName(QStringLiteral("quitProgress"));
  progress->setWindowTitle(tr("Quitting Rookery"));
  progress->setWindowModality(Qt::ApplicationModal);
  progress->setMinimumDuration(400);
  progress->setAutoClose(false);
  progress->setAutoReset(false);
  progress->setAttribute(Qt::WA_DeleteOnClose);
  // The SHUTDOWN event normally ends the wait; polling covers a missed event.
  auto* poll = new QTimer(progress);
  poll->start(250);
  connect(poll, &QTimer::timeout, this, [this] {
    if (node_.isConnected()) node_.refresh();
  });
  auto* deadline = new QTimer(progress);
  deadline->setSingleShot(true);
  deadline->start(kQuitWaitMs);
  auto done = [this, progress] {
    progress->close();
    finishQuit();
  };
  connect(deadline, &QTimer::timeout, progress, done);
  connect(progress, &QProgressDialog::canceled, progress, done);
  connect(&node_, &NodeConnection::connectionChanged, progress, [done](bool connected) {
    if (!connected) done();
  });
}

void MainWindow::finishQuit() {
  if (finished_) return;
  finished_ = true;
  render();
  Q_EMIT finished();
}

}  // namespace rookery::ui
