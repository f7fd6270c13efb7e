#pragma once
// Signed forwards: every stage signs the activations it sends forward, with its CURVE identity
// (reduce/identity_signature.hpp, XEdDSA), over a BLAKE2b digest of the job, the micro-batch,
// the receiver's key and every tensor exactly as it travels (name, dtype, codec, shape, bytes).
// The receiver refuses a forward without a valid signature and keeps the signed tensors while
// the micro-batch is in flight. When its own activations are spot-checked, it shows them: the
// checker verifies the signature under the sender's key and starts the verifiers from those
// very bytes. So what the checked stage says it computed from is provably what the stage
// before it sent; neither can change it afterwards, and no witness has to be asked (a witness
// that lied about what it sent would have had an honest stage caught).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "net/identity.hpp"
#include "wire/message.hpp"

namespace rookery::pipeline {

// Who a forward is from and to, as its signature binds them.
struct ForwardParty {
  std::string job_id;
  std::uint32_t pipeline = 0;
  std::uint64_t micro_batch = 0;
  std::string to;  // the receiver's key (Z85)
};

// A received forward as its sender signed it: the tensors as they travelled (copied out of the
// message, in its order), the signature and the signer.
struct SignedForward {
  std::string from;  // the sender's key (Z85)
  std::uint32_t pipeline = 0;
  std::vector<wire::OutgoingTensor> tensors;
  std::string signature;  // kForwardSignatureBytes
};

inline constexpr std::size_t kForwardSignatureBytes = 96;  // Edwards key and (R, s)

// The signature of `party` and `tensors` by `signer`.
std::string sign_forward(const net::CurveKeyPair& signer, const ForwardParty& party,
                         std::span<const wire::OutgoingTensor> tensors);

// Whether `signature` is `from`'s over `party` and `tensors`. False for a malformed signature
// or key.
bool forward_signed_by(const std::string& from, const std::string& signature,
                       const ForwardParty& party, std::span<const wire::IncomingTensor> tensors);

// A copy of a received message's tensors, to show again later exactly as they came.
std::vector<wire::OutgoingTensor> copy_tensors(std::span<const wire::IncomingTensor> tensors);

}  // namespace rookery::pipeline
