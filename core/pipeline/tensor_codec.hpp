#pragma once
// Activations and gradients on the wire: at::Tensor <-> wire tensors with the job's codec.
// Encoding runs as LibTorch ops on the tensor's own device (the GPU when training there)
// and produces exactly the bytes of the CPU reference codecs in core/wire.
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <exception>
#include <string>

#include "wire/message.hpp"

namespace rookery::pipeline {

// f32 tensors are encoded with `codec`; int64 (token ids, targets) go raw. Zero-copy for
// raw CPU tensors: the frame refers to the tensor's memory and keeps it alive.
wire::OutgoingTensor encode_tensor(std::string name, const at::Tensor& t, wire::Codec codec);

// Decodes into a new f32 (or int64) tensor on `device`. Throws std::runtime_error with the
// reason when the tensor is not what a stage can take (dtype).
at::Tensor decode_tensor(const wire::IncomingTensor& t, c10::Device device);

// An exception's message without LibTorch's backtrace.
std::string brief(const std::exception& e);

wire::Codec to_wire_codec(int job_codec);  // job::Codec as int, kept torch- and job-free here

}  // namespace rookery::pipeline
