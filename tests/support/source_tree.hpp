#pragma once
// Files of the source tree that tests read (the demo corpus, scripts). The tree is where the
// build was configured (ROOKERY_SOURCE_DIR), unless ROOKERY_TEST_SOURCE_DIR names another: the
// GPU bundle (tests/gpu) carries the few files its tests read and runs on a machine where the
// build machine's tree does not exist.
#include <cstdlib>
#include <string>

namespace rookery::testing {

inline std::string source_file(const std::string& relative) {
  const char* moved = std::getenv("ROOKERY_TEST_SOURCE_DIR");
  return std::string(moved && *moved ? moved : ROOKERY_SOURCE_DIR) + "/" + relative;
}

}  // namespace rookery::testing
