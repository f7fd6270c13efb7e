#pragma once
// Driving the governor of a real rookery-node from tests and benchmarks: preferences,
// presence reports as the GUI sends them, and the node's CPU time from /proc.
#include <QElapsedTimer>
#include <QFile>
#include <QTest>

#include <chrono>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>

#include "control/control_client.hpp"

namespace rookery::testing {

namespace pb = rookery::wire::pb;

inline control::ControlClient::Answer set_preferences(
    control::ControlClient& c, const std::map<std::string, std::string>& values,
    pb::ControlReply* reply = nullptr) {
  pb::ControlRequest r;
  r.set_kind(pb::ControlRequest::SET_PREFERENCES);
  for (const auto& [k, v] : values) {
    auto* p = r.add_set();
    p->set_key(k);
    p->set_value(v);
  }
  return c.request(r, std::chrono::seconds(3), reply);
}

inline std::map<std::string, std::string> get_preferences(control::ControlClient& c) {
  pb::ControlRequest r;
  r.set_kind(pb::ControlRequest::GET_PREFERENCES);
  pb::ControlReply reply;
  std::map<std::string, std::string> out;
  if (!c.request(r, std::chrono::seconds(3), &reply).ok) return out;
  for (const auto& p : reply.preferences()) out[p.key()] = p.value();
  return out;
}

// What the GUI reports: the owner's input idleness (0: typing now).
inline control::ControlClient::Answer report_presence(control::ControlClient& c,
                                                      double idle_seconds,
                                                      bool fullscreen = false) {
  pb::ControlRequest r;
  r.set_kind(pb::ControlRequest::REPORT_PRESENCE);
  auto* p = r.mutable_presence();
  p->set_input_idle_seconds(idle_seconds);
  p->set_idle_source("test");
  p->set_fullscreen_known(true);
  p->set_fullscreen_app(fullscreen);
  p->set_fullscreen_source("test");
  p->set_valid_for_ms(600000);
  return c.request(r);
}

inline control::ControlClient::Answer snooze(control::ControlClient& c, std::int64_t seconds) {
  pb::ControlRequest r;
  r.set_kind(pb::ControlRequest::SNOOZE);
  r.set_snooze_seconds(seconds);
  return c.request(r);
}

// utime + stime of a process, in seconds (/proc/<pid>/stat).
inline double process_cpu_seconds(qint64 pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(in, line);
  const auto close = line.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream rest(line.substr(close + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && rest >> field; ++i) {
    if (i == 14) utime = std::stoull(field);
    if (i == 15) stime = std::stoull(field);
  }
  return static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

inline bool wait_until(const std::function<bool()>& cond, int timeout_ms) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < timeout_ms) {
    if (cond()) return true;
    QTest::qWait(50);
  }
  return cond();
}

// A small GPT job over the demo text, for bandwidth tests between two stages.
inline QString small_gpt_job(const QString& id) {
  return QString(
             R"({"id": "%1", "model": {"kind": "gpt", "vocab": 256, "context": 32, "width": 64, "depth": 2,
    "heads": 2, "mlp_ratio": 4, "dropout": 0.0},
    "dataset": {"kind": "text", "path": "%2", "stride": 1, "shuffle": true},
    "optimizer": {"kind": "adamw", "lr": 0.003, "betas": [0.9, 0.95], "eps": 1e-8, "weight_decay": 0.1,
                  "schedule": {"warmup_steps": 10, "decay": "constant"}},
    "micro_batch_size": 16, "grad_accumulation": 1, "staleness": 3, "codec": "none",
    "averaging_period": 50, "seed": 11})")
      .arg(id, QString(ROOKERY_SOURCE_DIR "/resources/demo/demo-text.txt"));
}

}  // namespace rookery::testing
