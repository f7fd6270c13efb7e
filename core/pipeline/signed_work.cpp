#include "pipeline/signed_work.hpp"

#include <cstring>
#include <stdexcept>

#include <sodium.h>

#include "reduce/identity_signature.hpp"

namespace rookery::pipeline {

namespace {

// Which way the work went: a forward's signature is never a gradient's.
constexpr char kForwardDomain[] = "rookery/signed-forward/1";
constexpr char kGradientDomain[] = "rookery/signed-gradient/1";

// One tensor as the digest sees it, whichever side of the wire it is on.
struct TensorView {
  const std::string& name;
  wire::DType dtype;
  wire::Codec codec;
  std::uint32_t block_size;  // only for the blockwise codec, where it shapes the bytes
  const std::vector<std::int64_t>& shape;
  std::span<const std::byte> bytes;
};

class Digest {
 public:
  explicit Digest(const WorkParty& p) {
    if (sodium_init() < 0) throw std::runtime_error("libsodium cannot start");
    crypto_generichash_init(&state_, nullptr, 0, 32);
    if (p.gradient) {
      add(std::span(reinterpret_cast<const std::byte*>(kGradientDomain), sizeof kGradientDomain));
    } else {
      add(std::span(reinterpret_cast<const std::byte*>(kForwardDomain), sizeof kForwardDomain));
    }
    add_string(p.job_id);
    add_value(p.pipeline);
    add_value(p.micro_batch);
    add_string(p.to);
  }
  void add(const TensorView& t) {
    add_string(t.name);
    add_value(static_cast<std::uint8_t>(t.dtype));
    add_value(static_cast<std::uint8_t>(t.codec));
    add_value(t.codec == wire::Codec::Int8Block ? t.block_size : std::uint32_t{0});
    add_value(static_cast<std::uint32_t>(t.shape.size()));
    for (const auto d : t.shape) add_value(d);
    add_value(static_cast<std::uint64_t>(t.bytes.size()));
    add(t.bytes);
  }
  std::array<std::byte, 32> finish() {
    std::array<std::byte, 32> out{};
    crypto_generichash_final(&state_, reinterpret_cast<unsigned char*>(out.data()), out.size());
    return out;
  }

 private:
  void add(std::span<const std::byte> b) {
    crypto_generichash_update(&state_, reinterpret_cast<const unsigned char*>(b.data()), b.size());
  }
  template <class T>
  void add_value(T v) {
    add(std::span(reinterpret_cast<const std::byte*>(&v), sizeof v));
  }
  void add_string(const std::string& s) {
    add_value(static_cast<std::uint32_t>(s.size()));
    add(std::span(reinterpret_cast<const std::byte*>(s.data()), s.size()));
  }
  crypto_generichash_state state_{};
};

std::string to_string(const reduce::IdentitySignature& s) {
  std::string out(kWorkSignatureBytes, '\0');
  std::memcpy(out.data(), s.edwards.data(), s.edwards.size());
  std::memcpy(out.data() + s.edwards.size(), s.signature.data(), s.signature.size());
  return out;
}

}  // namespace

std::string sign_work(const net::CurveKeyPair& signer, const WorkParty& party,
                      std::span<const wire::OutgoingTensor> tensors) {
  Digest d(party);
  for (const auto& t : tensors) {
    d.add({t.name,
           t.dtype,
           t.codec,
           t.block_size,
           t.shape,
           {static_cast<const std::byte*>(t.bytes.data), t.bytes.size}});
  }
  const auto digest = d.finish();
  return to_string(reduce::identity_sign(signer.secret_key, digest));
}

bool work_signed_by(const std::string& from, const std::string& signature, const WorkParty& party,
                    std::span<const wire::IncomingTensor> tensors) {
  if (signature.size() != kWorkSignatureBytes) return false;
  reduce::IdentitySignature s;
  std::memcpy(s.edwards.data(), signature.data(), s.edwards.size());
  std::memcpy(s.signature.data(), signature.data() + s.edwards.size(), s.signature.size());
  Digest d(party);
  for (const auto& t : tensors)
    d.add({t.name(), t.dtype(), t.codec(), t.block_size(), t.shape(), t.bytes()});
  const auto digest = d.finish();
  return reduce::identity_signature_valid(from, digest, s);
}

std::vector<wire::OutgoingTensor> copy_tensors(std::span<const wire::IncomingTensor> tensors) {
  std::vector<wire::OutgoingTensor> out;
  out.reserve(tensors.size());
  for (const auto& t : tensors) {
    wire::OutgoingTensor o;
    o.name = t.name();
    o.dtype = t.dtype();
    o.shape = t.shape();
    o.codec = t.codec();
    o.block_size = t.block_size();
    o.bytes = wire::Payload::copy_of(t.bytes());
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace rookery::pipeline
