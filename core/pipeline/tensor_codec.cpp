#include <torch/torch.h>

#include "pipeline/tensor_codec.hpp"

#include <cstring>

namespace rookery::pipeline {

namespace {
wire::Payload payload_of(const at::Tensor& cpu_contiguous) {
  auto owner = std::make_shared<at::Tensor>(cpu_contiguous);
  wire::Payload p;
  p.data = owner->data_ptr();
  p.size = static_cast<std::size_t>(owner->nbytes());
  p.owner = std::shared_ptr<const void>(owner, owner.get());
  return p;
}

std::vector<std::int64_t> shape_of(const at::Tensor& t) {
  return {t.sizes().begin(), t.sizes().end()};
}

// int8 blockwise: [scales (f32) | values (int8)], the layout of wire::encode_f32.
at::Tensor encode_int8(const at::Tensor& flat, std::uint32_t block) {
  const auto n = flat.numel();
  const auto blocks = (n + block - 1) / block;
  auto padded = torch::zeros({blocks * static_cast<std::int64_t>(block)}, flat.options());
  padded.narrow(0, 0, n).copy_(flat);
  auto view = padded.view({blocks, static_cast<std::int64_t>(block)});
  auto absmax = view.abs().amax(1);
  auto finite = torch::isfinite(view).all(1);
  auto scale = torch::where(finite, absmax / 127.f,
                            torch::full_like(absmax, std::numeric_limits<float>::quiet_NaN()));
  auto inv = torch::where(finite & (absmax > 0), 127.f / absmax, torch::zeros_like(absmax));
  auto q = torch::round(view * inv.unsqueeze(1)).clamp(-127, 127);
  q = torch::where(finite.unsqueeze(1), q, torch::zeros_like(q))
          .to(torch::kInt8)
          .view({-1})
          .narrow(0, 0, n);
  auto out = torch::empty({blocks * 4 + n}, flat.options().dtype(torch::kUInt8));
  out.narrow(0, 0, blocks * 4).copy_(scale.contiguous().view(torch::kUInt8));
  out.narrow(0, blocks * 4, n).copy_(q.view(torch::kUInt8));
  return out;
}

at::Tensor decode_int8(const at::Tensor& bytes, std::int64_t n, std::uint32_t block) {
  const auto blocks = (n + block - 1) / block;
  auto scale = bytes.narrow(0, 0, blocks * 4).view(torch::kFloat32);
  auto q = bytes.narrow(0, blocks * 4, n).view(torch::kInt8).to(torch::kFloat32);
  auto padded = torch::zeros({blocks * static_cast<std::int64_t>(block)}, q.options());
  padded.narrow(0, 0, n).copy_(q);
  return (padded.view({blocks, static_cast<std::int64_t>(block)}) * scale.unsqueeze(1))
      .view({-1})
      .narrow(0, 0, n);
}
}  // namespace

std::string brief(const std::exception& e) {
  if (const auto* c = dynamic_cast<const c10::Error*>(&e)) return c->what_without_backtrace();
  return e.what();
}

wire::Codec to_wire_codec(int job_codec) {
  switch (job_codec) {
    case 1:
      return wire::Codec::Fp16;
    case 2:
      return wire::Codec::Bf16;
    case 3:
      return wire::Codec::Int8Block;
    default:
      return wire::Codec::None;
  }
}

wire::OutgoingTensor encode_tensor(std::string name, const at::Tensor& t, wire::Codec codec) {
  torch::NoGradGuard no_grad;
  auto x = t.detach();
  if (x.scalar_type() == torch::kInt64) {
    return wire::OutgoingTensor::raw(std::move(name), wire::DType::I64, shape_of(x),
                                     payload_of(x.to(torch::kCPU).contiguous()));
  }
  if (x.scalar_type() != torch::kFloat32)
    throw std::runtime_error("encode_tensor: only f32 and int64 tensors travel");
  wire::OutgoingTensor out;
  out.name = std::move(name);
  out.dtype = wire::DType::F32;
  out.shape = shape_of(x);
  out.codec = codec;
  at::Tensor encoded;
  switch (codec) {
    case wire::Codec::None:
      encoded = x.contiguous();
      break;
    case wire::Codec::Fp16:
      encoded = x.to(torch::kHalf).contiguous();
      break;
    case wire::Codec::Bf16:
      encoded = x.to(torch::kBFloat16).contiguous();
      break;
    case wire::Codec::Int8Block:
      encoded = encode_int8(x.contiguous().view({-1}), out.block_size);
      break;
  }
  out.bytes = payload_of(encoded.to(torch::kCPU).contiguous());
  return out;
}

at::Tensor decode_tensor(const wire::IncomingTensor& t, c10::Device device) {
  torch::NoGradGuard no_grad;
  const auto bytes = t.bytes();
  auto raw = torch::empty({static_cast<std::int64_t>(bytes.size())}, torch::kUInt8);
  if (!bytes.empty()) std::memcpy(raw.data_ptr(), bytes.data(), bytes.size());
  std::vector<std::int64_t> shape(t.shape().begin(), t.shape().end());
  if (t.dtype() == wire::DType::I64) return raw.view(torch::kInt64).view(shape).to(device);
  if (t.dtype() != wire::DType::F32) {
    throw std::runtime_error("tensor '" + t.name() + "' has dtype " +
                             std::string(wire::dtype_name(t.dtype())) +
                             "; stages take f32 activations and int64 ids");
  }
  raw = raw.to(device);
  at::Tensor values;
  switch (t.codec()) {
    case wire::Codec::None:
      values = raw.view(torch::kFloat32);
      break;
    case wire::Codec::Fp16:
      values = raw.view(torch::kHalf).to(torch::kFloat32);
      break;
    case wire::Codec::Bf16:
      values = raw.view(torch::kBFloat16).to(torch::kFloat32);
      break;
    case wire::Codec::Int8Block:
      values = decode_int8(raw, t.numel(), t.block_size());
      break;
  }
  return values.view(shape);
}

}  // namespace rookery::pipeline
