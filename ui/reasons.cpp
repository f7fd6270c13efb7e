#include "ui/reasons.hpp"

#include <QDateTime>
#include <QLocale>
#include <QStringList>

#include "ui/format.hpp"

namespace rookery::ui {

namespace pb = wire::pb;

namespace {
QString text(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

QString Reasons::state(const pb::NodeSnapshot& s) {
  const auto& why = s.state_why();
  switch (why.code()) {
    case pb::NODE_MEASURING:
      return tr("Measuring this PC's compute speed");
    case pb::NODE_PRESS_CONTRIBUTE:
      return tr("Paused: press Contribute to start");
    case pb::NODE_GOVERNED:
      if (s.governor().why().code() == pb::REASON_UNKNOWN) break;  // a reason this GUI cannot word
      return s.governor().decision() == pb::GovernorSnapshot::SLOWED
                 ? tr("Slowed: %1").arg(governor(s.governor()))
                 : tr("Paused: %1").arg(governor(s.governor()));
    case pb::NODE_TRAINING:
      if (!s.has_stage()) break;
      return tr("Training stage %1 of %2 in pipeline %3 (%4)")
          .arg(s.stage().stage() + 1)
          .arg(s.stage().stage_count())
          .arg(s.stage().pipeline() + 1)
          .arg(Format::blockRange(s.stage().first_block(), s.stage().last_block(),
                                  s.stage().block_count()));
    case pb::NODE_VOLUNTEER: {
      const QString job = text(why.text());
      const QString said = coordinator(s.coordinator());
      return said.isEmpty() ? tr("Volunteer of job “%1”").arg(job)
                            : tr("Volunteer of job “%1”: %2").arg(job, said);
    }
    case pb::NODE_BENCHMARK:
      return tr("Benchmark: matrix products on %1").arg(text(s.device().compute_device()));
    case pb::NODE_STOPPING:
      return tr("Stopping: saving state");
    case pb::NODE_CANNOT_START:
      return tr("Cannot start: %1").arg(text(why.text()));
    case pb::NODE_WORK_FAILED:
      return tr("Work failed: %1").arg(text(why.text()));
    default:
      break;
  }
  return Format::sentence(s.state_reason());
}

QString Reasons::governor(const pb::GovernorSnapshot& g) {
  const auto& why = g.why();
  switch (why.code()) {
    case pb::GOVERNOR_SNOOZED:
      return tr("snoozed until %1")
          .arg(QLocale().toString(QDateTime::fromMSecsSinceEpoch(why.unix_ms()).time(),
                                  QLocale::ShortFormat));
    case pb::GOVERNOR_SCHEDULE:
      return tr("outside the hours of the schedule");
    case pb::GOVERNOR_ON_BATTERY:
      return tr("on battery");
    case pb::GOVERNOR_PROGRAM_RUNNING:
      return tr("%1 is running").arg(text(why.text()));
    case pb::GOVERNOR_FULLSCREEN:
      return tr("a full-screen application runs");
    case pb::GOVERNOR_IN_USE_OFF:
      return tr("the PC is in use");
    case pb::GOVERNOR_IDLE_OFF:
      return tr("the PC is idle and computing while idle is off");
    case pb::GOVERNOR_GPU_IN_USE_OFF:
      return tr("the PC is in use and the GPU is not used then");
    case pb::GOVERNOR_GPU_HOT:
      return tr("GPU at %1, above %2")
          .arg(Format::temperature(why.value()), Format::temperature(why.limit()));
    case pb::GOVERNOR_OTHER_CPU:
      return why.limit() > 0
                 ? tr("other programs use %1 of the CPU (resumes below %2)")
                       .arg(Format::percent(why.value()), Format::percent(why.limit()))
                 : tr("other programs use %1 of the CPU").arg(Format::percent(why.value()));
    case pb::GOVERNOR_MEMORY:
      return tr("memory %1, more than the %2 allowed")
          .arg(Format::bytes(static_cast<quint64>(why.value())),
               Format::bytes(static_cast<quint64>(why.limit())));
    case pb::GOVERNOR_USER_ACTIVE:
    case pb::GOVERNOR_PC_IDLE: {
      const QString who =
          why.code() == pb::GOVERNOR_USER_ACTIVE ? tr("the PC is in use") : tr("the PC is idle");
      if (g.decision() != pb::GovernorSnapshot::SLOWED) return who;
      QStringList caps;
      if (why.value() < why.limit()) {
        caps << tr("%1 of %n core(s)", nullptr, static_cast<int>(why.limit()))
                    .arg(static_cast<int>(why.value()));
      }
      if (g.cpu_time_percent() < 100)
        caps << tr("%1 CPU time").arg(Format::percent(g.cpu_time_percent()));
      return caps.isEmpty() ? who : tr("%1: %2").arg(who, caps.join(tr(", ")));
    }
    default:
      break;
  }
  return text(g.reason());
}

QString Reasons::coordinator(const pb::CoordinatorLink& c) {
  const auto& why = c.why();
  switch (why.code()) {
    case pb::COORDINATOR_CONNECTING:
      return tr("connecting to the coordinator");
    case pb::COORDINATOR_CONNECTED:
      return tr("connected (version %1)").arg(text(why.text()));
    case pb::COORDINATOR_UNREACHABLE:
      return tr("unreachable: %1").arg(text(why.text()));
    case pb::COORDINATOR_JOINED:
      return tr("joined job “%1”").arg(text(why.text()));
    case pb::COORDINATOR_REFUSED:
      return tr("refused this PC: %1").arg(coordinatorWords(why));
    case pb::COORDINATOR_BANNED:
      return tr("banned this PC from the job: %1").arg(coordinatorWords(why));
    case pb::COORDINATOR_LOST:
      return tr("unreachable: training on with the last plan");
    case pb::COORDINATOR_SEATED:
      return tr("pipeline %1, stage %2")
          .arg(static_cast<qint64>(why.value()))
          .arg(static_cast<qint64>(why.limit()));
    case pb::COORDINATOR_WAITING_FOR_PLAN:
      return tr("waiting for a plan");
    case pb::COORDINATOR_NOT_IN_PLAN:
      return tr("not in the plan: %1").arg(coordinatorWords(why));
    case pb::COORDINATOR_REPLANNING:
      return tr("re-planning");
    case pb::COORDINATOR_NOT_REGISTERED:
      return tr("joining again (the coordinator restarted)");
    case pb::COORDINATOR_FETCHING_DATASET:
      return tr("fetching the job's data: %1 of %2")
          .arg(Format::percent(100 * why.value()),
               Format::bytes(static_cast<quint64>(why.limit())));
    case pb::COORDINATOR_NO_PLAN:
      return tr("no pipeline yet: %1").arg(coordinatorWords(why));
    case pb::COORDINATOR_IGNORED:
      return tr("the coordinator ignored this PC's report");
    default:
      break;
  }
  return text(c.status());
}

QString Reasons::verdict(const pb::Reason& d) {
  const auto n = [](double v) { return static_cast<int>(v); };
  switch (d.code()) {
    case pb::VERDICT_NO_JOB:
      return tr("the coordinator runs no job");
    case pb::VERDICT_WRONG_JOB:
      return tr("the coordinator runs another job (“%1”)").arg(text(d.text()));
    case pb::VERDICT_INVITE_NOT_VALID:
      return tr("the job is invite-only and this invite is not valid");
    case pb::VERDICT_INVITE_EXPIRED:
      return tr("this invite has expired; ask the job's owner for a new one");
    case pb::VERDICT_INVITE_REVOKED:
      return tr("the job's owner revoked this invite");
    case pb::VERDICT_ENDPOINTS_NOT_TCP:
      return tr("this PC's addresses are not TCP addresses");
    case pb::VERDICT_IMPLAUSIBLE_PROFILE:
      return tr("this PC's measured speed, memory or network look implausible");
    case pb::VERDICT_TOO_MANY_FROM_ADDRESS:
      return tr("the job admits at most %n volunteer(s) from one address, and already has them "
                "from %1",
                nullptr, n(d.limit()))
          .arg(text(d.text()));
    case pb::VERDICT_TOO_MANY_FROM_SUBNET:
      return tr("the job admits at most %n volunteer(s) from one network, and already has them "
                "from %1",
                nullptr, n(d.limit()))
          .arg(text(d.text()));
    case pb::VERDICT_JOIN_WORK_MISSING:
      return tr(
          "the job asks each join for a proof of work of %n bit(s), and this one carried "
          "none",
          nullptr, n(d.limit()));
    case pb::VERDICT_JOIN_WORK_WRONG:
      return tr("this join's proof of work gives %1 of the %n bit(s) the job asks for", nullptr,
                n(d.limit()))
          .arg(n(d.value()));
    case pb::VERDICT_RING_PARTNERS_REJECT:
      return tr("%1 of its %n ring partner(s) reject its averaging contributions", nullptr,
                n(d.limit()))
          .arg(n(d.value()));
    case pb::VERDICT_AGGREGATE_PROVEN_WRONG:
      return tr(
          "a ring partner proved, by its own signatures, that it handed the ring false "
          "averaged values");
    case pb::VERDICT_CAUGHT_IN_SPOT_CHECKS:
      return tr("%1 of the %n stage(s) it sends to caught its activations wrong in spot-checks",
                nullptr, n(d.limit()))
          .arg(n(d.value()));
    case pb::VERDICT_GRADIENTS_CAUGHT_IN_SPOT_CHECKS:
      return tr("%1 of the %n stage(s) it returns gradients to caught its gradients wrong in "
                "spot-checks",
                nullptr, n(d.limit()))
          .arg(n(d.value()));
    case pb::VERDICT_SPARE:
      return tr(
          "a spare: its pipeline is faster without this PC, which waits to fill a seat that falls "
          "empty");
    case pb::VERDICT_TIER_FULL:
      return tr("every pipeline of its bandwidth tier already has one PC per block");
    case pb::VERDICT_NO_PIPELINE_HOLDS_MODEL:
      return tr("the volunteers together do not hold the model yet (%1)").arg(text(d.text()));
    case pb::VERDICT_JOINED_AFTER_PLAN:
      return tr("it joined after the plan was made");
    case pb::VERDICT_INVITE_UNCHECKABLE:
      return tr("the coordinator cannot check invites (%1)").arg(text(d.text()));
    case pb::VERDICT_NO_VOLUNTEERS:
      return tr("no volunteer holds the job's data yet");
    case pb::VERDICT_UNREACHABLE:
      return tr("no other PC can reach this one yet, and no relay carries it");
    default:
      return {};
  }
}

QString Reasons::coordinatorWords(const pb::Reason& why) {
  const QString words = verdict(why.detail());
  return words.isEmpty() ? text(why.text()) : words;
}

QString Reasons::sensorName(const pb::SensorStatus& s) {
  switch (s.kind()) {
    case pb::SensorStatus::INPUT_IDLENESS:
      return tr("input idleness");
    case pb::SensorStatus::FULLSCREEN:
      return tr("full-screen");
    case pb::SensorStatus::BATTERY:
      return tr("battery");
    case pb::SensorStatus::PROGRAMS:
      return tr("programs");
    case pb::SensorStatus::CPU_LOAD:
      return tr("CPU load");
    case pb::SensorStatus::GPU:
      return tr("GPU");
    case pb::SensorStatus::MEMORY:
      return tr("memory");
    default:
      return text(s.name());
  }
}

QString Reasons::sensorReading(const pb::SensorStatus& s) {
  const auto& why = s.reading();
  switch (why.code()) {
    case pb::SENSOR_INPUT_IDLE:
      return tr("no input for %1").arg(Format::duration(why.value()));
    case pb::SENSOR_NO_INPUT_SOURCE:
      return tr("nothing reports it here: the PC counts as in use");
    case pb::SENSOR_NO_DESKTOP:
      return tr("no desktop session reports it");
    case pb::SENSOR_FULLSCREEN_NONE:
      return tr("no full-screen application");
    case pb::SENSOR_FULLSCREEN_RUNS:
      return tr("a full-screen application runs");
    case pb::SENSOR_ON_BATTERY:
      return tr("on battery");
    case pb::SENSOR_ON_MAINS:
      return tr("on mains power");
    case pb::SENSOR_NO_PROGRAMS_LISTED:
      return tr("no programs listed");
    case pb::SENSOR_PROGRAMS_RUNNING:
      return tr("running: %1").arg(text(why.text()));
    case pb::SENSOR_PROGRAMS_NOT_RUNNING:
      return tr("none of the %n listed program(s) runs", nullptr, static_cast<int>(why.value()));
    case pb::SENSOR_OTHER_CPU:
      return tr("other programs %1").arg(Format::percent(why.value()));
    case pb::SENSOR_GPU_TEMPERATURE:
      return tr("hottest GPU %1").arg(Format::temperature(why.value()));
    case pb::SENSOR_MEMORY:
      return tr("%1 resident").arg(Format::bytes(static_cast<quint64>(why.value())));
    default:
      return gpuStatus(why, s.detail());
  }
}

QString Reasons::gpuStatus(const pb::Reason& why, const std::string& english) {
  switch (why.code()) {
    case pb::DEVICE_NO_NVIDIA_DRIVER:
      return tr("no NVIDIA driver");
    case pb::DEVICE_NVML_TOO_OLD:
      return tr("the NVIDIA driver's library is too old");
    case pb::DEVICE_NVML_FAILED:
      return tr("the NVIDIA driver did not start (is it loaded?)");
    case pb::DEVICE_NO_GPUS:
      return tr("the NVIDIA driver reports no GPU");
    case pb::DEVICE_NVIDIA_GPUS:
      return tr("%n NVIDIA GPU(s)", nullptr, static_cast<int>(why.value()));
    default:
      return text(english);
  }
}

QString Reasons::preferenceLabel(const pb::Preference& p) {
  const QString key = text(p.key());
  const bool in_use = key.startsWith(QLatin1String("in_use."));
  const QString name = key.mid(key.indexOf('.') + 1);
  if (key.startsWith(QLatin1String("in_use.")) || key.startsWith(QLatin1String("idle."))) {
    if (name == QLatin1String("run"))
      return in_use ? tr("Compute while I use the PC") : tr("Compute while the PC is idle");
    if (name == QLatin1String("cpu_cores_percent")) return tr("CPU cores");
    if (name == QLatin1String("cpu_time_percent")) return tr("CPU time");
    if (name == QLatin1String("use_gpu")) return tr("Use the GPU");
    if (name == QLatin1String("memory_percent")) return tr("Memory");
  }
  if (key == QLatin1String("idle_after_minutes")) return tr("The PC is idle after no input for");
  if (key == QLatin1String("pause_above_other_cpu_percent"))
    return tr("Pause while other programs use more CPU than");
  if (key == QLatin1String("pause_on_battery")) return tr("Pause on battery");
  if (key == QLatin1String("schedule")) return tr("Compute only at these times (empty: any time)");
  if (key == QLatin1String("upload_kib_per_s")) return tr("Upload at most");
  if (key == QLatin1String("download_kib_per_s")) return tr("Download at most");
  if (key == QLatin1String("pause_while_fullscreen"))
    return tr("Pause while a full-screen application runs");
  if (key == QLatin1String("exclusive_programs")) return tr("Pause while these programs run");
  if (key == QLatin1String("gpu_max_temperature_c")) return tr("Pause the GPU above");
  if (key == QLatin1String("finish_micro_batches_before_pause")) {
    return tr("On pause, finish the micro-batches already started (peers see a clean stop)");
  }
  return text(p.label());
}

QString Reasons::preferenceUnit(const pb::Preference& p) {
  const std::string& u = p.unit();
  if (u == "% of cores") return tr("% of cores");
  if (u == "% of the time") return tr("% of the time");
  if (u == "% of RAM") return tr("% of RAM");
  if (u == "min") return tr("min");
  if (u == "% (0: never)") return tr("% (0: never)");
  if (u == "KiB/s (0: unlimited)") return tr("KiB/s (0: unlimited)");
  if (u == "°C (0: no limit)") return tr("°C (0: no limit)");
  return text(u);
}

QString Reasons::reach(const pb::ReachSnapshot& r) {
  const QString at = QString::fromStdString(r.endpoint());
  switch (r.way()) {
    case pb::REACH_LOCAL:
      return tr("Reached on this PC only: the swarm runs here");
    case pb::REACH_DIRECT:
      return tr("Reached directly at %1").arg(at);
    case pb::REACH_ROUTER_MAPPING:
      return tr("Reached through the router's port mapping (%1) at %2")
          .arg(QString::fromStdString(r.mapping_protocol()), at);
    case pb::REACH_RELAYED:
      return tr("Reached through a relay at %1: peers' traffic passes it encrypted")
          .arg(QString::fromStdString(r.relay()));
    case pb::REACH_REVERSED:
      return r.mapping_error().empty()
                 ? tr("Reached by connection reversal: this PC dials its neighbours itself")
                 : tr("Reached by connection reversal (%1): this PC dials its neighbours itself")
                       .arg(QString::fromStdString(r.mapping_error()));
    case pb::REACH_UNREACHABLE:
      return r.mapping_error().empty()
                 ? tr("Not reachable from the internet: waiting for a relay to carry this PC")
                 : tr("Not reachable from the internet (%1): waiting for a relay to carry this PC")
                       .arg(QString::fromStdString(r.mapping_error()));
    default:
      return {};
  }
}

}  // namespace rookery::ui
