// The job's "averaging" section: how the rings that average pipelines check their aggregators.
// Kept apart from job_spec.cpp (which includes it) so the section can grow without that file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace rookery::job {

/// Verified aggregation (BTARD; core/reduce/aggregate_verification.hpp): every member commits to
/// its input, each ring chunk's aggregate is recomputed by `validators` other members, forwarded
/// bytes are signed hop by hop, and a liar is caught with evidence and left out.
///   automatic: on when the aggregator is CenteredClip (which exists to resist liars), off
///              with the plain mean (which a liar moves anyway);
///   on, off:   that, whatever the aggregator.
/// It costs about twice the bytes of a round and 2.7-4.2x its time on loopback (bench_verified).
enum class VerifyMode { automatic, on, off };

struct AveragingSpec {
  VerifyMode verify = VerifyMode::automatic;
  /// Members that recompute each chunk, besides its owner (all the others in a smaller ring).
  /// An owner is blamed for a false aggregate only when at least two validators reject it (one
  /// lying validator must not get an honest owner blamed), so 1 still keeps a false aggregate
  /// out of the round but leaves its owner unblamed. In [1, 16]; only with verification.
  int64_t validators = 2;
  friend bool operator==(const AveragingSpec&, const AveragingSpec&) = default;
};

/// Reads `object` (the value of "averaging"); unknown keys, wrong types and bad values are
/// JobSpecErrors naming the field under `path`.
AveragingSpec parse_averaging(const nlohmann::json& object, const std::string& path);
/// Range and cross-field rules; `verified`: whether the job verifies (verifies_aggregation).
void validate_averaging(const AveragingSpec& spec, bool verified, const std::string& path);
/// Whether the rings verify their aggregators.
bool verifies(const AveragingSpec& spec, bool centered_clip);
/// The section as JSON text (an object, every field written).
std::string to_json(const AveragingSpec& spec);

std::string_view to_string(VerifyMode);

}  // namespace rookery::job
