#pragma once
// Starting the real Rookery programs from tests: binaries come from the environment CTest
// sets (ROOKERY_NODE_BIN, ROOKERY_COORDINATOR_BIN), state goes to a temporary folder.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <deque>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace rookery::testing {

inline QString node_bin() {
  return qEnvironmentVariable("ROOKERY_NODE_BIN", ROOKERY_BINARY_DIR "/app/rookery-node");
}
inline QString coordinator_bin() {
  return qEnvironmentVariable("ROOKERY_COORDINATOR_BIN",
                              ROOKERY_BINARY_DIR "/app/rookery-coordinator");
}

// A loopback TCP port for a node to listen on later. Asking the kernel for port 0 is not
// enough: that port comes from the ephemeral range, where any node's outgoing connection may
// take it before the node that was told to listen there starts ("Address already in use" in
// CI). So ports come from below the ephemeral range (net.ipv4.ip_local_port_range), are
// checked free, and are never handed out twice by one test process. 30000 and up stay clear:
// tests with fixed ports use them.
inline bool loopback_port_free(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  const bool free = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return free;
}

inline int free_tcp_port() {
  static std::mutex mutex;
  static std::set<int> handed_out;
  static std::mt19937 rng{std::random_device{}()};
  const std::lock_guard lock(mutex);
  int ephemeral_low = 32768;
  if (std::ifstream range("/proc/sys/net/ipv4/ip_local_port_range"); range) range >> ephemeral_low;
  const bool below = ephemeral_low > 12000;  // else take ports above the range
  std::uniform_int_distribution<int> pick(below ? 10000 : 61000,
                                          below ? std::min(ephemeral_low, 30000) - 1 : 65535);
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const int port = pick(rng);
    if (handed_out.count(port) || !loopback_port_free(port)) continue;
    handed_out.insert(port);
    return port;
  }
  return 0;
}

// Where a rookery-coordinator listens, from the "<endpoint> <public key>" line it writes to
// its --ready-file (atomically, by rename) once it is listening.
struct CoordinatorAddress {
  QString endpoint;
  QString key;
};

// Waits up to `timeout_ms` for the ready file at `path` (serving events meanwhile when there
// is an application, as servers in tests need) and reads it. Gives up early when `process`
// has exited. Empty on a timeout, an exited process or a file that does not hold two words.
inline std::optional<CoordinatorAddress> wait_for_coordinator_ready(
    const QString& path, int timeout_ms, const QProcess* process = nullptr) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (!QFile::exists(path)) {
    if (std::chrono::steady_clock::now() > deadline) return std::nullopt;
    if (process && process->state() == QProcess::NotRunning) return std::nullopt;
    if (QCoreApplication::instance()) {
      QTest::qWait(25);
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
  }
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return std::nullopt;
  const QStringList parts = QString::fromUtf8(f.readAll()).simplified().split(QLatin1Char(' '));
  if (parts.size() != 2) return std::nullopt;
  return CoordinatorAddress{parts[0], parts[1]};
}

// A rookery-node in its own data and runtime folders; killed (if still running) on destruction.
struct NodeProcess {
  QTemporaryDir dir;
  QProcess process;

  QString runtime_dir() const { return dir.filePath("run"); }
  QString data_dir() const { return dir.filePath("data"); }

  bool start(const QStringList& extra = {}) {
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(node_bin(), QStringList{"--runtime-dir", runtime_dir(), "--data-dir", data_dir(),
                                          "--benchmark-seconds", "0.1", "--telemetry-ms", "100",
                                          "--threads", "1"} +
                                  extra);
    return process.waitForStarted(5000);
  }
  ~NodeProcess() {
    if (process.state() != QProcess::NotRunning) {
      process.kill();
      process.waitForFinished(5000);
    }
  }
};

// A rookery-coordinator on a free loopback port; `endpoint` and `key` are read from its ready file.
struct CoordinatorProcess {
  QTemporaryDir dir;
  QProcess process;
  std::string endpoint;
  std::string key;
  // Tests' swarms enrol openly (a job is invite-only unless opened); false for tests of that.
  bool open = true;

  bool start(const QStringList& extra = {}) {
    const QString ready = dir.filePath("ready");
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(coordinator_bin(), QStringList{"--bind", "tcp://127.0.0.1:0", "--data-dir",
                                                 dir.filePath("data"), "--ready-file", ready} +
                                         (open ? QStringList{"--open"} : QStringList{}) + extra);
    if (!process.waitForStarted(5000)) return false;
    const auto address = wait_for_coordinator_ready(ready, 5000, &process);
    if (!address) return false;
    endpoint = address->endpoint.toStdString();
    key = address->key.toStdString();
    return true;
  }
  ~CoordinatorProcess() {
    if (process.state() != QProcess::NotRunning) {
      process.terminate();
      if (!process.waitForFinished(3000)) process.kill();
      process.waitForFinished(3000);
    }
  }
};

// rookery-node volunteers joining a coordinator's job, each in its own folder under `root`,
// their merged output kept as it comes; terminated (killed if they linger) on destruction.
struct Volunteers {
  QString root;
  std::string endpoint, coordinator_key;
  std::deque<QByteArray>
      output;  // a deque, and declared before the processes: their handlers hold references into it
  std::vector<QString> keys;
  std::vector<std::unique_ptr<QProcess>> processes;
  QString benchmark_seconds = "0.05";  // each node's device benchmark at start (its planned FLOP/s)

  QString dir(int i) const { return QDir(root).filePath(QString("node%1").arg(i)); }

  // Starts one more volunteer joining `job_id` with one compute thread and a short benchmark,
  // plus `extra` options. False when it cannot start or tell its key.
  bool add(const QString& job_id, const QStringList& extra = {}) {
    const int i = static_cast<int>(processes.size());
    QProcess id;
    id.start(node_bin(), {"--data-dir", dir(i), "--print-identity"});
    if (!id.waitForFinished(10000) || id.exitCode() != 0) return false;
    keys.push_back(QString::fromUtf8(id.readAllStandardOutput()).trimmed());
    auto p = std::make_unique<QProcess>();
    p->setProcessChannelMode(QProcess::MergedChannels);
    QByteArray& out = output.emplace_back();
    QProcess* raw = p.get();
    QObject::connect(raw, &QProcess::readyRead, raw, [raw, &out] { out += raw->readAll(); });
    processes.push_back(std::move(p));
    return start(i, job_id, extra);
  }

  // Starts volunteer `i` again (after it ended or was killed), in its folder, with its key;
  // its new output is appended to output[i].
  bool start(int i, const QString& job_id, const QStringList& extra = {}) {
    auto& p = *processes.at(static_cast<std::size_t>(i));
    p.start(node_bin(),
            QStringList{"--data-dir", dir(i), "--runtime-dir", dir(i) + "/run", "--join", job_id,
                        "--coordinator", QString::fromStdString(endpoint), "--coordinator-key",
                        QString::fromStdString(coordinator_key), "--contribute", "--threads", "1",
                        "--benchmark-seconds", benchmark_seconds} +
                extra);
    return p.waitForStarted(5000);
  }

  ~Volunteers() {
    for (auto& p : processes) {
      if (p->state() == QProcess::NotRunning) continue;
      p->terminate();
      if (!p->waitForFinished(20000)) p->kill();
      p->waitForFinished(5000);
    }
  }
};

}  // namespace rookery::testing
