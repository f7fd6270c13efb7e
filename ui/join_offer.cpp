#include "ui/join_offer.hpp"

#include <QEventLoop>
#include <QLineEdit>
#include <QSettings>
#include <QTimer>
#include <QWidget>

#include "ui/node_connection.hpp"
#include "ui/node_launcher.hpp"

namespace rookery::ui {

JoinOffer::JoinOffer(NodeConnection& node, NodeLauncher& launcher, Options options, QWidget* window,
                     QObject* parent)
    : QObject(parent),
      node_(node),
      launcher_(launcher),
      options_(std::move(options)),
      window_(window) {}

QString JoinOffer::linkIn(const QStringList& arguments) {
  for (const auto& a : arguments) {
    if (a.trimmed().startsWith(QLatin1String("rookery:"), Qt::CaseInsensitive)) return a.trimmed();
  }
  return {};
}

void JoinOffer::offer(const QString& link) {
  if (dialog_) {
    if (!dialog_->busy()) dialog_->linkEdit()->setText(link);
  } else {
    FirstRunDialog::Options o;
    o.probe = options_.probe;
    o.link = link;
    o.title = FirstRunDialog::tr("Join a training swarm");
    dialog_ = new FirstRunDialog(o, window_);
    dialog_->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog_, &QDialog::accepted, this, [this, d = dialog_] {
      if (d && d->invite()) join(*d->invite());
    });
  }
  dialog_->show();
  dialog_->raise();
  dialog_->activateWindow();
}

namespace {
// Serves events until `done` holds (checked every 100 ms) or `ms` have passed.
template <class Done>
bool waitFor(Done done, int ms) {
  QEventLoop loop;
  QTimer poll;
  QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
    if (done()) loop.quit();
  });
  QTimer::singleShot(ms, &loop, &QEventLoop::quit);
  poll.start(100);
  if (!done()) loop.exec();
  return done();
}
}  // namespace

void JoinOffer::join(const InviteLink& invite) {
  QSettings settings;
  saveInvite(settings, invite);
  launcher_.setExtraArguments(options_.base_arguments + invite.nodeArguments());
  // The node running now trains another swarm (or none): it stops (saving its state) and
  // one joined to the invite takes its place. A node just launched answers first.
  waitFor([this] { return node_.isConnected() || node_.refresh() || !launcher_.launchPending(); },
          20000);
  if ((node_.isConnected() || node_.refresh()) && node_.quit()) {
    // Gone: its sockets closed and its process ended (a launch still counts as pending
    // while the process lives, and would keep the new one from starting).
    waitFor(
        [this] { return !node_.isConnected() && !node_.refresh() && !launcher_.launchPending(); },
        15000);
  }
  launcher_.ensureRunning(/*contribute=*/true);
  Q_EMIT joined(invite);
}

}  // namespace rookery::ui
