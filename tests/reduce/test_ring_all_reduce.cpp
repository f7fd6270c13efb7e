// Ring all-reduce on the in-process transport: exactness against a direct computation for
// 2-5 members, uneven sizes, fp32 and every codec; the aggregation hook; members that die
// or straggle mid-round; the mailbox keeping early segments and refusing late ones. Each
// round runs both ways: in place, and out of place (as the Averager runs it) into an output
// filled with NaN beforehand, so a value the round failed to write shows.
#include <QtTest/QtTest>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "reduce/local_transport.hpp"
#include "reduce/ring_all_reduce.hpp"
#include "reduce_test_support.hpp"

using namespace rookery;
using namespace rookery::reduce;
using namespace std::chrono_literals;

namespace {

std::vector<std::string> member_ids(int n) {
  std::vector<std::string> ids;
  for (int i = 0; i < n; ++i) ids.push_back("member-" + std::to_string(i));
  return ids;
}

struct RoundRun {
  std::vector<std::vector<float>> inputs;
  std::vector<std::vector<float>> outputs;
  std::vector<RingOutcome> outcomes;
  std::vector<double> weights;
};

enum class Placement { InPlace, OutOfPlace };
// Every placement with the label its test rows carry.
constexpr std::pair<Placement, const char*> kPlacements[] = {{Placement::InPlace, "in"},
                                                             {Placement::OutOfPlace, "out"}};

// Runs one round among `n` members, each on its own thread. `before(fabric)` may inject faults;
// `delay[m]` holds member m back before it starts. Out of place, the inputs must come out
// untouched and the outputs start as NaN.
RoundRun run_round(int n, std::size_t count, RingOptions options,
                   const std::function<void(LocalFabric&)>& before = {},
                   std::vector<std::chrono::milliseconds> delay = {},
                   Placement placement = Placement::InPlace) {
  LocalFabric fabric;
  const auto ids = member_ids(n);
  RoundRun run;
  for (int m = 0; m < n; ++m) {
    run.inputs.push_back(testing::member_values(count, std::uint32_t(m)));
    run.weights.push_back(double(10 + 37 * m));  // samples: unequal on purpose
    fabric.join(ids[std::size_t(m)]);
  }
  if (before) before(fabric);
  // Out of place, each member's input is shared (the ring sends it without a copy).
  std::vector<std::shared_ptr<std::vector<float>>> shared;
  for (const auto& in : run.inputs) shared.push_back(std::make_shared<std::vector<float>>(in));
  if (placement == Placement::InPlace) {
    run.outputs = run.inputs;
  } else {
    run.outputs.assign(std::size_t(n),
                       std::vector<float>(count, std::numeric_limits<float>::quiet_NaN()));
  }
  run.outcomes.resize(std::size_t(n));
  std::vector<std::thread> threads;
  for (int m = 0; m < n; ++m) {
    threads.emplace_back([&, m] {
      if (std::size_t(m) < delay.size()) std::this_thread::sleep_for(delay[std::size_t(m)]);
      RingAllReduce ring(fabric.join(ids[std::size_t(m)]), options);
      const RingSpec spec{ring_key("params", 0, count), ids};
      const auto i = std::size_t(m);
      run.outcomes[i] = placement == Placement::InPlace
                            ? ring.run(spec, 1, run.outputs[i], run.weights[i])
                            : ring.run(spec, 1, SharedValues{*shared[i], shared[i]}, run.outputs[i],
                                       run.weights[i]);
    });
  }
  for (auto& t : threads) t.join();
  for (std::size_t m = 0; m < shared.size(); ++m) {
    if (*shared[m] != run.inputs[m])
      QTest::qFail("the round wrote to its input", __FILE__, __LINE__);
  }
  return run;
}

bool bit_identical(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Median of each coordinate: an aggregator that is not a weighted mean, so the ring must
// gather raw slices at their owners (the path CenteredClip will take).
class CoordinateMedian final : public Aggregator {
 public:
  std::string_view name() const override { return "median"; }
  void aggregate(std::span<const Contribution> contributions, std::span<float> out) const override {
    std::vector<float> column(contributions.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
      for (std::size_t m = 0; m < contributions.size(); ++m) column[m] = contributions[m].values[i];
      std::nth_element(column.begin(), column.begin() + long(column.size() / 2), column.end());
      out[i] = column[column.size() / 2];
    }
  }
};

// A member whose first hop claims a NaN weight; everything else it sends is honest.
class LyingWeight final : public Transport {
 public:
  explicit LyingWeight(Transport& inner) : inner_(inner) {}
  const std::string& self() const override { return inner_.self(); }
  void send(const std::string& to, OutgoingSegment segment) override {
    if (segment.tag.phase == Phase::ReduceScatter && segment.tag.step == 0) {
      segment.weight = std::numeric_limits<double>::quiet_NaN();
    }
    inner_.send(to, std::move(segment));
  }
  Mailbox& mailbox() override { return inner_.mailbox(); }
  const net::CurveKeyPair* identity() const override { return inner_.identity(); }

 private:
  Transport& inner_;
};

}  // namespace

class TestRingAllReduce : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void exactness_data() {
    QTest::addColumn<int>("members");
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("codec");
    QTest::addColumn<int>("placement");
    for (int n : {2, 3, 4, 5}) {
      for (int count :
           {1, 4, 1001, 65537}) {  // fewer values than members; primes that divide into nothing
        for (auto c :
             {wire::Codec::None, wire::Codec::Fp16, wire::Codec::Bf16, wire::Codec::Int8Block}) {
          for (auto [p, label] : kPlacements) {
            QTest::addRow("n%d-%d-%s-%s", n, count, std::string(wire::codec_name(c)).c_str(), label)
                << n << count << int(c) << int(p);
          }
        }
      }
    }
  }
  void exactness() {
    QFETCH(int, members);
    QFETCH(int, count);
    QFETCH(int, codec);
    QFETCH(int, placement);
    RingOptions options;
    options.codec = static_cast<wire::Codec>(codec);
    options.segment_values = 4096;  // many segments in flight even for small buffers
    options.timeout = 5s;
    const auto run = run_round(members, std::size_t(count), options, {}, {}, Placement(placement));
    const auto expected = testing::weighted_mean(run.inputs, run.weights);
    const auto bounds = testing::error_bounds(run.inputs, run.weights, options.codec);
    double total = 0;
    for (auto w : run.weights) total += w;
    for (int m = 0; m < members; ++m) {
      const auto& out = run.outcomes[std::size_t(m)];
      QCOMPARE(out.contributors, member_ids(members));
      QCOMPARE(out.attempts, 1u);
      QCOMPARE(out.total_weight, total);
      QVERIFY2(bit_identical(run.outputs[std::size_t(m)], run.outputs[0]),
               "members disagree bit-wise");
    }
    double worst = 0;
    for (std::size_t i = 0; i < std::size_t(count); ++i) {
      const double err = std::fabs(double(run.outputs[0][i]) - expected[i]);
      worst = std::max(worst, err / bounds[i]);
      QVERIFY2(err <= bounds[i], qPrintable(QString("i=%1 got %2 expected %3 bound %4")
                                                .arg(i)
                                                .arg(run.outputs[0][i])
                                                .arg(expected[i])
                                                .arg(bounds[i])));
    }
    if (count == 65537 && members == 5) qInfo("worst error / bound: %.3f", worst);
  }

  // The aggregation hook: a non-decomposable aggregator sees every member's raw slice.
  void aggregatorHookGathersRawSlices_data() {
    QTest::addColumn<int>("members");
    QTest::addColumn<int>("placement");
    for (int n : {2, 3, 5}) {
      for (auto [p, label] : kPlacements) QTest::addRow("n%d-%s", n, label) << n << int(p);
    }
  }
  void aggregatorHookGathersRawSlices() {
    QFETCH(int, members);
    QFETCH(int, placement);
    RingOptions options;
    options.aggregator = std::make_shared<CoordinateMedian>();
    options.segment_values = 1000;
    const std::size_t count = 10007;
    const auto run = run_round(members, count, options, {}, {}, Placement(placement));
    for (std::size_t i = 0; i < count; ++i) {
      std::vector<float> column;
      for (const auto& in : run.inputs) column.push_back(in[i]);
      std::sort(column.begin(), column.end());
      QCOMPARE(run.outputs[0][i], column[column.size() / 2]);
    }
    for (const auto& out : run.outputs) QVERIFY(bit_identical(out, run.outputs[0]));
  }

  // A member that dies after sending part of its data: the others abandon the attempt,
  // agree to drop it, and finish with the weighted mean of the rest.
  void deadMemberIsExcluded_data() {
    QTest::addColumn<int>("members");
    QTest::addColumn<int>("victim");
    QTest::addColumn<int>("sends");  // segments the victim delivers before dying
    QTest::addColumn<int>("codec");
    QTest::addColumn<int>("placement");
    for (auto [p, label] : kPlacements) {
      QTest::addRow("3-middle-early-%s", label) << 3 << 1 << 2 << int(wire::Codec::None) << int(p);
      QTest::addRow("4-first-late-%s", label) << 4 << 0 << 9 << int(wire::Codec::None) << int(p);
      QTest::addRow("5-last-mid-int8-%s", label)
          << 5 << 4 << 5 << int(wire::Codec::Int8Block) << int(p);
      QTest::addRow("2-alone-left-%s", label) << 2 << 1 << 1 << int(wire::Codec::None) << int(p);
    }
  }
  void deadMemberIsExcluded() {
    QFETCH(int, members);
    QFETCH(int, victim);
    QFETCH(int, sends);
    QFETCH(int, codec);
    QFETCH(int, placement);
    RingOptions options;
    options.codec = static_cast<wire::Codec>(codec);
    options.segment_values = 500;
    options.timeout = 300ms;
    const auto ids = member_ids(members);
    const auto start = std::chrono::steady_clock::now();
    const auto run = run_round(
        members, 6007, options,
        [&](LocalFabric& f) { f.cut_off_after(ids[std::size_t(victim)], std::uint64_t(sends)); },
        {}, Placement(placement));
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::vector<std::string> survivors;
    std::vector<std::vector<float>> inputs;
    std::vector<double> weights;
    for (int m = 0; m < members; ++m) {
      if (m == victim) continue;
      survivors.push_back(ids[std::size_t(m)]);
      inputs.push_back(run.inputs[std::size_t(m)]);
      weights.push_back(run.weights[std::size_t(m)]);
    }
    const auto expected = testing::weighted_mean(inputs, weights);
    const auto bounds = testing::error_bounds(inputs, weights, options.codec);
    const int first = victim == 0 ? 1 : 0;
    for (int m = 0; m < members; ++m) {
      if (m == victim) continue;
      const auto& out = run.outcomes[std::size_t(m)];
      QCOMPARE(out.contributors,
               survivors.size() > 1 ? survivors : std::vector<std::string>{ids[std::size_t(m)]});
      QVERIFY(out.attempts >= 2 || survivors.size() == 1);
      QVERIFY(bit_identical(run.outputs[std::size_t(m)], run.outputs[std::size_t(first)]));
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
      QVERIFY2(std::fabs(run.outputs[std::size_t(first)][i] - expected[i]) <= bounds[i],
               qPrintable(QString::number(i)));
    }
    // The victim, cut off, ends alone with its own values.
    QCOMPARE(run.outcomes[std::size_t(victim)].contributors,
             std::vector<std::string>{ids[std::size_t(victim)]});
    QVERIFY(bit_identical(run.outputs[std::size_t(victim)], run.inputs[std::size_t(victim)]));
    // One timeout to notice the silence, one to collect the votes, then the retry.
    qInfo("finished in %.2f s with a timeout of 0.3 s", seconds);
    QVERIFY2(seconds < 3 * 0.3 + 1.0, qPrintable(QString::number(seconds)));
  }

  // A member that starts far too late does not hold the others back beyond the timeout.
  // A robust aggregator commits only among a majority of the ring, at least three: with two of
  // four members gone the other two keep their own values (a liar and one honest member alone
  // would make half of every median); with one gone the three commit.
  void robustAggregationNeedsAQuorum_data() {
    QTest::addColumn<int>("gone");
    QTest::newRow("one of four gone") << 1;
    QTest::newRow("two of four gone") << 2;
  }
  void robustAggregationNeedsAQuorum() {
    QFETCH(int, gone);
    RingOptions options;
    options.aggregator = std::make_shared<CoordinateMedian>();
    options.segment_values = 500;
    options.timeout = 300ms;
    const auto ids = member_ids(4);
    const auto run = run_round(4, 3001, options, [&](LocalFabric& f) {
      for (int m = 0; m < gone; ++m) f.cut_off(ids[std::size_t(3 - m)]);
    });
    for (int m = 0; m < 4 - gone; ++m) {
      const auto& out = run.outcomes[std::size_t(m)];
      if (gone == 1) {
        QCOMPARE(out.contributors.size(), std::size_t(3));
      } else {
        QCOMPARE(out.contributors, std::vector<std::string>{ids[std::size_t(m)]});
        QVERIFY(bit_identical(run.outputs[std::size_t(m)], run.inputs[std::size_t(m)]));
      }
    }
  }

  void stragglerCostsAtMostTheTimeout_data() {
    QTest::addColumn<int>("placement");
    for (auto [p, label] : kPlacements) QTest::addRow("%s", label) << int(p);
  }
  void stragglerCostsAtMostTheTimeout() {
    QFETCH(int, placement);
    RingOptions options;
    options.timeout = 300ms;
    const auto run = run_round(3, 5000, options, {}, {0ms, 0ms, 1500ms}, Placement(placement));
    const auto ids = member_ids(3);
    QCOMPARE(run.outcomes[0].contributors, (std::vector<std::string>{ids[0], ids[1]}));
    QCOMPARE(run.outcomes[1].contributors, (std::vector<std::string>{ids[0], ids[1]}));
    QVERIFY(run.outcomes[0].seconds < 2 * 0.3 + 0.5);
    // The straggler finds nobody and keeps its own values.
    QCOMPARE(run.outcomes[2].contributors, std::vector<std::string>{ids[2]});
    QVERIFY(bit_identical(run.outputs[2], run.inputs[2]));
  }

  // Out of place, the input needs its owner, and the output must be as long as the input and
  // apart from it.
  void outOfPlaceChecksItsBuffers() {
    LocalFabric fabric;
    RingAllReduce ring(fabric.join("member-0"), RingOptions{});
    const RingSpec spec{ring_key("params", 0, 8), {"member-0"}};
    auto buffer = std::make_shared<std::vector<float>>(16, 1.0f);
    std::span<float> all(*buffer);
    const auto input = [&](std::size_t first) {
      return SharedValues{all.subspan(first, 8), buffer};
    };
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             ring.run(spec, 1, input(0), all.subspan(8, 7), 1.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             ring.run(spec, 1, input(0), all.subspan(4, 8), 1.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ring.run(spec, 1, input(4), all.first(8), 1.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ring.run(spec, 1, input(0), all.first(8), 1.0));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        ring.run(spec, 1, SharedValues{all.first(8), nullptr}, all.subspan(8, 8), 1.0));
    // Alone in its ring a member keeps its values: out of place, the output is the input.
    std::fill(all.begin() + 8, all.end(), -1.0f);
    const auto out = ring.run(spec, 2, input(0), all.subspan(8, 8), 1.0);
    QCOMPARE(out.contributors, std::vector<std::string>{"member-0"});
    QVERIFY(std::all_of(buffer->begin(), buffer->end(), [](float v) { return v == 1.0f; }));
  }

  // A peer's weight multiplies its values and divides the sum: a member whose first hop
  // carries a weight that is not a positive number fails the attempt, and nothing is committed
  // (without the check its NaN would have become the other member's chunk).
  void weightThatIsNotPositiveIsRefused() {
    LocalFabric fabric;
    const auto ids = member_ids(2);
    LyingWeight liar(fabric.join(ids[1]));
    auto& honest = fabric.join(ids[0]);
    const std::size_t count = 1000;
    RingOptions options;
    options.timeout = 300ms;
    options.max_attempts = 2;
    std::vector<std::vector<float>> values(2, std::vector<float>(count, 2.0f));
    std::vector<RingOutcome> outcomes(2);
    std::thread lying([&] {
      RingAllReduce ring(liar, options);
      outcomes[1] = ring.run({ring_key("params", 0, count), ids}, 1, values[1], 1.0);
    });
    RingAllReduce ring(honest, options);
    outcomes[0] = ring.run({ring_key("params", 0, count), ids}, 1, values[0], 1.0);
    lying.join();
    for (int m = 0; m < 2; ++m) {
      QCOMPARE(outcomes[std::size_t(m)].contributors,
               std::vector<std::string>{ids[std::size_t(m)]});
      QVERIFY(std::all_of(values[std::size_t(m)].begin(), values[std::size_t(m)].end(),
                          [](float v) { return v == 2.0f; }));
    }
  }

  // Segments that arrive before the round starts are kept; after it finished, refused.
  void mailboxKeepsEarlyAndRefusesLate() {
    Mailbox box;
    IncomingSegment s;
    s.from = "a";
    s.tag = {42, 7, 0, 1, Phase::ReduceScatter, 0, 0};
    box.deliver(s);
    auto got = box.take("a", s.tag, Clock::now() + 10ms);
    QVERIFY(got.status == Mailbox::TakeStatus::Ok);
    QVERIFY(box.take("a", s.tag, Clock::now() + 10ms).status == Mailbox::TakeStatus::Timeout);
    box.finish(42, 7);
    box.deliver(s);
    QCOMPARE(box.kept(), std::size_t(0));
    QCOMPARE(box.dropped(), std::uint64_t(1));
    // A failing vote aborts waits of that attempt at once.
    IncomingSegment vote;
    vote.from = "b";
    vote.tag = {42, 8, 0, 0, Phase::Vote, 0, 0};
    vote.ok = false;
    box.deliver(vote);
    const auto t0 = Clock::now();
    auto aborted = box.take("a", {42, 8, 0, 1, Phase::AllGather, 0, 0}, Clock::now() + 5s);
    QVERIFY(aborted.status == Mailbox::TakeStatus::Aborted);
    QVERIFY(Clock::now() - t0 < 1s);
  }
};

QTEST_APPLESS_MAIN(TestRingAllReduce)
#include "test_ring_all_reduce.moc"
