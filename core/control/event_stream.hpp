#pragma once
// Events from the node carry sequence numbers that rise by exactly one. EventStream checks
// that and tells its owner when it has missed some (a slow client, a reconnect), so the
// owner can take a fresh snapshot instead of trusting a partial history.
#include <cstdint>
#include <optional>

namespace rookery::control {

class EventStream {
 public:
  struct Gap {
    std::uint64_t expected;  // the seq we should have seen
    std::uint64_t received;  // the seq that arrived
  };

  // Records an event's seq. Returns the gap if events were missed since the last one.
  std::optional<Gap> accept(std::uint64_t seq);
  // After a fresh snapshot: events up to and including `snapshot_seq` are covered by it.
  void resync(std::uint64_t snapshot_seq);

  std::uint64_t last_seq() const { return last_; }
  std::uint64_t gaps() const { return gaps_; }
  std::uint64_t restarts() const { return restarts_; }
  bool synced() const { return synced_; }

 private:
  std::uint64_t last_ = 0;
  std::uint64_t gaps_ = 0;
  std::uint64_t restarts_ = 0;
  bool synced_ = false;
};

}  // namespace rookery::control
