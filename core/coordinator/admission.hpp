#pragma once
// Who may join the job: the allow-list of keys (enforced on connecting, by ZAP), invite tokens
// (given on the command line, never expiring, or made into the state file by
// `rookery-coordinator invite`, expiring and revocable while the coordinator runs), and what a
// join must show to be admitted. A refusal is a typed verdict (verdicts.hpp).
#include <string>
#include <vector>

#include "clock/clock.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/swarm_planner.hpp"
#include "net/secure_context.hpp"
#include "rookery/envelope.pb.h"

namespace rookery::coordinator {

struct Refusal {
  bool refused = false;
  bool banned = false;    // refused for a ban: `why` is the ban's evidence
  wire::pb::Verdict why;  // code NONE only for a ban stored before codes (detail: its English)
  explicit operator bool() const { return refused; }
};

class Admission {
 public:
  // `invite_tokens` non-empty, or invites in `state`: the job is invite-only.
  Admission(std::string job_id, std::vector<std::string> invite_tokens, CoordinatorState& state,
            const clock::Clock& clock = clock::SystemClock::instance());

  // The first of `allowed_keys` that is not a 40-character Z85 CURVE key; empty when all are.
  static std::string first_invalid_key(const std::vector<std::string>& allowed_keys);
  // Lets only `allowed_keys` connect to the coordinator (empty: open enrolment).
  static void apply_allow_list(net::ZapAuthenticator& auth,
                               const std::vector<std::string>& allowed_keys);

  // Why the join `r` is refused (none when it is admitted); `ban` is the key's, if banned.
  Refusal refusal(const wire::pb::JoinRequest& r, const Ban* ban) const;
  // Why `token` does not admit a join (code NONE when it does, or the job is not invite-only).
  wire::pb::Verdict invite_refusal(const std::string& token) const;
  // The volunteer an admitted join makes of `key`.
  static Member member_of(const std::string& key, const wire::pb::JoinRequest& r);

 private:
  std::string job_id_;
  std::vector<std::string> invite_tokens_;
  CoordinatorState& state_;
  const clock::Clock& clock_;
};

}  // namespace rookery::coordinator
