#include "ui/settings_dialog.hpp"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QMessageBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHostAddress>
#include <QRegularExpression>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include "control/control_client.hpp"
#include "ui/app_resources.hpp"
#include "ui/autostart.hpp"
#include "ui/node_launcher.hpp"
#include "ui/reasons.hpp"

namespace rookery::ui {

namespace pb = wire::pb;

namespace {
// A row of `parent`: a label naming a line edit (its buddy), whose tooltip and accessible
// description both say `about`. Returns the row, for buttons to follow.
QHBoxLayout* labelledEdit(QWidget* parent, QLineEdit*& edit, const QString& label,
                          const QString& object_name, const QString& accessible_name,
                          const QString& about) {
  auto* l = new QLabel(label, parent);
  edit = new QLineEdit(parent);
  edit->setObjectName(object_name);
  edit->setAccessibleName(accessible_name);
  edit->setToolTip(about);
  edit->setAccessibleDescription(about);
  l->setBuddy(edit);
  auto* row = new QHBoxLayout;
  row->addWidget(l);
  row->addWidget(edit, 1);
  return row;
}
}  // namespace

SettingsDialog::SettingsDialog(std::filesystem::path runtime_dir, QWidget* parent)
    : QDialog(parent), runtime_dir_(std::move(runtime_dir)) {
  setObjectName(QStringLiteral("settingsDialog"));
  setWindowTitle(tr("Rookery settings"));
  auto* layout = new QVBoxLayout(this);
  form_host_ = new QWidget(this);
  form_host_->setLayout(new QVBoxLayout);
  form_host_->layout()->setContentsMargins(0, 0, 0, 0);
  auto* session = new QGroupBox(tr("This computer"), this);
  session->setObjectName(QStringLiteral("settingsGroup_session"));
  auto* session_form = new QVBoxLayout(session);
  autostart_ = new QCheckBox(tr("Start with my session"), session);
  autostart_->setObjectName(QStringLiteral("autostartCheckBox"));
  autostart_->setToolTip(
      tr("Open Rookery in the tray when you log in (%1)").arg(Autostart::location()));
  autostart_->setChecked(Autostart::isEnabled());
  session_form->addWidget(autostart_);
  auto* data_row = labelledEdit(
      session, data_dir_, tr("&Data folder:"), QStringLiteral("dataFolder"), tr("Data folder"),
      tr("Where rookery-node keeps this PC's keys, its settings, the contribution ledger and "
         "checkpoints. Another folder starts afresh (a new identity, an empty ledger) unless you "
         "copy the old one there; the node restarts to use it."));
  auto* choose = new QPushButton(tr("C&hoose…"), session);
  choose->setObjectName(QStringLiteral("chooseDataFolder"));
  choose->setAccessibleDescription(tr("Choose the data folder"));
  connect(choose, &QPushButton::clicked, this, &SettingsDialog::chooseDataFolder);
  data_row->addWidget(choose);
  session_form->addLayout(data_row);
  auto* swarm_box = new QGroupBox(tr("The swarm"), this);
  swarm_box->setObjectName(QStringLiteral("settingsGroup_swarm"));
  auto* swarm_column = new QVBoxLayout(swarm_box);
  auto* swarm_layout = new QHBoxLayout;
  swarm_column->addLayout(swarm_layout);
  swarm_ = new QLabel(swarm_box);
  swarm_->setObjectName(QStringLiteral("swarmDescription"));
  swarm_->setWordWrap(true);
  leave_button_ = new QPushButton(tr("&Leave this job…"), swarm_box);
  leave_button_->setObjectName(QStringLiteral("leaveJobButton"));
  leave_button_->setAccessibleDescription(
      tr("This PC stops training for the job for good: the coordinator plans without it at once"));
  leave_button_->setEnabled(false);
  connect(leave_button_, &QPushButton::clicked, this, [this] { leaveJob(true); });
  swarm_layout->addWidget(swarm_, 1);
  swarm_layout->addWidget(leave_button_, 0, Qt::AlignVCenter);
  // For experts: the node finds out how other PCs reach it (its router's mapping, a relay)
  // unless an address is given here.
  auto* host_row = labelledEdit(
      swarm_box, host_, tr("Reached at (e&xperts):"), QStringLiteral("reachHost"),
      tr("Address other PCs reach this one at"),
      tr("Leave empty: Rookery finds out how other PCs reach this one (through the home "
         "router, or a relay). An address here (a public IP address or host name of this PC) is "
         "used as it is, and the node listens only there; the node restarts to use it."));
  // Shown while empty: what happens then.
  host_->setPlaceholderText(tr("found out by Rookery"));
  loaded_host_ = NodeLauncher::chosenHost();
  host_->setText(loaded_host_);
  swarm_column->addLayout(host_row);
  error_ = new QLabel(this);
  error_->setObjectName(QStringLiteral("settingsError"));
  error_->setWordWrap(true);
  error_->setVisible(false);
  auto* buttons = new QDialogButtonBox(
      QDialogButtonBox::Save | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
  auto* snooze = buttons->addButton(tr("Snooze for an hour"), QDialogButtonBox::ActionRole);
  snooze->setObjectName(QStringLiteral("snoozeButton"));
  connect(buttons->button(QDialogButtonBox::Save), &QPushButton::clicked, this,
          &SettingsDialog::save);
  connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
          &SettingsDialog::restoreDefaults);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(snooze, &QPushButton::clicked, this, &SettingsDialog::snoozeOneHour);
  // The settings scroll where the screen is shorter than they are (a laptop at 200%); the
  // error and the buttons stay in view.
  scroll_ = new QScrollArea(this);
  scroll_->setObjectName(QStringLiteral("settingsScroll"));
  scroll_->setWidgetResizable(true);
  scroll_->setFrameShape(QFrame::NoFrame);
  scroll_->setFocusPolicy(Qt::NoFocus);
  scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  content_ = new QWidget(scroll_);
  auto* content = new QVBoxLayout(content_);
  content->setContentsMargins(0, 0, 0, 0);
  content->addWidget(form_host_);
  content->addWidget(
      createLanguageChooser(content_));  // appearance/language, saved with the dialog
  content->addWidget(session);
  content->addWidget(swarm_box);
  content->addStretch(1);
  scroll_->setWidget(content_);
  layout->addWidget(scroll_, 1);
  layout->addWidget(error_);
  layout->addWidget(buttons);
}

void SettingsDialog::showEvent(QShowEvent* event) {
  QDialog::showEvent(event);
  if (!fitted_) {
    fitted_ = true;
    fitToScreen();
  }
}

void SettingsDialog::fitToScreen() {
  // As large as the settings (no scrolling) where the screen allows, else the screen's height.
  content_->adjustSize();
  const QSize inner = content_->sizeHint();
  const QMargins m = layout()->contentsMargins();
  const int spacing = layout()->spacing();
  int height = m.top() + inner.height() + spacing +
               layout()->itemAt(layout()->count() - 1)->sizeHint().height() + m.bottom();
  if (error_->isVisible()) height += spacing + error_->sizeHint().height();
  QSize want(
      m.left() + inner.width() + scroll_->verticalScrollBar()->sizeHint().width() + m.right(),
      height);
  if (const QScreen* s = screen()) want = want.boundedTo(s->availableGeometry().size() * 0.9);
  resize(want.expandedTo(minimumSizeHint()));
}

bool SettingsDialog::request(const pb::ControlRequest& request, pb::ControlReply* reply) {
  control::ControlClient client(control::ControlEndpoints::in(runtime_dir_));
  const auto a = client.request(request, std::chrono::milliseconds(2000), reply);
  if (!a.ok) {
    showError(QString::fromStdString(a.error));
    return false;
  }
  error_->setVisible(false);
  return true;
}

void SettingsDialog::showError(const QString& text) {
  error_->setText(text);
  error_->setVisible(true);
}

QString SettingsDialog::errorText() const {
  return error_->isVisible() ? error_->text() : QString();
}

bool SettingsDialog::load() {
  pb::ControlRequest r;
  r.set_kind(pb::ControlRequest::GET_PREFERENCES);
  pb::ControlReply reply;
  if (!request(r, &reply)) return false;
  build(reply);
  return true;
}

void SettingsDialog::build(const pb::ControlReply& reply) {
  // The node's data folder and swarm, from the snapshot every reply carries.
  const auto& node = reply.snapshot();
  if (loaded_data_dir_.isEmpty() && !node.data_dir().empty()) {
    loaded_data_dir_ = QString::fromStdString(node.data_dir());
    data_dir_->setText(loaded_data_dir_);
  }
  const QString endpoint = QString::fromStdString(node.coordinator().endpoint());
  // The job the node joined, from its start: seated, waiting for a seat, or held back by the
  // governor. A node on a fixed plan names its job only through the stage it trains.
  QString job = QString::fromStdString(node.coordinator().job_id());
  if (job.isEmpty()) job = QString::fromStdString(node.stage().job_id());
  if (!endpoint.isEmpty() && !job.isEmpty()) {
    swarm_->setText(tr("This PC volunteers for job “%1” at coordinator %2.").arg(job, endpoint));
    leave_button_->setEnabled(true);
  } else if (!endpoint.isEmpty()) {
    swarm_->setText(
        tr("This PC talks to coordinator %1 but has joined none of its jobs.").arg(endpoint));
    leave_button_->setEnabled(false);
  } else {
    swarm_->setText(
        node.has_stage()
            ? tr("This PC trains a stage of a fixed pipeline plan, without a coordinator.")
            : tr("This PC has joined no swarm: open an invite link to join one."));
    leave_button_->setEnabled(false);
  }
  // The form is rebuilt from the node's table each time.
  while (auto* item = form_host_->layout()->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  editors_.clear();
  loaded_.clear();
  struct Group {
    const char* scope;
    QString title;
    QFormLayout* form = nullptr;
  };
  Group groups[] = {{"in_use", tr("While I use my PC")},
                    {"idle", tr("While the PC is idle")},
                    {"always", tr("Always")}};
  for (auto& g : groups) {
    auto* box = new QGroupBox(g.title, form_host_);
    box->setObjectName(QStringLiteral("settingsGroup_%1").arg(g.scope));
    g.form = new QFormLayout(box);
    form_host_->layout()->addWidget(box);
  }
  if (isVisible())
    QTimer::singleShot(0, this, &SettingsDialog::fitToScreen);  // the new form, laid out
  for (const auto& p : reply.preferences()) {
    QFormLayout* form = groups[2].form;
    for (auto& g : groups) {
      if (p.scope() == g.scope) form = g.form;
    }
    const auto key = QString::fromStdString(p.key());
    QWidget* editor = nullptr;
    if (p.type() == "bool") {
      auto* c = new QCheckBox(form->parentWidget());
      c->setChecked(p.value() == "true");
      editor = c;
    } else if (p.type() == "integer") {
      auto* s = new QSpinBox(form->parentWidget());
      s->setRange(static_cast<int>(p.min()),
                  static_cast<int>(std::min<std::int64_t>(p.max(), 2'000'000'000)));
      s->setValue(QString::fromStdString(p.value()).toInt());
      s->setSuffix(p.unit().empty() ? QString() : " " + Reasons::preferenceUnit(p));
      editor = s;
    } else {
      auto* e = new QLineEdit(QString::fromStdString(p.value()), form->parentWidget());
      e->setPlaceholderText(p.type() == "schedule"
                                ? tr("any time; e.g. mon-fri 18:00-08:00; weekends 00:00-24:00")
                                : tr("none; e.g. steam, blender"));
      editor = e;
    }
    editor->setObjectName(QStringLiteral("setting_") + key);
    editor->setToolTip(tr("Default: %1").arg(QString::fromStdString(p.default_value())));
    const QString label = Reasons::preferenceLabel(p);
    editor->setAccessibleName(label);
    form->addRow(label, editor);
    editors_[p.key()] = editor;
    loaded_[p.key()] = p.value();
  }
}

QString SettingsDialog::value(const QString& key) const {
  const auto it = editors_.find(key.toStdString());
  if (it == editors_.end()) return {};
  if (auto* c = qobject_cast<QCheckBox*>(it->second)) return c->isChecked() ? "true" : "false";
  if (auto* s = qobject_cast<QSpinBox*>(it->second)) return QString::number(s->value());
  if (auto* e = qobject_cast<QLineEdit*>(it->second)) return e->text();
  return {};
}

void SettingsDialog::setValue(const QString& key, const QString& v) {
  const auto it = editors_.find(key.toStdString());
  if (it == editors_.end()) return;
  if (auto* c = qobject_cast<QCheckBox*>(it->second)) c->setChecked(v == "true");
  if (auto* s = qobject_cast<QSpinBox*>(it->second)) s->setValue(v.toInt());
  if (auto* e = qobject_cast<QLineEdit*>(it->second)) e->setText(v);
}

bool SettingsDialog::save() {
  pb::ControlRequest r;
  r.set_kind(pb::ControlRequest::SET_PREFERENCES);
  for (const auto& [key, editor] : editors_) {
    const auto v = value(QString::fromStdString(key)).toStdString();
    if (v == loaded_[key]) continue;
    auto* p = r.add_set();
    p->set_key(key);
    p->set_value(v);
  }
  if (r.set_size() > 0) {
    pb::ControlReply reply;
    if (!request(r, &reply)) return false;  // the form keeps the owner's edits to correct
    build(reply);
  }
  const QString data_dir = QDir::cleanPath(data_dir_->text().trimmed());
  const bool data_dir_changed =
      !data_dir_->text().trimmed().isEmpty() && data_dir != QDir::cleanPath(loaded_data_dir_);
  if (data_dir_changed && !QDir::isAbsolutePath(data_dir)) {
    showError(
        tr("The data folder must be a full path, such as %1.").arg(QDir::homePath() + "/rookery"));
    return false;
  }
  const QString host = host_->text().trimmed();
  if (host != loaded_host_ && !host.isEmpty() && !isHostAddress(host)) {
    showError(tr("“%1” is not an address: give an IP address (such as 203.0.113.7 or "
                 "2001:db8::7) or a host name, or leave it empty.")
                  .arg(host));
    return false;
  }
  if (autostart_->isChecked() != Autostart::isEnabled()) {
    QString why;
    if (!Autostart::setEnabled(autostart_->isChecked(), autostart_program_, &why)) {
      showError(r.set_size() > 0
                    ? tr("The node took your settings, but starting with your session could not be "
                         "changed: %1")
                          .arg(why)
                    : tr("Starting with your session could not be changed: %1").arg(why));
      return false;
    }
  }
  if (data_dir_changed) Q_EMIT dataFolderChanged(data_dir);
  if (host != loaded_host_) Q_EMIT reachHostChanged(host);
  accept();
  return true;
}

QString SettingsDialog::swarmText() const { return swarm_->text(); }

bool SettingsDialog::isHostAddress(const QString& host) {
  if (!QHostAddress(host).isNull()) return true;
  // A host name: dot-separated labels of letters, digits and hyphens (RFC 1123).
  static const QRegularExpression name(
      QStringLiteral("^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\\.[A-Za-z0-9](["
                     "A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$"));
  return name.match(host).hasMatch();
}

void SettingsDialog::chooseDataFolder() {
  const QString dir =
      QFileDialog::getExistingDirectory(this, tr("Rookery's data folder"), data_dir_->text());
  if (!dir.isEmpty()) data_dir_->setText(dir);
}

bool SettingsDialog::leaveJob(bool confirm) {
  if (confirm &&
      QMessageBox::question(
          this, tr("Leave this job?"),
          tr("This PC stops training for the job for good; its contribution so far stays "
             "counted. Rookery then joins no swarm until you open an invite link.")) !=
          QMessageBox::Yes) {
    return false;
  }
  pb::ControlRequest r;
  r.set_kind(pb::ControlRequest::LEAVE_JOB);
  pb::ControlReply reply;
  if (!request(r, &reply)) return false;
  if (!reply.ok()) {
    showError(tr("The node cannot leave the job: %1").arg(QString::fromStdString(reply.error())));
    return false;
  }
  leave_button_->setEnabled(false);
  swarm_->setText(tr(
      "Leaving the job: the node finishes its work in progress, tells the coordinator and stops."));
  Q_EMIT leftJob();
  return true;
}

bool SettingsDialog::restoreDefaults() {
  pb::ControlRequest r;
  r.set_kind(pb::ControlRequest::RESET_PREFERENCES);
  pb::ControlReply reply;
  if (!request(r, &reply)) return false;
  build(reply);
  return true;
}

bool SettingsDialog::snoozeOneHour() {
  pb::ControlRequest r;
  r.set_kind(pb::ControlRequest::SNOOZE);
  r.set_snooze_seconds(3600);
  return request(r, nullptr);
}

}  // namespace rookery::ui
