#pragma once
// The job's dataset as the coordinator publishes it (dataset delivery): a manifest of hashed
// chunks sent with every admitted join, and the chunks served to members at the owner's upload
// cap (over it, volunteers fetch from their peers meanwhile).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "job/job_spec.hpp"
#include "net/rpc.hpp"
#include "net/token_bucket.hpp"
#include "rookery/envelope.pb.h"

namespace rookery::coordinator {

struct PublishedDataset {
  std::shared_ptr<const std::string> manifest_bytes;  // serialized pb::DatasetManifest, as sent
  wire::pb::DatasetManifest manifest;
  std::string digest;                        // SHA-256 of manifest_bytes (32 bytes)
  std::vector<std::filesystem::path> files;  // where each file of the manifest is here
  std::uint64_t bytes = 0;                   // all of them

  // Hashes every chunk of `spec`'s files; throws what reading them throws.
  static PublishedDataset publish(const job::DatasetSpec& spec);
};

class DatasetServer {
 public:
  // `bytes_per_s` 0: no cap.
  DatasetServer(PublishedDataset dataset, std::uint64_t bytes_per_s);

  const std::string& digest() const { return dataset_.digest; }
  // The manifest, as a join's reply carries it.
  wire::OutgoingTensor manifest_tensor() const;
  std::uint64_t bytes() const { return dataset_.bytes; }
  // One chunk, for a member (the caller checks membership); an error reply otherwise.
  void serve(const wire::pb::DataChunkRequest& q, net::Reply& reply);

 private:
  PublishedDataset dataset_;
  net::TokenBucket upload_;  // the owner's cap on serving the dataset
};

}  // namespace rookery::coordinator
