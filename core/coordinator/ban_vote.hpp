#pragma once
// The ban vote: whether the peers that see a volunteer's work verify that it lies. Pure (plain
// sets in, a verdict out), so who may ban whom is tested row by row.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "coordinator/swarm_planner.hpp"
#include "rookery/coordinator.pb.h"

namespace rookery::coordinator {

// The seats that see a volunteer's work, as the plan places them.
struct BanWitnesses {
  std::set<std::string> ring_partners;         // nodes of other pipelines holding any of its blocks
  std::set<std::string> sends_to;              // nodes whose blocks start where its own end
  std::set<std::string> returns_gradients_to;  // nodes whose blocks end where its own start
};

// The witnesses of `key`'s seat in `plan`; nullopt when it has none. Where the job averages in
// groups of at most `averaging_max_group` and nodes see views of the plan (plan_view.hpp), only
// the seats of its view's pipelines: the others never see its work.
std::optional<BanWitnesses> ban_witnesses(const Assignment& plan, const std::string& key,
                                          std::int64_t averaging_max_group = 0);

// What live volunteers report of the accused (anyone may report; only witnesses count).
struct BanReports {
  std::set<std::string> excluded_by;  // their aggregators exclude it from averaging
  std::set<std::string> caught_by;    // their spot-checks caught its activations or gradients
};

struct BanVerdict {
  bool ban = false;
  wire::pb::Verdict why;  // the verified evidence, when ban
};

// A ban on either of two kinds of evidence, each judged by the witnesses that see it: at least
// two of them report it, and they are a majority of that kind of witness. Ring partners judge
// averaging; the stages it sends to judge its activations, those it returns gradients to its
// gradients, apart (a stage that lies one way only is seen by one side). One liar cannot ban
// anybody; a minority of liars cannot outvote the honest peers of an honest node.
BanVerdict ban_vote(const BanWitnesses& witnesses, const BanReports& reports);

// The same vote from counts: witnesses of each kind, and how many of them report.
struct WitnessCounts {
  std::size_t ring_partners = 0, excluders = 0;
  std::size_t sends_to = 0, activation_catchers = 0;
  std::size_t returns_gradients_to = 0, gradient_catchers = 0;
};
BanVerdict ban_vote(const WitnessCounts& counts);

}  // namespace rookery::coordinator
