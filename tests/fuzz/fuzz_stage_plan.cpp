// libFuzzer target: the stage plan parser (core/pipeline/stage_plan.hpp). Relative job paths
// resolve against resources/demo, so "job": "demo-job.json" reaches the stage list.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "pipeline/stage_plan.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto plan =
        rookery::pipeline::parse_stage_plan(text, ROOKERY_SOURCE_DIR "/resources/demo");
    for (std::int64_t blocks : {1, 4, 6}) {
      try {
        plan.validate(blocks);
      } catch (const std::runtime_error&) {}
    }
  } catch (const std::runtime_error&) {}
  return 0;
}
