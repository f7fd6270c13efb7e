#include "sim_report.hpp"

#include <cstdio>
#include <functional>

namespace rookery::sim {

namespace {

double per(double a, double b) { return b > 0 ? a / b : 0; }

}  // namespace

void print_reports(const std::vector<SimReport>& runs) {
  if (runs.empty()) return;
  const auto& first = runs.front();
  std::printf("swarm simulation: %d volunteers, %.1f simulated hours measured\n", first.volunteers,
              first.simulated_s / 3600);
  std::printf("%-44s", "");
  for (const auto& r : runs) std::printf(" %14s", r.planner.c_str());
  std::printf("\n");
  const auto row = [&](const char* name, const char* format,
                       const std::function<double(const SimReport&)>& value) {
    std::printf("%-44s", name);
    for (const auto& r : runs) {
      char cell[64];
      std::snprintf(cell, sizeof cell, format, value(r));
      std::printf(" %14s", cell);
    }
    std::printf("\n");
  };
  row("samples/s (trained)", "%.1f", [](const SimReport& r) { return r.samples_per_s(); });
  row("samples/s, installed plans with no churn", "%.1f",
      [](const SimReport& r) { return per(r.ideal_samples, r.simulated_s); });
  row("utilisation (trained FLOP / online FLOP)", "%.4f",
      [](const SimReport& r) { return r.utilisation(); });
  row("volunteers online (mean)", "%.0f",
      [](const SimReport& r) { return per(r.online_volunteer_s, r.simulated_s); });
  row("volunteers seated and online (mean)", "%.0f",
      [](const SimReport& r) { return per(r.seated_volunteer_s, r.simulated_s); });
  row("pipelines (last plan)", "%.0f", [](const SimReport& r) { return double(r.pipelines_last); });
  row("  cut classes", "%.0f", [](const SimReport& r) { return double(r.classes_last); });
  row("  seats checked: exact replica in view", "%.0f",
      [](const SimReport& r) { return double(r.exact_last); });
  row("  seats checked: chains in view only", "%.0f",
      [](const SimReport& r) { return double(r.composed_last); });
  row("  seats unchecked", "%.0f", [](const SimReport& r) { return double(r.unchecked_last); });
  row("plans installed", "%.0f", [](const SimReport& r) { return double(r.plans_installed); });
  row("planning time, mean (s)", "%.3f",
      [](const SimReport& r) { return per(r.planning_s_total, r.plans_measured); });
  row("planning time, max (s)", "%.3f", [](const SimReport& r) { return r.planning_s_max; });
  row("largest swarm planned", "%.0f",
      [](const SimReport& r) { return double(r.largest_planned); });
  row("lost to churn: stalled seats (% trained)", "%.2f",
      [](const SimReport& r) { return 100 * per(r.stalled_samples, r.samples); });
  row("lost to churn: shard refills (% trained)", "%.2f",
      [](const SimReport& r) { return 100 * per(r.refill_samples, r.samples); });
  row("lost to churn: dropped in flight (% trained)", "%.3f",
      [](const SimReport& r) { return 100 * per(r.dropped_samples, r.samples); });
  row("shard fetches", "%.0f", [](const SimReport& r) { return double(r.shard_fetches); });
  row("blocks restored from the archive", "%.0f",
      [](const SimReport& r) { return double(r.restored_blocks); });
  row("joins", "%.0f", [](const SimReport& r) { return double(r.joins); });
  row("departures", "%.0f", [](const SimReport& r) { return double(r.departures); });
  row("  of seated volunteers", "%.0f",
      [](const SimReport& r) { return double(r.seated_departures); });
  row("  routed around by NextHopRouter", "%.0f",
      [](const SimReport& r) { return double(r.rerouted); });
  row("  mean time to reroute (s)", "%.2f",
      [](const SimReport& r) { return per(r.reroute_s_total, r.rerouted); });
  row("largest averaging round (members)", "%.0f",
      [](const SimReport& r) { return double(r.largest_round); });
  row("pipelines one departure's round spoils (mean)", "%.1f",
      [](const SimReport& r) { return per(r.blast_radius_total, r.seated_departures); });
  row("in groups of <= 16: largest round (members)", "%.0f",
      [](const SimReport& r) { return double(r.largest_group_round); });
  row("  pipelines one departure's round spoils", "%.1f",
      [](const SimReport& r) { return per(r.group_blast_radius_total, r.seated_departures); });
  row("  rounds for every pipeline to reach all", "%.0f",
      [](const SimReport& r) { return double(r.group_rounds_to_mix); });
  row("plan message, whole (KiB, largest)", "%.0f",
      [](const SimReport& r) { return r.plan_bytes_max / 1024; });
  row("  a node's view in groups of <= 16 (KiB, largest)", "%.1f",
      [](const SimReport& r) { return r.view_bytes_max / 1024; });
  row("  every seat sent the whole plan (MiB per plan)", "%.1f", [](const SimReport& r) {
    return per(r.whole_plans_sent_bytes, r.plan_messages) / (1 << 20);
  });
  row("  every seat sent its view (MiB per plan)", "%.1f",
      [](const SimReport& r) { return per(r.views_sent_bytes, r.plan_messages) / (1 << 20); });
  row("liars (a Sybil farm's keys among them)", "%.0f",
      [](const SimReport& r) { return double(r.liars); });
  row("  liars banned", "%.0f", [](const SimReport& r) { return double(r.liars_banned); });
  row("  honest volunteers banned", "%.0f",
      [](const SimReport& r) { return double(r.honest_banned); });
  row("  mean time from seat to ban (s)", "%.0f",
      [](const SimReport& r) { return per(r.ban_delay_s_total, r.liars_banned); });
  row("joins refused by the Sybil caps (whole run)", "%.0f",
      [](const SimReport& r) { return double(r.sybil_refusals); });
  row("seats over memory (all plans)", "%.0f",
      [](const SimReport& r) { return double(r.memory_overruns); });
  row("volunteers seated twice (all plans)", "%.0f",
      [](const SimReport& r) { return double(r.repeated_seats); });
  row("online at the end", "%.0f", [](const SimReport& r) { return double(r.online_at_end); });
  row("  seated", "%.0f", [](const SimReport& r) { return double(r.seated_at_end); });
  row("  neither seated nor given a reason", "%.0f",
      [](const SimReport& r) { return double(r.without_reason); });
  row("wall time (s)", "%.1f", [](const SimReport& r) { return r.wall_s; });
  std::printf("samples/s over %s's:", first.planner.c_str());
  for (std::size_t i = 1; i < runs.size(); ++i)
    std::printf("  %s %.3f", runs[i].planner.c_str(),
                per(runs[i].samples_per_s(), first.samples_per_s()));
  std::printf("\n");
}

}  // namespace rookery::sim
