#include "coordinator/plan_thread.hpp"

#include "coordinator/reversal_seating.hpp"

#include <exception>

namespace rookery::coordinator {

PlanThread::PlanThread(job::JobSpec job, Planner planner, Mode mode)
    : job_(std::move(job)), planner_(planner) {
  if (mode == Mode::own_thread) thread_ = std::jthread([this](std::stop_token s) { run(s); });
}

PlanThread::~PlanThread() {
  if (thread_.joinable()) {
    thread_.request_stop();
    wake_.notify_all();
    thread_.join();  // a plan in progress finishes first: plan_swarm cannot be interrupted
  }
}

void PlanThread::submit(Job job) {
  if (!thread_.joinable()) {
    auto done = plan(job);
    std::lock_guard lock(mutex_);
    done_ = std::move(done);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    waiting_ = std::move(job);
  }
  wake_.notify_all();
}

std::optional<PlanThread::Done> PlanThread::take() {
  std::lock_guard lock(mutex_);
  auto done = std::move(done_);
  done_.reset();
  return done;
}

bool PlanThread::idle() const {
  std::lock_guard lock(mutex_);
  return !waiting_ && !running_ && !done_;
}

PlanThread::Done PlanThread::plan(const Job& job) const {
  Done done;
  done.kind = job.kind;
  done.epoch = job.epoch;
  done.members = job.members.size();
  const auto start = std::chrono::steady_clock::now();
  try {
    // A change of membership re-plans what it touched; the periodic check plans afresh, to
    // find out whether a fresh plan would be worth its moves.
    done.plan = plan_reachable(job.members, job_, planner_,
                               job.kind == Job::Kind::replan ? &job.current : nullptr);
    if (job.kind == Job::Kind::reconsider) {
      std::map<std::string, Member> eligible;
      for (const auto& m : job.members) eligible.emplace(m.key, m);
      done.current_rate = predicted_rate(job.current, eligible, job_);
    }
  } catch (const std::exception& e) {
    done.plan.reset();
    done.error = e.what();
  }
  done.took = std::chrono::steady_clock::now() - start;
  return done;
}

void PlanThread::run(std::stop_token stop) {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, stop, [this] { return waiting_.has_value(); });
    if (stop.stop_requested()) return;
    Job job = std::move(*waiting_);
    waiting_.reset();
    running_ = true;
    lock.unlock();
    auto done = plan(job);
    lock.lock();
    running_ = false;
    // Not taken yet (the re-planner waits until idle() to submit): the newer plan replaces it.
    done_ = std::move(done);
  }
}

}  // namespace rookery::coordinator
