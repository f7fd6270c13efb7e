#pragma once
// The governor's settings, grouped as the owner thinks of them: "While I use my PC",
// "While the PC is idle", and the rules that always apply. The dialog builds itself from the
// preference table the node sends (key, scope, type, range, label), so a new preference
// appears here without GUI changes. Save sends only what changed; the node checks every
// value and refuses the whole change with the reason, which the dialog shows.
// "Start with my session" belongs to this user's desktop, not to the node: it is kept as the
// session's autostart entry (ui/autostart.hpp) and works even before the node answers.
// The data folder (keys, settings, ledger, checkpoints) is where the node is started with:
// a change is announced (dataFolderChanged) for the window to restart the node there. "Leave
// this job" asks the node to leave its coordinator's job for good (it tells the coordinator
// and exits); the window then forgets the swarm (leftJob).
#include <QDialog>
#include <QString>

#include <filesystem>
#include <map>
#include <string>

#include "rookery/control.pb.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QWidget;

namespace rookery::ui {

class SettingsDialog : public QDialog {
  Q_OBJECT

 public:
  explicit SettingsDialog(std::filesystem::path runtime_dir, QWidget* parent = nullptr);

  // Asks the node for its preferences and builds the form; false (with the error shown) when
  // the node does not answer.
  bool load();
  // The value the form holds for a key, in the node's text form ("true", "50").
  QString value(const QString& key) const;
  void setValue(const QString& key, const QString& value);
  QString errorText() const;
  // "Start with my session" as the form holds it; save() writes or removes the entry.
  QCheckBox* autostartCheckBox() const { return autostart_; }
  // The program the autostart entry starts (default: this executable).
  void setAutostartProgram(const QString& program) { autostart_program_ = program; }
  QLineEdit* dataFolderEdit() const { return data_dir_; }
  QLineEdit* reachHostEdit() const { return host_; }
  QPushButton* leaveJobButton() const { return leave_button_; }
  QString swarmText() const;
  // An IP address (v4 or v6) or a host name.
  static bool isHostAddress(const QString& host);

 public Q_SLOTS:
  bool save();  // true when the node accepted (then the dialog closes)
  bool restoreDefaults();
  bool snoozeOneHour();
  // Leaves the coordinator's job, after asking the user when `confirm`. True when the node
  // took the request (it is leaving).
  bool leaveJob(bool confirm = true);
  void chooseDataFolder();

 Q_SIGNALS:
  // Saved with another data folder: the node is to be restarted there.
  void dataFolderChanged(const QString& data_dir);
  // The address other PCs reach this one at, as saved (empty: the node finds out).
  void reachHostChanged(const QString& host);
  // The node leaves its job and exits.
  void leftJob();

 private:
  bool request(const wire::pb::ControlRequest& request, wire::pb::ControlReply* reply);
  void build(const wire::pb::ControlReply& reply);
  void showError(const QString& text);
  // Sized to the settings, but no larger than the screen (they scroll then).
  void fitToScreen();
  void showEvent(QShowEvent* event) override;

  std::filesystem::path runtime_dir_;
  QWidget* form_host_;
  QScrollArea* scroll_;
  QWidget* content_;
  bool fitted_ = false;
  QLabel* error_;
  QCheckBox* autostart_;
  QLineEdit* data_dir_;
  QString loaded_data_dir_;
  QLineEdit* host_;  // experts: where other PCs reach this one
  QString loaded_host_;
  QLabel* swarm_;
  QPushButton* leave_button_;
  QString autostart_program_;
  std::map<std::string, QWidget*> editors_;
  std::map<std::string, std::string> loaded_;  // the values as the node last sent them
};

}  // namespace rookery::ui
