#pragma once
// The coordinator's verdicts on a volunteer (refused, banned, or left without a seat) as the
// wire's typed Verdict, and the same in English for logs and headless users. The node hands
// the code and its numbers to its window, which words them in its user's language.
#include <cstddef>
#include <string>

#include "cluster/planning.hpp"
#include "rookery/coordinator.pb.h"

namespace rookery::coordinator::verdict {

using Code = wire::pb::Verdict::Code;

wire::pb::Verdict make(Code code, std::string detail = {});
// A ban's evidence: `reporters` of the `witnesses` that see its work verified it.
wire::pb::Verdict counted(Code code, std::size_t reporters, std::size_t witnesses);
// Why the planner left a node without a seat.
wire::pb::Verdict unseated(const cluster::Unassigned& u);

// The verdict in English.
std::string words(const wire::pb::Verdict& v);
// A volunteer's seat, or why it has none, in English ("pipeline 2 stage 1", ...).
std::string words(const wire::pb::SeatStatus& s);

}  // namespace rookery::coordinator::verdict
