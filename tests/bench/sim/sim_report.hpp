#pragma once
// What one simulated run measured, and the table that sets runs side by side.
#include <cstdint>
#include <string>
#include <vector>

namespace rookery::sim {

struct SimReport {
  std::string planner;
  int volunteers = 0;
  double simulated_s = 0;  // measured span (after the warm-up)
  double wall_s = 0;
  std::uint64_t events = 0;

  // Integrals over the measured span.
  double samples = 0;          // trained
  double ideal_samples = 0;    // the installed plans' seats, all online and holding their blocks
  double stalled_samples = 0;  // lost to seats whose volunteer vanished, until re-planned
  double refill_samples = 0;   // lost while seats fetched blocks after a re-plan
  double dropped_samples = 0;  // micro-batches in flight at, or sent to, a vanished volunteer
  double busy_flop = 0;        // FLOP the seated volunteers trained
  double online_flop = 0;      // FLOP the online volunteers could have computed
  double online_volunteer_s = 0;
  double seated_volunteer_s = 0;
  double max_volunteer_busy = 0;  // the highest busy share of one volunteer's FLOP/s (<= 1)
  double flops_per_sample = 0;    // the model's, forward and backward

  // The plans.
  int plans_installed = 0;
  int plans_measured = 0;
  double planning_s_total = 0, planning_s_max = 0;
  std::size_t largest_planned = 0;
  int memory_overruns = 0;  // seats over their volunteer's free memory, all plans
  int repeated_seats = 0;   // seats of a volunteer seated already in the same plan, all plans
  int shard_fetches = 0, restored_blocks = 0;
  int pipelines_last = 0, classes_last = 0;
  // Seats of the last plan spot-checks reach, from the holders each seat's view holds
  // (cluster/check_coverage.hpp): by an exact replica, by chains only, by nobody.
  int exact_last = 0, composed_last = 0, unchecked_last = 0;

  // Churn and routing.
  int joins = 0, departures = 0, seated_departures = 0, rerouted = 0;
  double reroute_s_total = 0;

  // Averaging: the pipelines whose averaging round one departure spoils, summed over seated
  // departures, and the largest round of any plan.
  double blast_radius_total = 0;
  int largest_round = 0;
  // The same with the pipelines averaging in groups of at most 16 (averaging_groups.hpp).
  double group_blast_radius_total = 0;
  int largest_group_round = 0;
  int group_rounds_to_mix = 0;  // rounds for every pipeline's values to reach every other

  // What the plans cost to deliver: the whole message, and the largest view a node in groups
  // of 16 is sent (plan_view.hpp), over every installed plan; and the bytes of sending every
  // seated node the plan each way, summed over them.
  int plan_messages = 0;
  double plan_bytes_max = 0, view_bytes_max = 0;
  double whole_plans_sent_bytes = 0, views_sent_bytes = 0;

  // Bans and Sybil caps.
  int liars = 0, liars_banned = 0, honest_banned = 0;
  double ban_delay_s_total = 0;
  int sybil_refusals = 0;  // the launch included

  // At the end: online volunteers neither seated nor given a reason.
  int online_at_end = 0, seated_at_end = 0, without_reason = 0;

  double samples_per_s() const { return simulated_s > 0 ? samples / simulated_s : 0; }
  double utilisation() const { return online_flop > 0 ? busy_flop / online_flop : 0; }
};

// Prints the runs as one table, metric by metric, a column per planner, then the ratios of
// samples/s to the first run's.
void print_reports(const std::vector<SimReport>& runs);

}  // namespace rookery::sim
