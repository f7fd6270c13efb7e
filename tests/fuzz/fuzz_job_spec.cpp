// libFuzzer target: the job spec parser (core/job) on arbitrary text; a valid spec must
// round-trip through to_json.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "job/job_spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rookery::job;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const JobSpec spec = parse_job_spec(text, "/fuzz");
    if (!(parse_job_spec(to_json(spec)) == spec))
      std::abort();  // canonical form must parse back equal
    (void)learning_rate_at(spec.optimizer, 0);
    (void)learning_rate_at(spec.optimizer, 1000);
  } catch (const JobSpecError&) {}
  return 0;
}
