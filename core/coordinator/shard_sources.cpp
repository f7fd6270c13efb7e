#include "coordinator/shard_sources.hpp"

#include <algorithm>

namespace rookery::coordinator {

namespace {

void largest_first(std::vector<ShardSource>& out) {
  std::stable_sort(out.begin(), out.end(), [](const ShardSource& a, const ShardSource& b) {
    return a.last_block - a.first_block > b.last_block - b.first_block;
  });
}

// `seat`'s overlap with `mine`, when it is a live member with a shard server and not `key`.
bool add_overlap(const Seat& seat, const Seat& mine, const std::string& key,
                 const std::map<std::string, Member>& alive, std::vector<ShardSource>& out) {
  if (seat.key == key) return false;
  const auto first = std::max(seat.first_block, mine.first_block);
  const auto last = std::min(seat.last_block, mine.last_block);
  if (first >= last) return false;
  const auto it = alive.find(seat.key);
  if (it == alive.end() || it->second.shard_endpoint.empty()) return false;
  out.push_back({seat.key, it->second.shard_endpoint, first, last});
  return true;
}

}  // namespace

std::vector<ShardSource> shard_sources(const Assignment& previous, const Assignment& next,
                                       const std::string& key,
                                       const std::map<std::string, Member>& alive) {
  std::vector<ShardSource> out;
  const auto [p, s] = next.find(key);
  if (p < 0) return out;
  const auto& mine = next.pipelines[static_cast<std::size_t>(p)][static_cast<std::size_t>(s)];
  for (const auto& pipeline : previous.pipelines) {
    for (const auto& seat : pipeline) add_overlap(seat, mine, key, alive, out);
  }
  largest_first(out);
  return out;
}

ShardSourceIndex::ShardSourceIndex(const Assignment& previous, const Assignment& next)
    : previous_version_(previous.version),
      next_version_(next.version),
      next_pipelines_(next.pipelines) {
  for (std::size_t p = 0; p < next.pipelines.size(); ++p) {
    for (std::size_t s = 0; s < next.pipelines[p].size(); ++s)
      next_seats_.emplace(next.pipelines[p][s].key, std::pair{int(p), int(s)});
  }
  for (const auto& pipeline : previous.pipelines) {
    for (const auto& seat : pipeline) {
      if (seat.first_block < 0 || seat.last_block <= seat.first_block) continue;
      const auto i = previous_.size();
      previous_.push_back(seat);
      if (holders_.size() < std::size_t(seat.last_block))
        holders_.resize(std::size_t(seat.last_block));
      for (auto b = seat.first_block; b < seat.last_block; ++b)
        holders_[std::size_t(b)].push_back(i);
    }
  }
}

std::pair<int, int> ShardSourceIndex::seat_of(const std::string& key) const {
  const auto it = next_seats_.find(key);
  return it == next_seats_.end() ? std::pair{-1, -1} : it->second;
}

const Seat* ShardSourceIndex::next_seat(const std::string& key) const {
  const auto [p, s] = seat_of(key);
  if (p < 0) return nullptr;
  return &next_pipelines_[std::size_t(p)][std::size_t(s)];
}

std::vector<ShardSource> ShardSourceIndex::sources(const std::string& key,
                                                   const std::map<std::string, Member>& alive,
                                                   std::size_t per_range) const {
  std::vector<ShardSource> out;
  const Seat* mine = next_seat(key);
  if (!mine) return out;
  // The previous seats holding any of its blocks, each once, in plan order (as the scan).
  std::vector<std::size_t> seats;
  const auto end = std::min<std::int64_t>(mine->last_block, std::int64_t(holders_.size()));
  for (auto b = std::max<std::int64_t>(mine->first_block, 0); b < end; ++b) {
    const auto& h = holders_[std::size_t(b)];
    seats.insert(seats.end(), h.begin(), h.end());
  }
  std::sort(seats.begin(), seats.end());
  seats.erase(std::unique(seats.begin(), seats.end()), seats.end());
  std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> in_range;
  for (const auto i : seats) {
    const auto& seat = previous_[i];
    const std::pair range{std::max(seat.first_block, mine->first_block),
                          std::min(seat.last_block, mine->last_block)};
    if (range.first >= range.second) continue;
    auto& n = in_range[range];
    if (n < per_range && add_overlap(seat, *mine, key, alive, out)) ++n;
  }
  largest_first(out);
  return out;
}

}  // namespace rookery::coordinator
