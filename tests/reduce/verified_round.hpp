#pragma once
// One verified ring round among `n` members on the in-process transport, each on its own
// thread, with seeded inputs and weights; `liar` (if any) runs `fault`. With `identities`, the
// members are CURVE key pairs (their commitments bound to them, as between real nodes); else
// plain names. `aggregator`: every member's (null: WeightedMean).
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "net/identity.hpp"
#include "reduce/local_transport.hpp"
#include "reduce/ring_all_reduce.hpp"
#include "reduce_test_support.hpp"

namespace rookery::reduce::testing {

struct Run {
  std::vector<std::vector<float>> inputs, outputs;
  std::vector<double> weights;
  std::vector<RingOutcome> outcomes;
};

inline Run verified_round(int n, std::size_t count, wire::Codec codec, bool in_place, int liar = -1,
                          RingOptions::Fault fault = RingOptions::Fault::lying_owner,
                          bool identities = false,
                          std::shared_ptr<const Aggregator> aggregator = {}) {
  LocalFabric fabric;
  std::vector<std::string> ids;
  Run run;
  for (int m = 0; m < n; ++m) {
    if (identities) {
      ids.push_back(fabric.join(net::CurveKeyPair::generate()).self());
    } else {
      ids.push_back("member-" + std::to_string(m));
      fabric.join(ids.back());
    }
    run.inputs.push_back(testing::member_values(count, std::uint32_t(m)));
    run.weights.push_back(10 + 37 * m);
  }
  run.outputs = in_place ? run.inputs
                         : std::vector<std::vector<float>>(
                               std::size_t(n),
                               std::vector<float>(count, std::numeric_limits<float>::quiet_NaN()));
  run.outcomes.resize(std::size_t(n));
  std::vector<std::thread> threads;
  for (int m = 0; m < n; ++m) {
    threads.emplace_back([&, m] {
      RingOptions o;
      o.codec = codec;
      o.verify = true;
      o.segment_values = 4096;
      o.timeout = std::chrono::milliseconds(2000);
      o.aggregator = aggregator;  // null: WeightedMean
      if (m == liar) o.fault = fault;
      RingAllReduce ring(fabric.join(ids[std::size_t(m)]), o);
      const RingSpec spec{ring_key("params", 0, count), ids};
      const auto i = std::size_t(m);
      auto shared = std::make_shared<std::vector<float>>(run.inputs[i]);
      run.outcomes[i] = in_place ? ring.run(spec, 1, run.outputs[i], run.weights[i])
                                 : ring.run(spec, 1, SharedValues{*shared, shared}, run.outputs[i],
                                            run.weights[i]);
    });
  }
  for (auto& t : threads) t.join();
  return run;
}
}  // namespace rookery::reduce::testing
