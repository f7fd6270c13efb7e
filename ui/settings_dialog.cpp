#include "ui/settings_dialog.hpp"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "control/control_client.hpp"
#include "ui/app_resources.hpp"
#include "ui/autostart.hpp"

namespace rookery::ui {

namespace pb = wire::pb;

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
  autostart_->setToolTip(tr("Open Rookery in the tray when you log in (%1)").arg(Autostart::location()));
  autostart_->setChecked(Autostart::isEnabled());
  session_form->addWidget(autostart_);
  error_ = new QLabel(this);
  error_->setObjectName(QStringLiteral("settingsError"));
  error_->setWordWrap(true);
  error_->setVisible(false);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults,
                                       this);
  auto* snooze = buttons->addButton(tr("Snooze for an hour"), QDialogButtonBox::ActionRole);
  snooze->setObjectName(QStringLiteral("snoozeButton"));
  connect(buttons->button(QDialogButtonBox::Save), &QPushButton::clicked, this, &SettingsDialog::save);
  connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
          &SettingsDialog::restoreDefaults);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(snooze, &QPushButton::clicked, this, &SettingsDialog::snoozeOneHour);
  layout->addWidget(form_host_);
  layout->addWidget(createLanguageChooser(this));  // appearance/language, saved with the dialog
  layout->addWidget(session);
  layout->addWidget(error_);
  layout->addWidget(buttons);
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

QString SettingsDialog::errorText() const { return error_->isVisible() ? error_->text() : QString(); }

bool SettingsDialog::load() {
  pb::ControlRequest r;
  r.set_kind(pb::ControlRequest::GET_PREFERENCES);
  pb::ControlReply reply;
  if (!request(r, &reply)) return false;
  build(reply);
  return true;
}

void SettingsDialog::build(const pb::ControlReply& reply) {
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
  Group groups[] = {{"in_use", tr("While I use my PC")}, {"idle", tr("While the PC is idle")}, {"always", tr("Always")}};
  for (auto& g : groups) {
    auto* box = new QGroupBox(g.title, form_host_);
    box->setObjectName(QStringLiteral("settingsGroup_%1").arg(g.scope));
    g.form = new QFormLayout(box);
    form_host_->layout()->addWidget(box);
  }
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
      s->setRange(static_cast<int>(p.min()), static_cast<int>(std::min<std::int64_t>(p.max(), 2'000'000'000)));
      s->setValue(QString::fromStdString(p.value()).toInt());
      s->setSuffix(p.unit().empty() ? QString() : " " + QString::fromStdString(p.unit()));
      editor = s;
    } else {
      auto* e = new QLineEdit(QString::fromStdString(p.value()), form->parentWidget());
      e->setPlaceholderText(p.type() == "schedule" ? tr("any time; e.g. mon-fri 18:00-08:00; weekends 00:00-24:00")
                                                   : tr("none; e.g. steam, blender"));
      editor = e;
    }
    editor->setObjectName(QStringLiteral("setting_") + key);
    editor->setToolTip(tr("Default: %1").arg(QString::fromStdString(p.default_value())));
    form->addRow(QString::fromStdString(p.label()), editor);
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
  if (autostart_->isChecked() != Autostart::isEnabled()) {
    QString why;
    if (!Autostart::setEnabled(autostart_->isChecked(), autostart_program_, &why)) {
      showError(r.set_size() > 0 ? tr("The node took your settings, but starting with your session could not be "
                                      "changed: %1").arg(why)
                                 : tr("Starting with your session could not be changed: %1").arg(why));
      return false;
    }
  }
  accept();
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
