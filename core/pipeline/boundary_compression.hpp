#pragma once
// Low-rank compression of what crosses a stage boundary (the job's "boundary" setting): a
// GPT micro-batch's activation, or its gradient, [samples, tokens, width], viewed as
// X [samples * tokens, width], travels as two int8 factors P [samples * tokens, rank] and
// Q [rank, width] with X ~ P Q, instead of the whole tensor through the job's codec.
//
// Only the sender factorises (randomized subspace iteration, a fixed seed so that a run is
// reproducible); the receiver multiplies. P has orthonormal columns, so its values share one
// scale and int8 blocks of any rows suit it; Q carries the singular values, one per row, so
// its int8 blocks are its rows. Pure conversions, no sockets, like stage_messages.
//
// The receiver trains on the approximation. Spot-checks compare what crossed a compressed
// boundary with the same compression of exact recomputations (as_received): the factorisation
// is a fixed function of its input, so an honest sender's tensor and a verifier's compress
// alike, and a liar's does not.
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <cstdint>
#include <string>
#include <vector>

#include "wire/message.hpp"

namespace rookery::job {
struct JobSpec;
}

namespace rookery::pipeline {

// What a stage's boundary tensors look like when they travel compressed; rank 0: they do not.
struct BoundaryShape {
  std::int64_t rank = 0;
  std::int64_t tokens = 0;  // per sample (the model's context)
  std::int64_t width = 0;
  bool compressed() const { return rank > 0; }
};

// The job's boundary setting as stages apply it (rank 0 when it is off).
BoundaryShape boundary_shape(const job::JobSpec& job);

// X ~ p q: p [rows, rank] with orthonormal columns (zero columns past X's own rank), q
// [rank, width]. `x` is any f32 tensor whose last dimension is the width; the factors are on
// its device. Non-finite values in `x` give non-finite factors, which receivers refuse.
struct LowRankFactors {
  at::Tensor p;
  at::Tensor q;
};
LowRankFactors factorize(const at::Tensor& x, std::int64_t rank);
// p q, shaped `shape`.
at::Tensor reconstruct(const LowRankFactors& f, at::IntArrayRef shape);

// What a receiver of `x` reconstructs from its factors, less the int8 rounding of their values:
// reconstruct(factorize(x)), with x's shape and dtype; `x` itself when `shape` is not
// compressed or `x` is undefined. For spot-checks, which recompute exactly what a sender sent
// compressed.
at::Tensor as_received(const at::Tensor& x, const BoundaryShape& shape);

// The two wire tensors "<name>.p" and "<name>.q" for `x` ([samples, tokens, width]).
// Throws std::invalid_argument when x's shape does not fit `shape`.
std::vector<wire::OutgoingTensor> encode_factors(const std::string& name, const at::Tensor& x,
                                                 const BoundaryShape& shape);

// The [samples, tokens, width] f32 tensor that `msg`'s "<name>.p" and "<name>.q" hold, on
// `device`. Throws std::runtime_error saying why for missing factors, any name, dtype, codec,
// block size or shape other than encode_factors' for these samples, or non-finite values.
at::Tensor decode_factors(const wire::Message& msg, const std::string& name, std::int64_t samples,
                          const BoundaryShape& shape, c10::Device device);

// Bytes on the wire of the factors for `samples` samples (payload only, no header).
std::int64_t factor_bytes(const BoundaryShape& shape, std::int64_t samples);

}  // namespace rookery::pipeline
