#pragma once
// "Join the demo swarm" at the first run: the demo swarm of scripts/run-demo.sh, started by
// the GUI on this PC. A rookery-coordinator runs the demo job (a byte-level GPT) on loopback;
// two volunteer rookery-nodes and this GUI's own node join it, each offering half the memory
// the model needs, so the coordinator plans the three into one pipeline. Everything lives in
// one folder (<data dir>/demo): the coordinator's port chosen once and its state (so the
// swarm comes back the same after a restart), the volunteers' data, logs and process ids.
// The helpers run detached, like the GUI's own node; stop() ends them when the user quits.
#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <optional>

#include "ui/invite_link.hpp"

namespace rookery::ui {

class DemoSwarm {
  Q_DECLARE_TR_FUNCTIONS(rookery::ui::DemoSwarm)

 public:
  struct Setup {
    QString node_program;         // rookery-node
    QString coordinator_program;  // rookery-coordinator
    QString job;                  // the demo job spec (JSON)
    QString dir;                  // the demo's folder
    QString node_data_dir;        // the GUI's own node's data folder
    int volunteers = 3;           // with the GUI's own node
  };
  struct Running {
    InviteLink invite;  // the demo coordinator and its job
    QStringList
        node_arguments;  // for the GUI's node: join the job, with the volunteers' memory offer
    int offer_mb = 0;    // each volunteer's memory limit
    QList<qint64> pids;  // coordinator, then the headless volunteers
  };

  // Where the programs and the demo job are: rookery-coordinator beside rookery-node; the job
  // from $ROOKERY_DEMO_JOB, else share/rookery/demo beside the installed programs, else the
  // source tree's resources/demo (a build run in place). Empty fields when not found.
  static Setup locate(const QString& node_program, const QString& node_data_dir);

  // Starts what is not running (everything, the first time), then returns the swarm.
  // Blocks up to ~20 s (the coordinator's start); says why on failure.
  static std::optional<Running> start(const Setup& setup, QString* error);
  // Ends the coordinator and the volunteer stages started from `dir` (SIGTERM: they stop
  // cleanly), waiting up to `wait_ms` for them to go.
  static void stop(const QString& dir, int wait_ms = 10000);
  // Process ids of the demo's helpers that are alive now.
  static QList<qint64> alivePids(const QString& dir);
};

}  // namespace rookery::ui
