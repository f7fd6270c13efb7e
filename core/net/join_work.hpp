#pragma once
// A join's proof of work (rookery-coordinator --join-work-bits): a nonce such that
// BLAKE2b-256(job id, 0, the volunteer's public key, the nonce as 8 little-endian bytes) starts
// with N zero bits. It binds the work to one job and one identity, so a Sybil pays about 2^N
// hashes for every key it enrols, while the coordinator checks a join with one hash.
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

namespace rookery::net {

// The most bits a coordinator may ask for: 2^32 hashes is already hours on one core.
inline constexpr unsigned kMaxJoinWorkBits = 32;

// The leading zero bits of the work's hash for `nonce` (0..256).
unsigned join_work_bits(const std::string& job_id, const std::string& public_key,
                        std::uint64_t nonce);

// The first nonce from 0 that gives at least `bits` zero bits (bits <= kMaxJoinWorkBits);
// none when `stop` becomes true first (checked every few thousand hashes).
std::optional<std::uint64_t> find_join_work(const std::string& job_id,
                                            const std::string& public_key, unsigned bits,
                                            const std::atomic<bool>* stop = nullptr);

}  // namespace rookery::net
