#pragma once
// Averaging in bounded groups instead of one ring across every pipeline (Moshpit SGD, Ryabinin
// et al. 2021, as hivemind runs it): the members sit on a d-dimensional grid, and round r
// averages within the groups of members that share every coordinate but the (r mod d)-th. A
// round's size, and the members one failure holds up, stay bounded by the group size however
// many members there are, and after any d consecutive rounds every member's values have reached
// every other member (on a full grid, d rounds average exactly).
//
// A member count that is no power fills a grid of side s (s^d <= members) and seats each extra
// member beside a host on it: the extra joins its host's group in every round, so it hears what
// its host hears and its values travel as the host's do. Pure: the same count, bound and round
// give every node the same groups.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rookery::reduce {

struct AveragingGrid {
  std::size_t dimensions = 1;  // rounds for every member to reach every other
  std::size_t side = 1;        // hosts along each dimension (side^dimensions hosts)
};

// The grid for `members` with groups of at most `max_group`: one group when they fit in one,
// else the fewest dimensions whose groups stay within it. Throws std::invalid_argument when no
// grid's groups stay within it: never for max_group >= 4 (a side of 2 with extras beside hosts
// needs 4); below 4 only some counts fit (in groups of 2 the powers of 2).
AveragingGrid averaging_grid(std::size_t members, std::size_t max_group);

// Round `round`'s groups: member indices 0..members-1, each in exactly one group, each group in
// ascending order, groups ordered by their first member. A group of one averages with nobody.
std::vector<std::vector<std::size_t>> averaging_groups(std::size_t members, std::size_t max_group,
                                                       std::uint64_t round);

// The bound on groups that `members` average in when a job asks for groups of at most `asked`:
// 0 (one group of everybody) when it asks for none (0) or they fit in one; `asked` when they fit
// a grid of such groups; else 4, which every count fits (averaging_grid), or 0 from 4 members
// down.
std::size_t averaging_group_bound(std::int64_t asked, std::size_t members);

// Every member's partners over a sweep: for member m, the members that share a group with it in
// any of the grid's rounds (d rounds give them all; groups repeat with the round's dimension),
// m itself included, in ascending order. Symmetric: n is among m's exactly when m is among n's.
// With `max_group` 0 or members that fit one group, everybody is everybody's partner. At most
// d x (max_group - 1) + 1 each, whatever the count of members.
std::vector<std::vector<std::size_t>> sweep_partners(std::size_t members, std::size_t max_group);

}  // namespace rookery::reduce
