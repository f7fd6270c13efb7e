#pragma once
// An invite link opened while Rookery runs (`rookery rookery://join?…` handed over by the
// single-instance channel, or the desktop opening such a link): the window comes forward and
// offers to join, in the first run's join dialog with the link filled in, which contacts the
// coordinator before it accepts. Joining saves the invite (the next launches join it too)
// and restarts this PC's node with it (the node saves its state first), contributing.
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <functional>

#include "ui/first_run_dialog.hpp"
#include "ui/first_run_probe.hpp"
#include "ui/invite_link.hpp"

class QWidget;

namespace rookery::ui {

class NodeConnection;
class NodeLauncher;

class JoinOffer : public QObject {
  Q_OBJECT

 public:
  struct Options {
    // Contacts the invite's coordinator; runs on a worker thread.
    std::function<CoordinatorProbe(const InviteLink&)> probe;
    // The node's arguments apart from the swarm (--data-dir …); the invite's are added.
    QStringList base_arguments;
  };

  JoinOffer(NodeConnection& node, NodeLauncher& launcher, Options options, QWidget* window,
            QObject* parent = nullptr);

  // Shows the join dialog for `link` (the text as given: a malformed link is explained
  // there); a dialog already open takes the new link and comes forward.
  void offer(const QString& link);
  FirstRunDialog* dialog() const { return dialog_; }

  // The first argument that is a rookery:// link, or an empty string.
  static QString linkIn(const QStringList& arguments);

 Q_SIGNALS:
  // The user joined `invite`: the node was asked to restart with it.
  void joined(const rookery::ui::InviteLink& invite);

 private:
  void join(const InviteLink& invite);

  NodeConnection& node_;
  NodeLauncher& launcher_;
  Options options_;
  QWidget* window_;
  QPointer<FirstRunDialog> dialog_;
};

}  // namespace rookery::ui
