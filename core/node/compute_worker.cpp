#include "node/compute_worker.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include <spdlog/spdlog.h>

#include "job/job_spec.hpp"
#include "model/block_benchmark.hpp"
#include "model/compute_device.hpp"
#include "pipeline/stage_plan.hpp"
#include "model/cuda_backend.hpp"
#include "device/system_info.hpp"
#include "governor/thread_priority.hpp"
#include "node/coordinated_workload.hpp"

namespace rookery::node {

namespace {
// "cuda:1" -> 1; "cuda" -> 0.
int cuda_index(const std::string& device) {
  const auto colon = device.find(':');
  return colon == std::string::npos ? 0 : std::stoi(device.substr(colon + 1));
}

// A drain ends when nothing is in flight, or at the latest after kDrainLimit (a peer that
// never returns a gradient: its micro-batches would expire then anyway).
constexpr auto kDrainLimit = std::chrono::seconds(10);

// FLOP/s of the job's own blocks on `dev` (forward and backward, its precision), logged.
double measure_job_blocks(const job::JobSpec& job, const std::string& dev, double seconds) {
  const auto r = model::measure_blocks(job, dev, seconds);
  spdlog::info("measured {:.1f} GFLOP/s running job {}'s {} in {} ({} passes, {:.0f} samples/s)",
               r.flops_per_s / 1e9, job.id, r.blocks, r.precision, r.passes, r.samples_per_s);
  return r.flops_per_s;
}

}  // namespace

ComputeWorker::ComputeWorker(const NodeConfig& config, const net::CurveKeyPair& identity,
                             std::mutex& node_mutex, NodeStatus& status, GovernorBridge& governor,
                             LedgerRecorder& ledger, const clock::Clock& clock)
    : config_(config),
      identity_(identity),
      mutex_(node_mutex),
      status_(status),
      governor_(governor),
      ledger_(ledger),
      clock_(clock) {}

ComputeWorker::~ComputeWorker() { join(); }

void ComputeWorker::start() {
  thread_ = std::thread([this] { run(); });
}

void ComputeWorker::join() {
  if (thread_.joinable()) thread_.join();
}

void ComputeWorker::run() {
  const auto prio = governor::lower_current_thread_priority();
  const auto cpu = device::read_cpu_info();
  const int max_threads = config_.threads > 0 ? config_.threads : cpu.logical_cores;
  // The benchmark measures the whole device; the governor caps the threads after.
  model::set_compute_threads(max_threads);
  const auto work = start_workload(max_threads, prio.description);
  if (!work) return;
  if (compute(*work, max_threads)) work->finish();  // the current unit is done: save state
}

std::shared_ptr<Workload> ComputeWorker::start_workload(int threads, const std::string& priority) {
  std::string dev = config_.device;
  try {
    // `--device cpu` loads nothing of CUDA; auto and cuda:N load LibTorch's CUDA part when
    // there is a driver (model/cuda_backend).
    const auto compute = model::detect_compute_device(dev != "cpu");
    if (dev == "auto") dev = compute.device;
    if (dev.rfind("cuda", 0) == 0 && !compute.cuda_available) {
      throw std::runtime_error(
          "device " + dev +
          " requested but CUDA is not available to LibTorch: " + compute.no_cuda_why);
    }
    // The governor's memory cap holds on the GPU too: LibTorch's allocator may not take more,
    // and the coordinator plans with what is left under it.
    std::int64_t device_memory = 0;
    if (dev.rfind("cuda", 0) == 0) {
      int percent = 90;
      {
        std::lock_guard lock(mutex_);
        const auto& prefs = governor_.preferences_locked();
        percent = std::min(prefs.in_use.memory_percent, prefs.idle.memory_percent);
      }
      const int index = cuda_index(dev);
      model::set_cuda_memory_fraction(index, percent / 100.0);
      if (const auto info = model::cuda_device_info(index)) {
        device_memory = static_cast<std::int64_t>(std::min<double>(
            double(info->free_bytes), double(info->total_bytes) * percent / 100.0));
        spdlog::info("{}: {} with {} MiB free of {} MiB; Rookery may use {} MiB ({}%)", dev,
                     info->name, info->free_bytes >> 20, info->total_bytes >> 20,
                     device_memory >> 20, percent);
      }
    }
    const auto library = model::math_library(dev);
    spdlog::info("compute on {} with {} thread(s) at {}; math: {}", dev, threads, priority,
                 library);
    if (dev == "cpu" && !compute.no_cuda_why.empty())
      spdlog::info("not on a GPU: {}", compute.no_cuda_why);
    const auto bench = benchmark(dev);
    std::shared_ptr<Workload> work;
    if (config_.join) {
      auto options = *config_.join;
      options.stage.device = dev;
      options.device_memory_bytes = device_memory;
      // The speed the coordinator plans with is what the owner lets Rookery use: the
      // device's measured FLOP/s times the governor's duty cycle.
      options.speed = std::make_shared<DeviceSpeed>(
          bench.gflops * 1e9, bench.on_job_blocks,
          [&governor = governor_] { return governor.cpu_time_percent(); },
          [dev, seconds = config_.benchmark_seconds](const job::JobSpec& job) {
            return measure_job_blocks(job, dev, seconds);
          });
      work = make_coordinated_workload(options, identity_);
    } else if (config_.stage) {
      auto options = *config_.stage;
      options.device = dev;
      work = make_stage_workload(options, identity_);
    } else {
      work = make_matmul_workload(dev);
    }
    std::lock_guard lock(mutex_);
    status_.workload = work;
    status_.device.set_compute_device(dev);
    status_.device.set_cuda_available(compute.cuda_available);
    status_.device.set_blas(library);
    status_.device.set_gpu_unused(dev == "cpu" ? compute.no_cuda_why : std::string());
    status_.device.set_compute_memory_bytes(static_cast<std::uint64_t>(device_memory));
    status_.device.set_measured_gflops(bench.gflops);
    status_.device.set_compute_threads(model::compute_threads());
    governor_.set_computes_on_gpu_locked(dev.rfind("cuda", 0) == 0);
    governor_.govern_locked();
    status_.workload_description = work->description();
    ledger_.set_activity_locked(status_.workload_description);
    status_.ready = true;
    status_.post_state_locked();
    return work;
  } catch (const std::exception& e) {
    std::lock_guard lock(mutex_);
    status_.fail_locked(std::string("cannot start: ") + e.what(), pb::NODE_CANNOT_START);
    // A headless pipeline stage has nothing to wait for: it exits with the reason.
    if (config_.stage || config_.join) {
      status_.exit_code = 4;
      status_.request_quit_locked();
    }
    return nullptr;
  }
}

ComputeWorker::Benchmark ComputeWorker::benchmark(const std::string& dev) const {
  Benchmark b;
  // The job's own blocks, when the job is known before the work starts: a static plan's, or
  // the one a volunteer kept from an earlier join. Else a square matmul, until the planner
  // learns the node's real speed from its work (flops per busy second, in its heartbeats).
  std::optional<job::JobSpec> job;
  try {
    if (config_.stage) {
      job = pipeline::load_stage_plan(config_.stage->plan_path).job;
    } else if (config_.join) {
      const auto kept = config_.join->data_dir / "jobs" / (config_.join->job_id + ".json");
      if (std::filesystem::exists(kept)) job = job::load_job_spec(kept);
    }
  } catch (const std::exception& e) {
    spdlog::debug("benchmark: no job to measure ({})", e.what());
  }
  if (job) {
    try {
      b.gflops = measure_job_blocks(*job, dev, config_.benchmark_seconds) / 1e9;
      b.on_job_blocks = true;
      return b;
    } catch (const std::exception& e) {
      spdlog::warn("benchmark of the job's blocks failed ({}): measuring a matmul instead",
                   e.what());
    }
  }
  const auto m = model::measure_matmul(dev, 1024, config_.benchmark_seconds);
  spdlog::info("measured {:.1f} GFLOP/s (1024x1024 fp32 matmul, {} rounds)", m.gflops, m.rounds);
  b.gflops = m.gflops;
  return b;
}

bool ComputeWorker::compute(Workload& work, int max_threads) {
  int applied_threads = max_threads;
  bool draining = false;
  auto drain_deadline = clock_.steady_now();
  for (;;) {
    int cpu_time_percent = 100;
    {
      std::unique_lock lock(mutex_);
      const auto waiting_since = clock_.steady_now();
      // The governor pauses here, at a unit boundary: the unit in progress always finishes.
      // With finish_micro_batches_before_pause, a pause first drains: no new micro-batch
      // starts, and the ones peers handed over are finished, so neighbours see a clean stop.
      const auto& decision = governor_.decision_locked();
      const bool run = status_.want_contribute && !decision.paused();
      if (run || !draining) drain_deadline = clock_.steady_now() + kDrainLimit;
      const bool drain = !run && governor_.preferences_locked().finish_micro_batches_before_pause &&
                         !work.drained() && clock_.steady_now() < drain_deadline;
      work.set_draining(!run);
      if (drain && !draining) spdlog::info("pausing: finishing the micro-batches in flight first");
      draining = drain;
      if (!drain) {
        status_.worker_cv.wait(lock, [&] {
          return status_.quitting || (status_.want_contribute && !decision.paused());
        });
        work.set_draining(false);
      }
      if (status_.quitting) return true;
      const auto now = clock_.steady_now();
      duty_.rested(now - waiting_since, now);
      cpu_time_percent = decision.cpu_time_percent;
      const int allowed = std::min(max_threads, decision.threads);
      if (allowed != applied_threads) {
        // OpenMP's thread count belongs to the calling thread: set it from the worker.
        model::set_compute_threads(allowed);
        applied_threads = allowed;
        status_.device.set_compute_threads(model::compute_threads());
        spdlog::info("governor: {} compute thread(s)", applied_threads);
      }
    }
    WorkUnitResult r;
    const auto unit_start = clock_.steady_now();
    try {
      r = work.run_unit();
    } catch (const std::exception& e) {
      std::lock_guard lock(mutex_);
      status_.fail_locked(std::string("work failed: ") + e.what(), pb::NODE_WORK_FAILED);
      return false;
    }
    const auto unit_end = clock_.steady_now();
    if (r.did_work) {
      // Duty cycle: rest in proportion to the compute just done (woken early by quit or pause).
      const auto rest = duty_.after_work(unit_end - unit_start, cpu_time_percent, unit_end);
      if (rest > std::chrono::nanoseconds{0}) {
        std::unique_lock lock(mutex_);
        status_.worker_cv.wait_for(lock, rest, [&] {
          return status_.quitting ||
                 governor_.decision_locked().cpu_time_percent > cpu_time_percent;
        });
        const auto now = clock_.steady_now();
        duty_.rested(now - unit_end, now);
      }
    } else {
      duty_.rested(unit_end - unit_start, clock_.steady_now());
    }
    std::lock_guard lock(mutex_);
    governor_.set_duty_measured_locked(duty_.measured_share(clock_.steady_now()));
    if (r.did_work) ledger_.record_locked(work);
  }
}

}  // namespace rookery::node
