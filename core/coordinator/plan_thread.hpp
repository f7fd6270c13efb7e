#pragma once
// Planning off the coordinator's lock. plan_swarm over thousands of volunteers takes a second
// or more, and volunteers are declared dead after a few seconds without an answered
// heartbeat, so the re-planner hands a snapshot of the plannable volunteers to this thread and
// installs the plan it returns at a later tick; heartbeats are answered meanwhile. One plan is
// made at a time: a job submitted while another runs waits, and a newer one replaces a job
// still waiting (the latest snapshot is the one worth planning).
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "coordinator/swarm_planner.hpp"
#include "job/job_spec.hpp"

namespace rookery::coordinator {

class PlanThread {
 public:
  // own_thread: plans on a thread of its own (the service). inline_plans: submit() plans
  // before it returns, so a test with a hand-set clock sees the plan at the same tick.
  enum class Mode { own_thread, inline_plans };

  struct Job {
    enum class Kind {
      replan,      // membership changed: plan the snapshot
      reconsider,  // the periodic check: plan it and price the seats in force with today's profiles
    };
    Kind kind = Kind::replan;
    std::vector<Member> members;  // the plannable volunteers as they were when submitted
    Assignment current;           // the seats in force (a replan keeps what it need not change)
    std::uint64_t epoch = 0;      // the caller's count of urgent changes at the snapshot
  };

  struct Done {
    Job::Kind kind = Job::Kind::replan;
    std::uint64_t epoch = 0;
    std::size_t members = 0;
    std::optional<Assignment> plan;  // nullopt: planning threw; `error` says what
    std::string error;
    double current_rate = 0;               // reconsider: samples/s of the seats in force
    std::chrono::duration<double> took{};  // planning time, on this thread
  };

  PlanThread(job::JobSpec job, Planner planner, Mode mode);
  ~PlanThread();
  PlanThread(const PlanThread&) = delete;
  PlanThread& operator=(const PlanThread&) = delete;

  void submit(Job job);
  // The finished plan, once: nullopt while none is waiting to be taken.
  std::optional<Done> take();
  // Nothing waits, runs, or waits to be taken: a new job would start at once.
  bool idle() const;

 private:
  Done plan(const Job& job) const;
  void run(std::stop_token stop);

  const job::JobSpec job_;
  const Planner planner_;
  mutable std::mutex mutex_;
  std::condition_variable_any wake_;
  std::optional<Job> waiting_;
  bool running_ = false;
  std::optional<Done> done_;
  std::jthread thread_;  // last: started once the members above exist
};

}  // namespace rookery::coordinator
