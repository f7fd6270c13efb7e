#include "pipeline/stage_link.hpp"

#include <set>

#include <spdlog/spdlog.h>

#include "net/identity.hpp"

namespace rookery::pipeline {

void StageLink::restrict_peers(const std::vector<std::string>& members) {
  const std::set<std::string> listed(members.begin(), members.end());
  std::vector<std::string> keep;
  for (const auto& key : admitted()) {
    if (listed.count(key)) {
      keep.push_back(key);
    } else {
      spdlog::warn("peer {} is no longer a member of the job: refused from now on",
                   net::short_key(key));
    }
  }
  admit(keep);
}

}  // namespace rookery::pipeline
