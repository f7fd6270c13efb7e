#pragma once
// Members of rings inside one process, for exact and fast tests of the algorithm: a send
// hands the segment (zero-copy, its owner travels with it) to the receiver's mailbox.
// A member can be cut off to play a peer that died mid-round.
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>

#include "reduce/transport.hpp"

namespace rookery::reduce {

class LocalTransport;

class LocalFabric {
 public:
  // A member's transport; the fabric owns it and it lives as long as the fabric.
  LocalTransport& join(const std::string& id);
  // A member named by its CURVE public key, holding the pair as its identity (as ZmqTransport).
  LocalTransport& join(const net::CurveKeyPair& identity);
  // From now on nothing `id` sends is delivered, and nothing is delivered to it.
  void cut_off(const std::string& id);
  // Delivers `sends` more of `id`'s segments, then cuts it off (dies mid-round).
  void cut_off_after(const std::string& id, std::uint64_t sends);
  std::uint64_t delivered() const;

 private:
  friend class LocalTransport;
  void route(const std::string& from, const std::string& to, OutgoingSegment segment);

  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::unique_ptr<LocalTransport>> members_;
  std::set<std::string> cut_off_;
  std::unordered_map<std::string, std::uint64_t> sends_left_;
  std::uint64_t delivered_ = 0;
};

class LocalTransport final : public Transport {
 public:
  LocalTransport(LocalFabric& fabric, std::string id) : fabric_(fabric), id_(std::move(id)) {}
  LocalTransport(LocalFabric& fabric, net::CurveKeyPair identity)
      : fabric_(fabric), id_(identity.public_key), identity_(std::move(identity)) {}
  const std::string& self() const override { return id_; }
  const net::CurveKeyPair* identity() const override {
    return identity_.public_key.empty() ? nullptr : &identity_;
  }
  void send(const std::string& to, OutgoingSegment segment) override;

 private:
  LocalFabric& fabric_;
  std::string id_;
  net::CurveKeyPair identity_;  // empty: none
};

}  // namespace rookery::reduce
