#pragma once
// Rookery's main window: a header with the large Contribute / Pause button, and a dashboard
// of cards (node state, device, place in the swarm, training, contribution). It shows what the node
// reports and sends the user's commands to it; it never trains anything itself.
#include <QMainWindow>
#include <QPointer>

#include "rookery/control.pb.h"

class QGridLayout;
class QLabel;
class QPushButton;
class QTimer;

namespace rookery::ui {

class NodeConnection;
class NodeLauncher;
class ContributeButton;
class ContributionCard;
class DeviceCard;
class NodeStateCard;
class SwarmCard;
class TrainingCard;
class TrayIcon;
class PresenceReporter;
class Card;
class SettingsDialog;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // `launcher` may be null: then the window only follows a node started elsewhere.
  MainWindow(NodeConnection& node, NodeLauncher* launcher, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Adds a card to the dashboard, in reading order; later features add theirs here.
  void addCard(Card* card, int column_span = 1);

  ContributeButton* contributeButton() const { return button_; }
  DeviceCard* deviceCard() const { return device_card_; }
  NodeStateCard* nodeStateCard() const { return state_card_; }
  SwarmCard* swarmCard() const { return swarm_card_; }
  TrainingCard* trainingCard() const { return training_card_; }
  ContributionCard* contributionCard() const { return contribution_card_; }
  TrayIcon* tray() const { return tray_; }
  QPushButton* settingsButton() const { return settings_button_; }
  // The settings dialog open now (null when none).
  SettingsDialog* settingsDialog() const;
  PresenceReporter* presenceReporter() const { return presence_; }
  bool isQuitting() const { return quitting_; }

 public Q_SLOTS:
  // What the Contribute / Pause button does: pause when the node contributes, else contribute
  // (starting rookery-node first when none runs).
  void toggleContribution();
  void contribute();
  void pause();
  void showAndRaise();
  // The governor's settings, from and to the node.
  void openSettings();
  // Stops the node (bounded wait, with progress shown), then emits finished().
  void quitRookery();
  // Stops the node (unless it is stopping by itself) and starts it again with `arguments`
  // (another data folder, no swarm after leaving the job). With `keep_contributing`, the new
  // node contributes when the old one was contributing as it was asked to stop.
  void restartNode(const QStringList& arguments, bool keep_contributing);

 Q_SIGNALS:
  // The GUI is done: the node has stopped (or was left running on purpose). The
  // application exits on this.
  void finished();

 protected:
  void closeEvent(QCloseEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  void applyColours();
  // A message from the node or about it, shown for a while above the footer.
  void showNotice(const QString& text);
  void render();
  void finishQuit();

  NodeConnection& node_;
  NodeLauncher* launcher_;
  TrayIcon* tray_;
  ContributeButton* button_;
  QPushButton* settings_button_;
  PresenceReporter* presence_;
  QLabel* tagline_;
  QLabel* notice_;
  QTimer* notice_timer_;
  QLabel* footer_;
  static constexpr int kDashboardColumns = 2;
  QGridLayout* dashboard_;
  int next_row_ = 0;
  int next_column_ = 0;
  NodeStateCard* state_card_;
  DeviceCard* device_card_;
  SwarmCard* swarm_card_;
  TrainingCard* training_card_;
  ContributionCard* contribution_card_;
  QString launch_problem_;
  bool quitting_ = false;
  bool finished_ = false;
  QPointer<SettingsDialog> settings_dialog_;
};

}  // namespace rookery::ui
