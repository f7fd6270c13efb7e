#include "coordinator/aggregation_proofs.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "net/identity.hpp"
#include "reduce/ring_proof.hpp"
#include "reduce/centered_clip.hpp"

namespace rookery::coordinator {

namespace {
// Verdicts and reporters remembered; past it the memory starts again (a proof checked twice
// costs a recomputation, never a wrong verdict).
constexpr std::size_t kRemembered = 4096;
// The largest proof checked: a segment of every member's input (1 MiB of f32 each, the ring's
// default segment, in a group of 16) and the owner's result, with room.
constexpr std::size_t kMaxProofBytes = 64 << 20;
// A reporter's new proofs are checked at most this often.
constexpr auto kPerReporter = std::chrono::seconds(2);
}  // namespace

AggregationProofs::AggregationProofs(const job::JobSpec& job)
    : aggregator_(reduce::make_aggregator(job.aggregator)) {}

AggregationProofs::Answer AggregationProofs::check(const std::string& reporter,
                                                   std::span<const std::byte> bytes,
                                                   std::chrono::steady_clock::time_point now) {
  const auto digest = reduce::digest_of(bytes);
  {
    std::lock_guard lock(mutex_);
    // What a proof proves does not depend on who shows it again.
    if (const auto it = verdicts_.find(digest); it != verdicts_.end()) return it->second;
    auto& last = last_checked_[reporter];
    if (last.time_since_epoch().count() != 0 && now - last < kPerReporter)
      return {false, true, {}, "one proof is checked every 2 s per volunteer"};
    last = now;
    if (last_checked_.size() > kRemembered) last_checked_.clear();
  }
  const auto start = std::chrono::steady_clock::now();
  const auto proof = reduce::decode_ring_proof(bytes);
  if (!proof) return {false, false, {}, "the proof does not decode"};
  const auto& view = proof->view();
  if (std::find(view.begin(), view.end(), reporter) == view.end())
    return {false, false, {}, "the proof is of a ring its reporter is not in"};
  const auto verdict = reduce::check_ring_proof(*proof, aggregator_->verifiable());
  const Answer answer{verdict.proves, false, verdict.owner, verdict.why};
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (answer.proves) {
    spdlog::info("volunteer {}'s proof against {} holds ({} KiB, checked in {:.1f} ms): {}",
                 net::short_key(reporter), net::short_key(answer.owner), bytes.size() >> 10, ms,
                 answer.why);
  } else {
    spdlog::warn("volunteer {} sent a proof that proves nothing ({} KiB): {}",
                 net::short_key(reporter), bytes.size() >> 10, answer.why);
  }
  std::lock_guard lock(mutex_);
  if (verdicts_.size() >= kRemembered) verdicts_.clear();
  verdicts_.emplace(digest, answer);
  return answer;
}

std::string AggregationProofs::answer(const std::string& reporter, const wire::Message& m,
                                      wire::pb::AggregationProofReply& out) {
  const auto* proof = m.tensor("proof");
  if (!proof || proof->dtype() != wire::DType::U8) {
    out.set_why("no proof: a U8 tensor named \"proof\"");
    return {};
  }
  if (proof->bytes().size() > kMaxProofBytes) {
    out.set_why("a proof of " + std::to_string(proof->bytes().size() >> 20) +
                " MiB, over the 64 MiB checked");
    return {};
  }
  const auto a = check(reporter, proof->bytes(), std::chrono::steady_clock::now());
  out.set_proves(a.proves);
  out.set_retry(a.retry);
  out.set_why(a.why);
  return a.proves ? a.owner : std::string();
}

}  // namespace rookery::coordinator
