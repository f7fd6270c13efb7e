#include "coordinator/admission.hpp"

#include <algorithm>

#include "coordinator/verdicts.hpp"
#include "net/identity.hpp"

namespace rookery::coordinator {

namespace {

bool is_tcp_endpoint(const std::string& e) {
  return e.rfind("tcp://", 0) == 0 && e.size() > 6 && e.size() < 256;
}

}  // namespace

Admission::Admission(std::string job_id, std::vector<std::string> invite_tokens,
                     CoordinatorState& state, const clock::Clock& clock)
    : job_id_(std::move(job_id)),
      invite_tokens_(std::move(invite_tokens)),
      state_(state),
      clock_(clock) {}

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

std::string Admission::invite_refusal(const std::string& token) const {
  if (!token.empty() &&
      std::find(invite_tokens_.begin(), invite_tokens_.end(), token) != invite_tokens_.end()) {
    return {};
  }
  try {
    if (invite_tokens_.empty() && !state_.has_invites()) return {};  // open enrolment
    switch (state_.invite_status(token, clock_.unix_ms())) {
      case InviteStatus::Valid:
        return {};
      case InviteStatus::Expired:
        return verdict::kInviteExpired;
      case InviteStatus::Revoked:
        return verdict::kInviteRevoked;
      case InviteStatus::Unknown:
        break;
    }
  } catch (const std::exception& e) {
    return std::string("the coordinator cannot check the invite: ") + e.what();
  }
  return verdict::kInviteNotValid;
}

std::string Admission::refusal(const wire::pb::JoinRequest& r, const Ban* ban) const {
  if (r.job_id() != job_id_) return verdict::wrong_job(job_id_, r.job_id());
  if (auto why = invite_refusal(r.invite_token()); !why.empty()) return why;
  if (ban) return verdict::kBanned + ban->reason;
  if (!is_tcp_endpoint(r.stage_endpoint()) || !is_tcp_endpoint(r.reduce_endpoint()) ||
      !is_tcp_endpoint(r.shard_endpoint())) {
    return verdict::kEndpointsNotTcp;
  }
  const auto& p = r.profile();
  if (!(p.flops_per_s() > 0 && p.flops_per_s() < 1e18) || p.free_memory_bytes() <= 0 ||
      !(p.upload_bytes_per_s() > 0) || !(p.download_bytes_per_s() > 0) ||
      !(p.rtt_s() >= 0 && p.rtt_s() < 60)) {
    return verdict::kImplausibleProfile;
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

}  // namespace rookery::coordinator
