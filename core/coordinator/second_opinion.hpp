#pragma once
// A second opinion on a lone witness's catch. The ban vote (ban_vote.hpp) bans a volunteer for
// its spot-checks only when at least two of the peers that see its work on one side caught it,
// so that no single peer's word bans anybody. SWARM's wiring gives a seat one such witness per
// pipeline cut at its boundary. Where each pipeline is cut to its own volunteers (the `ours`
// planner with unlike volunteers), a seat can have a lone witness on a side: a liar there is
// caught by it and its work refused, but it is never banned, and its pipeline stays dead.
//
// So when a lone witness catches a volunteer, the coordinator swaps the accused into another
// member's seat whose witnesses on that side are other peers, or swaps its catcher out of the
// seat that witnesses it for another member, whichever keeps more throughput
// (reseat_for_second_opinion). If one of those new witnesses catches it too, two peers that each
// saw its work have caught it. From the first lone catch on, the vote counts every witness and
// catcher the accused has had in any plan, on each side apart: at least two catchers, and a
// majority of those witnesses. One liar still cannot ban anybody: it is one catcher on whichever
// seat, and the honest witnesses the accused has had since count against it. Pure bookkeeping
// and a pure search over plain structs, as ban_vote.hpp.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "coordinator/ban_vote.hpp"
#include "coordinator/swarm_planner.hpp"
#include "job/job_spec.hpp"

namespace rookery::coordinator {

// Which work of the accused a witness saw: the activations it sends, or the gradients it returns.
enum class WitnessSide { activations, gradients };

// A volunteer is moved at most this many times for second opinions (each move is a new plan).
inline constexpr int kMaxSecondOpinionMoves = 2;
// Swaps that would give fresh witnesses that a move weighs at most (each costs the timing of two
// pipelines, under the coordinator's lock): the first ones in plan order.
inline constexpr int kMaxSecondOpinionCandidates = 512;

class SecondOpinions {
 public:
  struct Outcome {
    BanVerdict vote;  // over every seat held since the first lone catch
    // Move the accused for a second opinion on this side, to a seat where none of `avoid` (its
    // catchers so far) witnesses it.
    std::optional<WitnessSide> move;
    std::set<std::string> avoid;
  };
  // After the plan's own vote did not ban `accused`: `witnesses` are its seat's in the plan in
  // force, `caught_by` who reports catching it (anyone; only witnesses count).
  Outcome consider(const std::string& accused, const BanWitnesses& witnesses,
                   const std::set<std::string>& caught_by);
  // The accused was moved for a second opinion on `side`: its catchers there so far will not
  // move it again.
  void moved(const std::string& accused, WitnessSide side);
  // A second opinion a new plan would undo: an accused moved for one, seated in `plan` where
  // every witness of the side it was moved for is one of its catchers (a fresh plan, made for
  // a join or for throughput, knows nothing of the move and may well seat it back). The move
  // to make again in `plan`, so that no second opinion is lost before it is given.
  struct Redo {
    std::string accused;
    WitnessSide side;
    std::set<std::string> avoid;
  };
  std::vector<Redo> undone_by(const Assignment& plan, std::int64_t averaging_max_group) const;
  // Banned, or gone for good: its record goes.
  void forget(const std::string& accused) { records_.erase(accused); }
  bool tracks(const std::string& accused) const { return records_.contains(accused); }

 private:
  struct Side {
    std::set<std::string> witnesses, catchers;  // over its seats since the first lone catch
    std::set<std::string> moved_for;            // catchers a move was already made for
  };
  struct Record {
    Side activations, gradients;
    int moves = 0;
  };
  std::map<std::string, Record> records_;
};

// `plan` with two members swapped so that `accused` faces witnesses on `side` that are at least
// one and none of `avoid` (its catchers so far), and, on a move for its gradients, no stage
// after it is one of `avoid` (a catcher refuses all its work, so none of it would reach a fresh
// witness before it either). Either the accused takes another member's seat, or a catcher that
// witnesses it gives up its seat to a member that is none of `avoid` (the only way for a
// pipeline's last stage, whose only candidate seat is its catcher's). Both pipelines
// involved must still fit their members' memory (predicted_rate counts them): of the first
// kMaxSecondOpinionCandidates such swaps, the one predicting the most samples/s. nullopt when
// none does.
std::optional<Assignment> reseat_for_second_opinion(const Assignment& plan,
                                                    const std::map<std::string, Member>& members,
                                                    const job::JobSpec& job,
                                                    const std::string& accused, WitnessSide side,
                                                    const std::set<std::string>& avoid);

}  // namespace rookery::coordinator
