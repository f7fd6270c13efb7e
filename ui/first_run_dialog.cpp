#include "ui/first_run_dialog.hpp"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QThread>
#include <QVBoxLayout>

#include "ui/node_launcher.hpp"

namespace rookery::ui {

namespace {
const QString kInviteKey = QStringLiteral("swarm/invite");
const QString kDemoKey = QStringLiteral("swarm/demo");
}  // namespace

bool environmentNamesSwarm(const QProcessEnvironment& env) {
  if (!env.value(QStringLiteral("ROOKERY_COORDINATOR")).trimmed().isEmpty()) return true;
  const QStringList args =
      NodeLauncher::argumentsFrom(env.value(QStringLiteral("ROOKERY_NODE_ARGS")), {});
  for (const QString& a : args) {
    for (const char* option : {"--plan", "--coordinator", "--join"}) {
      const QLatin1String name(option);
      if (a == name || a.startsWith(name + QLatin1Char('='))) return true;
    }
  }
  return false;
}

std::optional<InviteLink> savedInvite(const QSettings& settings) {
  const QString link = settings.value(kInviteKey).toString();
  if (link.isEmpty()) return std::nullopt;
  return InviteLink::parse(link);
}

void saveInvite(QSettings& settings, const InviteLink& invite) {
  settings.setValue(kInviteKey, invite.toString());
  settings.remove(kDemoKey);
  settings.sync();
}

bool savedDemo(const QSettings& settings) {
  return settings.value(kDemoKey).toBool() && savedInvite(settings);
}

void saveDemo(QSettings& settings, const InviteLink& invite) {
  settings.setValue(kInviteKey, invite.toString());
  settings.setValue(kDemoKey, true);
  settings.sync();
}

void forgetSwarm(QSettings& settings) {
  settings.remove(kInviteKey);
  settings.remove(kDemoKey);
  settings.sync();
}

bool nodeHasSwarm(const wire::pb::NodeSnapshot& s) {
  return !s.coordinator().endpoint().empty() || s.has_stage();
}

bool firstRunNeeded(const QProcessEnvironment& env, const QSettings& settings,
                    const wire::pb::NodeSnapshot* node) {
  if (environmentNamesSwarm(env)) return false;
  if (savedInvite(settings)) return false;
  return !(node && nodeHasSwarm(*node));
}

FirstRunDialog::FirstRunDialog(Options options, QWidget* parent)
    : QDialog(parent), options_(std::move(options)) {
  setObjectName(QStringLiteral("firstRunDialog"));
  setWindowTitle(options_.title.isEmpty() ? tr("Welcome to Rookery") : options_.title);
  auto* layout = new QVBoxLayout(this);

  auto* heading = new QLabel(tr("Join a training swarm"), this);
  QFont big = heading->font();
  big.setPointSizeF(big.pointSizeF() * 1.4);
  big.setBold(true);
  heading->setFont(big);
  layout->addWidget(heading);
  auto* intro = new QLabel(
      tr("Rookery lends this PC to a swarm of volunteers who train a neural network together. "
         "Choose the swarm to join; you can pause or quit at any time."),
      this);
  intro->setWordWrap(true);
  layout->addWidget(intro);

  if (options_.start_demo) {
    demo_button_ = new QPushButton(tr("Join the &demo swarm"), this);
    demo_button_->setObjectName(QStringLiteral("joinDemo"));
    const QString about_demo =
        tr("A small language model trained by a few volunteers on this PC: see Rookery at "
           "work within a minute.");
    demo_button_->setAccessibleDescription(about_demo);
    connect(demo_button_, &QPushButton::clicked, this, &FirstRunDialog::joinDemo);
    auto* demo_note = new QLabel(about_demo, this);
    demo_note->setObjectName(QStringLiteral("demoDescription"));
    demo_note->setWordWrap(true);
    demo_note->setForegroundRole(QPalette::PlaceholderText);
    layout->addSpacing(8);
    layout->addWidget(demo_button_);
    layout->addWidget(demo_note);
  }

  layout->addSpacing(8);
  auto* link_label =
      new QLabel(options_.start_demo ? tr("Or paste an &invite link from a job owner:")
                                     : tr("Paste the &invite link a job owner gave you:"),
                 this);
  layout->addWidget(link_label);
  link_edit_ = new QLineEdit(options_.link, this);
  link_edit_->setObjectName(QStringLiteral("inviteLink"));
  link_edit_->setPlaceholderText(
      QStringLiteral("rookery://join?coordinator=tcp://host:port&key=…&job=…"));
  link_edit_->setAccessibleName(tr("Invite link"));
  link_edit_->setClearButtonEnabled(true);
  link_edit_->setMinimumWidth(460);
  link_label->setBuddy(link_edit_);
  layout->addWidget(link_edit_);

  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("firstRunStatus"));
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  status_->setAccessibleName(tr("Status"));
  layout->addWidget(status_);
  layout->addStretch(1);

  auto* buttons = new QDialogButtonBox(this);
  join_button_ = buttons->addButton(tr("&Join"), QDialogButtonBox::AcceptRole);
  join_button_->setObjectName(QStringLiteral("joinLink"));
  later_button_ = buttons->addButton(tr("&Not now"), QDialogButtonBox::RejectRole);
  later_button_->setObjectName(QStringLiteral("notNow"));
  later_button_->setToolTip(tr("Rookery computes a local benchmark until this PC joins a swarm."));
  // Accepting happens only once the coordinator answered, never straight from the button.
  connect(join_button_, &QPushButton::clicked, this, &FirstRunDialog::joinLink);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);

  connect(link_edit_, &QLineEdit::textChanged, this, &FirstRunDialog::validate);
  connect(link_edit_, &QLineEdit::returnPressed, this, &FirstRunDialog::joinLink);
  validate();
}

FirstRunDialog::~FirstRunDialog() {
  if (worker_) {
    worker_->wait();  // a probe is bounded (a few seconds)
    delete worker_;
  }
}

void FirstRunDialog::showStatus(const QString& text, bool problem) {
  status_->setText(text);
  status_->setProperty("problem", problem);
  status_->setStyleSheet(problem ? QStringLiteral("color: #d0342c;") : QString());
}

void FirstRunDialog::validate() {
  if (busy_) return;
  const QString text = link_edit_->text();
  if (text.trimmed().isEmpty()) {
    join_button_->setEnabled(false);
    showStatus(QString(), false);
    return;
  }
  QString error;
  const auto link = InviteLink::parse(text, &error);
  join_button_->setEnabled(link.has_value());
  if (link) {
    showStatus(tr("Job “%1” at coordinator %2.").arg(link->job(), link->coordinator()), false);
  } else {
    showStatus(tr("This is not a valid invite link: %1.").arg(error), true);
  }
}

void FirstRunDialog::setBusy(bool busy) {
  busy_ = busy;
  link_edit_->setEnabled(!busy);
  if (demo_button_) demo_button_->setEnabled(!busy);
  join_button_->setEnabled(!busy);
  setCursor(busy ? Qt::BusyCursor : Qt::ArrowCursor);
  if (!busy) validate();
}

void FirstRunDialog::joinLink() {
  if (busy_) return;
  QString error;
  const auto link = InviteLink::parse(link_edit_->text(), &error);
  if (!link) {
    showStatus(tr("This is not a valid invite link: %1.").arg(error), true);
    return;
  }
  contact(*link, Choice::Invite);
}

void FirstRunDialog::joinDemo() {
  if (busy_ || !options_.start_demo) return;
  setBusy(true);
  showStatus(tr("Starting the demo swarm on this PC…"), false);
  // Starting it takes seconds (a coordinator, two volunteers): off the GUI thread, then the
  // same check as any invite's coordinator.
  if (worker_) {
    worker_->wait();
    delete worker_;
  }
  worker_ = QThread::create([this, start = options_.start_demo, probe = options_.probe] {
    QString error;
    const std::optional<InviteLink> link = start(&error);
    const CoordinatorProbe result = link ? probe(*link) : CoordinatorProbe{};
    QMetaObject::invokeMethod(
        this,
        [this, link, error, result] {
          if (!link) {
            setBusy(false);
            showStatus(tr("The demo swarm could not start: %1").arg(error), true);
            return;
          }
          finishContact(*link, Choice::Demo, result);
        },
        Qt::QueuedConnection);
  });
  worker_->start();
}

void FirstRunDialog::contact(const InviteLink& link, Choice choice) {
  setBusy(true);
  showStatus(tr("Contacting the coordinator at %1…").arg(link.coordinator()), false);
  auto probe = options_.probe;
  if (worker_) {
    worker_->wait();
    delete worker_;
  }
  worker_ = QThread::create([this, probe, link, choice] {
    const CoordinatorProbe result = probe(link);
    QMetaObject::invokeMethod(
        this, [this, link, choice, result] { finishContact(link, choice, result); },
        Qt::QueuedConnection);
  });
  worker_->start();
}

void FirstRunDialog::finishContact(const InviteLink& link, Choice choice,
                                   const CoordinatorProbe& result) {
  setBusy(false);
  showStatus(result.message(link), !result.ok());
  if (!result.ok()) return;
  choice_ = choice;
  invite_ = link;
  accept();
}

}  // namespace rookery::ui
