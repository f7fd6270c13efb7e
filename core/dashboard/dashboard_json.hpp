#pragma once
// The run's status as the job owner's web dashboard shows it, to anyone who can open it: the
// totals, the loss and validation curves, the latest evaluation, the archive, the pipelines,
// the volunteers and the leaderboard. It names no volunteer by its key and says nothing of where
// one is (no endpoint, no address, no relay's key, no ban's English, which may quote either):
// each volunteer is a pseudonym, a keyed hash of its key under the coordinator's secret salt,
// so the leaderboard stays the same from one answer to the next, but no one who knows a
// volunteer's public key can find it there.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "rookery/coordinator.pb.h"

namespace rookery::dashboard {

// Rows in the leaderboard (the volunteers' table lists everyone in the status).
inline constexpr std::size_t kLeaderboardRows = 20;

// "volunteer 3fa2c1d0": BLAKE2b keyed with `salt` (libsodium's generichash) over the key. The
// salt is the coordinator's secret; one of 16 to 64 bytes keys the hash as it is, any other
// length is hashed to 32 bytes first.
std::string pseudonym(std::string_view key, std::string_view salt);

nlohmann::json dashboard_json(const wire::pb::RunStatus& status, std::string_view salt);

}  // namespace rookery::dashboard
