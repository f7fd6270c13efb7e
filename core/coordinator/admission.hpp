#pragma once
// Who may join the job: the allow-list of keys (enforced on connecting, by ZAP), invite tokens
// (given on the command line, never expiring, or made into the state file by
// `rookery-coordinator invite`, expiring and revocable while the coordinator runs), and what a
// join must show to be admitted (a proof of work when the owner asks for one, net/join_work).
// A new job is invite-only unless its owner opens it. A refusal is a typed verdict
// (verdicts.hpp); the caps per address and subnet are sybil_limits'.
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

// How the job enrols volunteers.
struct Enrolment {
  std::vector<std::string> invite_tokens;  // never expiring (the command line's)
  // Joins without an invite are admitted while no invite exists (--open, or an allow-list,
  // which admits only its keys). Otherwise the job is invite-only, with no invite made yet too.
  bool open = false;
  unsigned join_work_bits = 0;  // the zero bits a join's proof of work must have (0: none)
};

class Admission {
 public:
  // Writes the refusal into a join's reply, and logs it.
  static void refuse(const std::string& key, const Refusal& no, wire::pb::JoinReply& out);
  Admission(std::string job_id, Enrolment enrolment, CoordinatorState& state,
            const clock::Clock& clock = clock::SystemClock::instance());

  // The first of `allowed_keys` that is not a 40-character Z85 CURVE key; empty when all are.
  static std::string first_invalid_key(const std::vector<std::string>& allowed_keys);
  // Lets only `allowed_keys` connect to the coordinator (empty: any key; joins are then
  // admitted by invite, or openly).
  static void apply_allow_list(net::ZapAuthenticator& auth,
                               const std::vector<std::string>& allowed_keys);

  // Why the join `r` of the volunteer `key` is refused (none when it is admitted); `ban` is
  // the key's, if banned.
  Refusal refusal(const std::string& key, const wire::pb::JoinRequest& r, const Ban* ban) const;
  // Why `token` does not admit a join (code NONE when it does, or the job is open).
  wire::pb::Verdict invite_refusal(const std::string& token) const;
  // Why the join's proof of work does not do (code NONE when it does, or none is asked).
  wire::pb::Verdict work_refusal(const std::string& key, const wire::pb::JoinRequest& r) const;
  // The volunteer an admitted join makes of `key`.
  static Member member_of(const std::string& key, const wire::pb::JoinRequest& r);

 private:
  std::string job_id_;
  Enrolment enrolment_;
  CoordinatorState& state_;
  const clock::Clock& clock_;
};

struct CoordinatorConfig;
// How the job enrols volunteers, in words, for the log of the coordinator's start.
std::string enrolment_words(const CoordinatorConfig& c);

}  // namespace rookery::coordinator
