#pragma once
// The first run: this GUI's node has no swarm yet. The user joins the demo swarm or pastes
// an invite link; the dialog checks the link (InviteLink) and contacts its coordinator
// (CoordinatorProbe) before accepting, and says plainly when the coordinator cannot be
// reached or refuses. "Not now" leaves the node computing its local benchmark.
//
// Whether a first run is due is decided in one place, firstRunNeeded(): not when the
// environment names a swarm (scripts/run-demo.sh sets ROOKERY_COORDINATOR, and
// ROOKERY_NODE_ARGS with --plan or --join), not when a swarm was chosen before (the
// "swarm/invite" setting), not when the running node already trains a stage or talks to a
// coordinator.
#include <QDialog>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

#include "rookery/control.pb.h"
#include "ui/first_run_probe.hpp"
#include "ui/invite_link.hpp"

class QLabel;
class QLineEdit;
class QPushButton;
class QThread;
class QSettings;

namespace rookery::ui {

// The environment gives the node a swarm: ROOKERY_COORDINATOR, or ROOKERY_NODE_ARGS with
// --plan, --coordinator or --join.
bool environmentNamesSwarm(const QProcessEnvironment& env);
// The invite chosen at an earlier first run (nothing when none, or when it no longer parses).
std::optional<InviteLink> savedInvite(const QSettings& settings);
void saveInvite(QSettings& settings, const InviteLink& invite);
// The demo swarm was chosen (its invite is saved too): start it again at each launch.
bool savedDemo(const QSettings& settings);
void saveDemo(QSettings& settings, const InviteLink& invite);
// The user left the job: no swarm is joined at the next launches (the first run offers one).
void forgetSwarm(QSettings& settings);
// The running node (when one answered) already has a swarm: a coordinator or a stage.
bool nodeHasSwarm(const wire::pb::NodeSnapshot& snapshot);
bool firstRunNeeded(const QProcessEnvironment& env, const QSettings& settings,
                    const wire::pb::NodeSnapshot* running_node);

class FirstRunDialog : public QDialog {
  Q_OBJECT

 public:
  struct Options {
    // Contacts the invite's coordinator; runs on a worker thread.
    std::function<CoordinatorProbe(const InviteLink&)> probe;
    // Starts the demo swarm and returns its invite (on a worker thread); empty function: no
    // demo offered.
    std::function<std::optional<InviteLink>(QString* error)> start_demo;
    QString link;   // prefilled invite link
    QString title;  // the window's title (empty: the first run's welcome)
  };
  enum class Choice { None, Demo, Invite };

  explicit FirstRunDialog(Options options, QWidget* parent = nullptr);
  ~FirstRunDialog() override;

  Choice choice() const { return choice_; }
  // The swarm joined (after accept()).
  const std::optional<InviteLink>& invite() const { return invite_; }
  bool busy() const { return busy_; }

  QLineEdit* linkEdit() const { return link_edit_; }
  QPushButton* joinButton() const { return join_button_; }
  QPushButton* demoButton() const { return demo_button_; }
  QPushButton* laterButton() const { return later_button_; }
  QLabel* statusLabel() const { return status_; }

 public Q_SLOTS:
  void joinLink();
  void joinDemo();

 private:
  void validate();
  void contact(const InviteLink& link, Choice choice);
  void finishContact(const InviteLink& link, Choice choice, const CoordinatorProbe& result);
  void setBusy(bool busy);
  void showStatus(const QString& text, bool problem);

  Options options_;
  QLineEdit* link_edit_;
  QPushButton* join_button_;
  QPushButton* demo_button_ = nullptr;
  QPushButton* later_button_;
  QLabel* status_;
  QThread* worker_ = nullptr;
  bool busy_ = false;
  Choice choice_ = Choice::None;
  std::optional<InviteLink> invite_;
};

}  // namespace rookery::ui
