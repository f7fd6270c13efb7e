#pragma once
// Signed work: every stage signs what it sends another stage, activations forward and
// gradients back, with its CURVE identity (reduce/identity_signature.hpp, XEdDSA), over a
// BLAKE2b digest of which way it goes, the job, the pipeline, the micro-batch, the receiver's
// key and every tensor exactly as it travels (name, dtype, codec, shape, bytes). The receiver
// refuses work without a valid signature, and keeps the signed tensors while it may be asked
// for them: a forward while its micro-batch is in flight, a gradient for the stage's last few
// backwards. When its own work is spot-checked, it shows what it computed from as it came:
// the checker verifies the signature under the key of the stage that sent it (which must hold
// the blocks next to the checked stage's, on that side) and starts the verifiers from those
// very bytes. So what the checked stage says it computed from is provably what its neighbour
// sent; neither can change it afterwards, and no witness has to be asked (a witness that lied
// about what it sent would have had an honest stage caught).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "net/identity.hpp"
#include "wire/message.hpp"

namespace rookery::pipeline {

// Who work is from and to, as its signature binds them.
struct WorkParty {
  std::string job_id;
  std::uint32_t pipeline = 0;
  std::uint64_t micro_batch = 0;
  std::string to;         // the receiver's key (Z85)
  bool gradient = false;  // a gradient back; otherwise activations forward
};

// Received work as its sender signed it: the tensors as they travelled (copied out of the
// message, in its order), the signature and the signer.
struct SignedWork {
  std::string from;  // the sender's key (Z85)
  std::uint32_t pipeline = 0;
  std::vector<wire::OutgoingTensor> tensors;
  std::string signature;  // kWorkSignatureBytes
};

inline constexpr std::size_t kWorkSignatureBytes = 96;  // Edwards key and (R, s)

// The signature of `party` and `tensors` by `signer`.
std::string sign_work(const net::CurveKeyPair& signer, const WorkParty& party,
                      std::span<const wire::OutgoingTensor> tensors);

// Whether `signature` is `from`'s over `party` and `tensors`. False for a malformed signature
// or key.
bool work_signed_by(const std::string& from, const std::string& signature, const WorkParty& party,
                    std::span<const wire::IncomingTensor> tensors);

// A copy of a received message's tensors, to show again later exactly as they came.
std::vector<wire::OutgoingTensor> copy_tensors(std::span<const wire::IncomingTensor> tensors);

}  // namespace rookery::pipeline
