#include "coordinator/dataset_server.hpp"

#include <chrono>
#include <span>

#include <spdlog/spdlog.h>

#include "data/dataset.hpp"
#include "data/dataset_delivery.hpp"

namespace rookery::coordinator {

PublishedDataset PublishedDataset::publish(const job::DatasetSpec& spec) {
  PublishedDataset d;
  const auto started = std::chrono::steady_clock::now();
  d.manifest = data::build_manifest(spec);
  d.manifest_bytes = std::make_shared<const std::string>(d.manifest.SerializeAsString());
  d.digest = std::string(data::as_bytes(data::sha256(*d.manifest_bytes)));
  d.files = data::manifest_sources(spec, d.manifest);
  for (const auto& f : d.manifest.files()) d.bytes += f.size();
  spdlog::info("publishing the dataset: {} file(s), {:.1f} MB, digest {} (hashed in {:.1f} s)",
               d.manifest.files_size(), double(d.bytes) / 1e6,
               data::to_hex(std::span(reinterpret_cast<const std::uint8_t*>(d.digest.data()), 8)),
               std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return d;
}

DatasetServer::DatasetServer(PublishedDataset dataset, std::uint64_t bytes_per_s)
    : dataset_(std::move(dataset)), upload_(bytes_per_s) {}

wire::OutgoingTensor DatasetServer::manifest_tensor() const {
  const auto& m = dataset_.manifest_bytes;
  return wire::OutgoingTensor::raw("dataset_manifest", wire::DType::U8,
                                   {static_cast<std::int64_t>(m->size())},
                                   wire::Payload{m->data(), m->size(), m});
}

void DatasetServer::serve(const wire::pb::DataChunkRequest& q, net::Reply& reply) {
  if (q.dataset_digest() != dataset_.digest || q.file() >= dataset_.files.size()) {
    reply.header.mutable_error()->set_message("this coordinator publishes no such dataset file");
    return;
  }
  // Over its owner's cap the coordinator answers at once, and the volunteer's peers serve
  // meanwhile: this thread answers heartbeats too, so it never waits for the bucket.
  if (!upload_.try_acquire(dataset_.manifest.chunk_bytes())) {
    reply.header.mutable_error()->set_message(
        "busy: the coordinator serves the dataset at its owner's rate cap");
    return;
  }
  try {
    auto bytes = data::read_chunk(dataset_.files[q.file()], dataset_.manifest, q.file(), q.chunk());
    const auto size = static_cast<std::int64_t>(bytes.size());
    reply.header.mutable_data_chunk_reply()->set_file(q.file());
    reply.header.mutable_data_chunk_reply()->set_chunk(q.chunk());
    reply.tensors.push_back(wire::OutgoingTensor::raw("chunk", wire::DType::U8, {size},
                                                      wire::Payload::own(std::move(bytes))));
  } catch (const data::DatasetError& e) {
    // The owner's file changed under the running job (or vanished): the volunteer's hash
    // check would refuse what we sent anyway.
    spdlog::error("cannot serve the dataset: {}", e.what());
    reply.header.mutable_error()->set_message("the coordinator cannot read its dataset now");
  }
}

}  // namespace rookery::coordinator
