#pragma once
// The coordinator's own check of the proofs volunteers send it (reduce/ring_proof.hpp): that a
// ring partner, as a chunk's owner, signed an aggregate that is not the aggregate of the inputs
// it signed for (reduce/aggregation_proof.hpp), or, as a forwarder, sent on bytes other than
// the owner's result it signed it held (reduce/forwarding_proof.hpp). Unlike the ban vote,
// which counts witnesses, this needs one reporter and no trust in it: the coordinator
// re-verifies every signature and digest and recomputes a segment with the job's aggregator, so
// one honest member bans a liar even where no second one exists (a ring of two pipelines, or
// of three), and a lying reporter cannot get an honest member banned. Each distinct proof is
// checked once and its verdict remembered; a reporter gets one new proof checked every few
// seconds (a proof of an aggregate carries a segment of every ring member's input, and is
// checked on the request thread). Thread-safe.
#include <array>
#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>

#include "job/job_spec.hpp"
#include "rookery/envelope.pb.h"
#include "wire/message.hpp"

namespace rookery::reduce {
class Aggregator;
}

namespace rookery::coordinator {

class AggregationProofs {
 public:
  explicit AggregationProofs(const job::JobSpec& job);

  struct Answer {
    bool proves = false;
    bool retry = false;  // not checked: this reporter had one checked moments ago
    std::string owner;   // the liar's key, when it proves
    std::string why;     // what it proves, or why it proves nothing (English)
  };
  // Checks `proof`, which member `reporter` sent at `now`. A proof of a ring that `reporter`
  // is not in proves nothing (a reporter shows what it validated itself), unless it was proved
  // before. Never throws for malformed bytes.
  Answer check(const std::string& reporter, std::span<const std::byte> proof,
               std::chrono::steady_clock::time_point now);

  // Answers a proof report (the U8 tensor "proof" of `m`) into `out`; returns the liar's key
  // when it proves, else empty.
  std::string answer(const std::string& reporter, const wire::Message& m,
                     wire::pb::AggregationProofReply& out);

 private:
  std::shared_ptr<const reduce::Aggregator> aggregator_;  // the job's
  std::mutex mutex_;
  std::map<std::array<std::byte, 16>, Answer> verdicts_;  // by the proof's digest
  std::map<std::string, std::chrono::steady_clock::time_point> last_checked_;  // by reporter
};

}  // namespace rookery::coordinator
