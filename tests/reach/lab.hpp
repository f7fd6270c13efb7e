#pragma once
// The reach tests' home router in network namespaces (home_router_lab.sh) and the commands
// they run against it.
#include <QProcess>
#include <QString>
#include <QStringList>

namespace rookery::testing {

inline const QString kHomeRouterLab =
    QStringLiteral(ROOKERY_SOURCE_DIR "/tests/reach/home_router_lab.sh");

// What `ip` runs for a lab volunteer in namespace `ns`: rookery-node with its data under
// `data_dir` (its control sockets in data_dir/run), joining the demo job of the coordinator at
// `endpoint` with `key`, contributing on one thread after a short benchmark; then `extra`.
inline QStringList lab_volunteer(const QString& ns, const QString& data_dir,
                                 const QString& endpoint, const QString& key,
                                 const QStringList& extra = {}) {
  return QStringList{"netns",
                     "exec",
                     ns,
                     ROOKERY_BINARY_DIR "/app/rookery-node",
                     "--data-dir",
                     data_dir,
                     "--runtime-dir",
                     data_dir + "/run",
                     "--join",
                     "demo-bytes-gpt",
                     "--coordinator",
                     endpoint,
                     "--coordinator-key",
                     key,
                     "--contribute",
                     "--threads",
                     "1",
                     "--benchmark-seconds",
                     "0.05"} +
         extra;
}

// Runs a command to its end (30 s at most); its exit code, -1 when it crashed or hung.
inline int run_command(const QStringList& args, QString* out = nullptr) {
  QProcess p;
  p.start(args.first(), args.mid(1));
  p.waitForFinished(30000);
  if (out) *out = QString::fromUtf8(p.readAllStandardOutput());
  return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

// Stops a lab process: asked first (a node saves its state and removes its mappings), killed
// when it does not go.
inline void stop_process(QProcess& p) {
  if (p.state() == QProcess::NotRunning) return;
  p.terminate();
  if (!p.waitForFinished(20000)) p.kill();
  p.waitForFinished(5000);
}

// The rules miniupnpd keeps in the router of lab `tag`.
inline QString router_rules(const QString& tag) {
  QString out;
  run_command({"ip", "netns", "exec", tag + "r", "nft", "list", "table", "inet", "miniupnpd"},
              &out);
  return out;
}

}  // namespace rookery::testing
