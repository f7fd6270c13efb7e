// bench_swarm_sim: the swarm at internet scale, simulated around the coordinator's own code
// (swarm_model.hpp): 10,000 volunteers drawn from published distributions of devices, home
// links, round trips and availability (volunteer_population.cpp, churn.cpp), a few simulated
// hours after a launch, once per planner on the same volunteers and the same comings and goings.
// Prints the population, then samples/s, utilisation, re-plans and planning time, work lost to
// churn, routing, averaging rounds and bans side by side, and samples/s over our planner's.
//
//   bench_swarm_sim [--volunteers 10000] [--hours 1] [--planners ours,uniform,ravnest]
//                   [--seed 1] [--warm-up-s 900]
//
// Exit 1 only when a property fails (a seat over memory, an online volunteer without a seat or
// a reason, an honest volunteer banned, nothing trained), never for speed.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "sim_report.hpp"
#include "swarm_model.hpp"
#include "volunteer_population.hpp"

using namespace rookery;

namespace {

void describe_population(const std::vector<sim::SimVolunteer>& people) {
  std::map<std::string, int> kinds;
  std::vector<double> up, down, flops;
  int cloud = 0, liars = 0;
  for (const auto& v : people) {
    kinds[v.device.rfind("CPU", 0) == 0 ? "CPU only" : "CUDA GPU"]++;
    cloud += v.availability == sim::Availability::preemptible;
    liars += v.liar;
    up.push_back(v.profile.upload_bytes_per_s * 8 / 1e6);
    down.push_back(v.profile.download_bytes_per_s * 8 / 1e6);
    flops.push_back(v.profile.flops_per_s / 1e12);
  }
  const auto median = [](std::vector<double> x) {
    std::nth_element(x.begin(), x.begin() + long(x.size() / 2), x.end());
    return x[x.size() / 2];
  };
  double total = 0;
  for (const double f : flops) total += f;
  std::printf(
      "population: %zu volunteers, %d CUDA GPU, %d CPU only, %d preemptible cloud, %d liars\n",
      people.size(), kinds["CUDA GPU"], kinds["CPU only"], cloud, liars);
  std::printf("  median %.1f TFLOP/s (sum %.0f), median links %.0f down / %.0f up Mbit/s\n",
              median(flops), total, median(down), median(up));
}

}  // namespace

int main(int argc, char** argv) {
  sim::PopulationOptions population;
  sim::SimOptions options;
  options.hours = 1;
  std::string planners = "ours,uniform,ravnest";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr,
                   "usage: bench_swarm_sim [--volunteers N] [--hours H] [--planners a,b] "
                   "[--seed S] [--warm-up-s S]\n");
      return 2;
    }
    const char* value = argv[++i];
    if (arg == "--volunteers")
      population.volunteers = std::atoi(value);
    else if (arg == "--hours")
      options.hours = std::atof(value);
    else if (arg == "--planners")
      planners = value;
    else if (arg == "--seed")
      population.seed = options.seed = std::strtoull(value, nullptr, 10);
    else if (arg == "--warm-up-s")
      options.warm_up_s = std::atof(value);
    else {
      std::fprintf(stderr, "unknown option %s\n", arg.c_str());
      return 2;
    }
  }
  if (population.volunteers < 2 || !(options.hours > 0)) {
    std::fprintf(stderr, "need at least 2 volunteers and a positive number of hours\n");
    return 2;
  }
  spdlog::set_level(spdlog::level::err);  // the coordinator's per-volunteer lines
  char dir_template[] = "/tmp/bench_swarm_sim.XXXXXX";
  if (!mkdtemp(dir_template)) {
    std::perror("mkdtemp");
    return 1;
  }
  options.state_dir = dir_template;
  const auto people = sim::draw_population(population);
  describe_population(people);
  std::vector<sim::SimReport> runs;
  std::stringstream names(planners);
  for (std::string name; std::getline(names, name, ',');) {
    options.planner = name;
    runs.push_back(sim::run_swarm(people, sim::sim_job(), options));
    std::fprintf(stderr, "%s: %.1f s\n", name.c_str(), runs.back().wall_s);
  }
  std::filesystem::remove_all(options.state_dir);
  sim::print_reports(runs);
  int failures = 0;
  for (const auto& r : runs) {
    const bool own = r.planner != "ravnest";  // Ravnest's plan gives no reason for its OOM groups
    if (r.memory_overruns > 0 || r.repeated_seats > 0 || (own && r.without_reason > 0) ||
        r.honest_banned > 0 || !(r.samples > 0)) {
      std::fprintf(stderr, "%s: a property failed (see the table)\n", r.planner.c_str());
      ++failures;
    }
  }
  return failures ? 1 : 0;
}
