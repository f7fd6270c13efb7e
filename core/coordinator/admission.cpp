#include "coordinator/admission.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "coordinator/coordinator_service.hpp"
#include "coordinator/verdicts.hpp"
#include "net/identity.hpp"
#include "net/join_work.hpp"

namespace rookery::coordinator {

namespace {

bool is_tcp_endpoint(const std::string& e) {
  return e.rfind("tcp://", 0) == 0 && e.size() > 6 && e.size() < 256;
}

}  // namespace

Admission::Admission(std::string job_id, Enrolment enrolment, CoordinatorState& state,
                     const clock::Clock& clock)
    : job_id_(std::move(job_id)), enrolment_(std::move(enrolment)), state_(state), clock_(clock) {}

std::string Admission::first_invalid_key(const std::vector<std::string>& allowed_keys) {
  for (const auto& k : allowed_keys) {
    if (!net::is_z85_key(k)) return k;
  }
  return {};
}

void Admission::apply_allow_list(net::ZapAuthenticator& auth,
                                 const std::vector<std::string>& allowed_keys) {
  if (allowed_keys.empty()) {
    auth.set_open(net::kCoordinatorDomain, true);
  } else {
    auth.replace(net::kCoordinatorDomain, allowed_keys);
  }
}

wire::pb::Verdict Admission::invite_refusal(const std::string& token) const {
  using wire::pb::Verdict;
  const auto& tokens = enrolment_.invite_tokens;
  if (!token.empty() && std::find(tokens.begin(), tokens.end(), token) != tokens.end()) return {};
  try {
    if (enrolment_.open && tokens.empty() && !state_.has_invites()) return {};  // open enrolment
    switch (state_.invite_status(token, clock_.unix_ms())) {
      case InviteStatus::Valid:
        return {};
      case InviteStatus::Expired:
        return verdict::make(Verdict::INVITE_EXPIRED);
      case InviteStatus::Revoked:
        return verdict::make(Verdict::INVITE_REVOKED);
      case InviteStatus::Unknown:
        break;
    }
  } catch (const std::exception& e) {
    return verdict::make(Verdict::INVITE_UNCHECKABLE, e.what());
  }
  return verdict::make(Verdict::INVITE_NOT_VALID);
}

wire::pb::Verdict Admission::work_refusal(const std::string& key,
                                          const wire::pb::JoinRequest& r) const {
  using wire::pb::Verdict;
  const auto needed = enrolment_.join_work_bits;
  if (needed == 0) return {};
  if (!r.has_join_work_nonce()) {
    auto v = verdict::make(Verdict::JOIN_WORK_MISSING);
    v.set_limit(needed);
    return v;
  }
  const auto bits = net::join_work_bits(job_id_, key, r.join_work_nonce());
  if (bits >= needed) return {};
  auto v = verdict::make(Verdict::JOIN_WORK_WRONG);
  v.set_value(bits);
  v.set_limit(needed);
  return v;
}

Refusal Admission::refusal(const std::string& key, const wire::pb::JoinRequest& r,
                           const Ban* ban) const {
  using wire::pb::Verdict;
  const auto refuse = [](Verdict why) { return Refusal{true, false, std::move(why)}; };
  if (r.job_id() != job_id_) return refuse(verdict::make(Verdict::WRONG_JOB, job_id_));
  if (auto why = invite_refusal(r.invite_token()); why.code() != Verdict::NONE) return refuse(why);
  // Before the ban: a key learns nothing of its standing until it has paid for the join.
  if (auto why = work_refusal(key, r); why.code() != Verdict::NONE) return refuse(why);
  if (ban) {
    // A ban stored before verdicts had codes keeps its English.
    return {
        true, true,
        ban->why.code() != Verdict::NONE ? ban->why : verdict::make(Verdict::NONE, ban->reason)};
  }
  if (!is_tcp_endpoint(r.stage_endpoint()) || !is_tcp_endpoint(r.reduce_endpoint()) ||
      !is_tcp_endpoint(r.shard_endpoint())) {
    return refuse(verdict::make(Verdict::ENDPOINTS_NOT_TCP));
  }
  const auto& p = r.profile();
  if (!(p.flops_per_s() > 0 && p.flops_per_s() < 1e18) || p.free_memory_bytes() <= 0 ||
      !(p.upload_bytes_per_s() > 0) || !(p.download_bytes_per_s() > 0) ||
      !(p.rtt_s() >= 0 && p.rtt_s() < 60)) {
    return refuse(verdict::make(Verdict::IMPLAUSIBLE_PROFILE));
  }
  return {};
}

Member Admission::member_of(const std::string& key, const wire::pb::JoinRequest& r) {
  const auto& p = r.profile();
  Member m;
  m.key = key;
  m.profile.id = key;
  m.profile.flops_per_s = p.flops_per_s();
  m.profile.free_memory_bytes = p.free_memory_bytes();
  m.profile.upload_bytes_per_s = p.upload_bytes_per_s();
  m.profile.download_bytes_per_s = p.download_bytes_per_s();
  m.profile.rtt_s = p.rtt_s();
  m.stage_endpoint = r.stage_endpoint();
  m.reduce_endpoint = r.reduce_endpoint();
  m.shard_endpoint = r.shard_endpoint();
  return m;
}

void Admission::refuse(const std::string& key, const Refusal& no, wire::pb::JoinReply& out) {
  out.set_accepted(false);
  *out.mutable_refusal() = no.why;
  out.set_banned(no.banned);
  out.set_reason((no.banned ? "banned from this job: " : "") + verdict::words(no.why));
  spdlog::info("refused volunteer {}: {}", net::short_key(key), out.reason());
}

std::string enrolment_words(const CoordinatorConfig& c) {
  std::string words;
  if (!c.allowed_keys.empty()) {
    words = std::to_string(c.allowed_keys.size()) + " allowed key(s)";
  } else if (c.open) {
    words = "open enrolment";
  } else {
    words = "invite-only (make invites with `rookery-coordinator invite`; --open to admit anyone)";
  }
  if (c.join_work_bits > 0) {
    words += ", a proof of work of " + std::to_string(c.join_work_bits) + " bits per join";
  }
  const auto cap = [](std::size_t n) { return n == 0 ? std::string("no cap") : std::to_string(n); };
  return words + ", volunteers per address " + cap(c.caps.per_address) + ", per subnet " +
         cap(c.caps.per_subnet) + (c.caps.loopback ? " (loopback too)" : "");
}

}  // namespace rookery::coordinator
