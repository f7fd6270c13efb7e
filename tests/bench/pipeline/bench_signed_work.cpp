// What signing work costs (pipeline/signed_work.hpp): a stage signs every forward and every
// gradient it sends and its receiver verifies the signature, so that what a checked stage
// computed from is provable. Measured side by side in one run, per message, on one
// micro-batch of a GPT's boundary (samples x context x width, fp32 before the codec): its
// activations forward with the targets, and its gradient back:
//   - the sender: encode_forward / encode_backward unsigned, and signed (BLAKE2b over every
//     byte, one XEdDSA signature);
//   - the receiver: decode_pipeline_message without verifying, and verifying (the same digest,
//     one signature check, and a copy of the tensors kept to show when checked).
// It prints the median milliseconds of each and the ratios signed / unsigned. The hashing
// runs on the link's threads, beside the compute thread, not in it.
// Measured here (2 cores, one thread each) for the 350M GPT's boundary (4 x 1024 x 1024):
// see the notes of the changes that added forwards and gradients.
//
//   bench_signed_work [--samples N] [--context T] [--width D] [--repeats R]
//       N: 4; T: 1024; D: 1024 (GPT-350M); R: 20.
#include <torch/torch.h>

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "bench_args.hpp"
#include "net/identity.hpp"
#include "pipeline/stage_messages.hpp"

using namespace rookery;

namespace {

// The median of `repeats` timings of `run`, each after an untimed `prepare`.
double median_ms(int repeats, const std::function<void()>& prepare,
                 const std::function<void()>& run) {
  std::vector<double> ms;
  for (int i = 0; i < repeats; ++i) {
    prepare();
    const auto start = std::chrono::steady_clock::now();
    run();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

std::vector<zmq::message_t> copy_of(const std::vector<zmq::message_t>& frames) {
  std::vector<zmq::message_t> out;
  for (const auto& f : frames) out.emplace_back(f.data(), f.size());
  return out;
}

wire::Message decoded(std::vector<zmq::message_t> frames) {
  auto r = wire::decode(std::move(frames));
  if (!r) throw std::runtime_error(r.error().what);
  return std::move(r.message());
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  const auto args = app.arguments();
  const int samples = bench::arg(args, "--samples", "4").toInt();
  const int context = bench::arg(args, "--context", "1024").toInt();
  const int width = bench::arg(args, "--width", "1024").toInt();
  const int repeats = std::max(1, bench::arg(args, "--repeats", "20").toInt());
  torch::set_num_threads(1);
  const auto sender = net::CurveKeyPair::generate();
  const auto receiver = net::CurveKeyPair::generate();
  const auto x = torch::randn({samples, context, width});
  const auto targets = torch::randint(0, 256, {samples, context}, torch::kInt64);
  const pipeline::ForwardRecord record{
      0, 7, 0, samples, {"tcp://127.0.0.1:5555", sender.public_key}};
  pipeline::MessageRules plain{"bench", 0, false, false, false, {}, {}};
  auto verifying = plain;
  verifying.own_key = receiver.public_key;
  std::printf("one micro-batch of %d x %d x %d, median of %d\n", samples, context, width, repeats);
  std::printf("%-9s %-6s %8s %10s %10s %8s %12s %10s %8s\n", "work", "codec", "MB", "send ms",
              "signed", "ratio", "receive ms", "verified", "ratio");
  for (const bool gradient : {false, true}) {
    for (const auto codec : {wire::Codec::None, wire::Codec::Int8Block}) {
      const auto encode = [&](const net::CurveKeyPair* signer) {
        if (gradient) {
          return pipeline::encode_backward("bench", {0, 7, samples, 1.0}, x, codec, {}, signer,
                                           receiver.public_key);
        }
        return pipeline::encode_forward("bench", record, x, targets, codec, {}, signer,
                                        receiver.public_key);
      };
      const auto unsigned_frames = encode(nullptr);
      const auto signed_frames = encode(&sender);
      double bytes = 0;
      for (const auto& f : unsigned_frames) bytes += static_cast<double>(f.size());
      const auto nothing = [] {};
      const double send = median_ms(repeats, nothing, [&] { encode(nullptr); });
      const double send_signed = median_ms(repeats, nothing, [&] { encode(&sender); });
      std::vector<zmq::message_t> frames;
      const double receive = median_ms(
          repeats, [&] { frames = copy_of(unsigned_frames); },
          [&] {
            pipeline::decode_pipeline_message(decoded(std::move(frames)), sender.public_key, plain,
                                              torch::kCPU);
          });
      const double receive_verified = median_ms(
          repeats, [&] { frames = copy_of(signed_frames); },
          [&] {
            const auto in = pipeline::decode_pipeline_message(
                decoded(std::move(frames)), sender.public_key, verifying, torch::kCPU);
            if (!in.signed_by_sender) throw std::runtime_error("verified work kept nothing");
          });
      std::printf("%-9s %-6s %8.2f %10.2f %10.2f %8.3f %12.2f %10.2f %8.3f\n",
                  gradient ? "gradient" : "forward", codec == wire::Codec::None ? "fp32" : "int8",
                  bytes / 1e6, send, send_signed, send_signed / send, receive, receive_verified,
                  receive_verified / receive);
    }
  }
  return 0;
}
