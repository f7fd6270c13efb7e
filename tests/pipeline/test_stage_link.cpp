// StageLink: the in-process link delivers what the ZeroMQ one does, in order, and refuses
// what it refuses; a pipeline of stages in one process, each on its own thread, trains over
// it exactly as the whole model in one process does (and as over ZeroMQ); a stage that
// vanishes is routed around as over ZeroMQ; malformed messages put on the link are refused
// and counted where the runtime counts them.
#include "local_swarm.hpp"
#include "reference_training.hpp"

#include <QTemporaryDir>
#include <QTest>

#include <condition_variable>

#include "wire/message.hpp"

using namespace rookery;
using testing::LinkKind;
using testing::LocalSwarm;
using testing::stage_config;
namespace pb = rookery::wire::pb;
using std::chrono::milliseconds;

namespace {

// A message of `job_id` whose header says which micro-batch it is, and nothing else.
std::vector<zmq::message_t> numbered(const std::string& job_id, std::uint64_t n) {
  pb::Envelope h;
  h.set_job_id(job_id);
  h.mutable_backward()->set_micro_batch(n);
  return wire::encode(h);
}

std::vector<zmq::message_t> forward_message(const std::string& job_id, std::uint64_t mb,
                                            std::vector<std::int64_t> shape,
                                            const net::PeerAddress& return_to) {
  pb::Envelope h;
  h.set_job_id(job_id);
  auto* f = h.mutable_forward();
  f->set_micro_batch(mb);
  f->set_samples(2);
  f->mutable_return_to()->set_endpoint(return_to.endpoint);
  f->mutable_return_to()->set_key(return_to.key);
  std::int64_t n = 1;
  for (const auto d : shape) n *= d;
  std::vector<float> values(static_cast<std::size_t>(n), 1.f);
  std::vector<std::int64_t> targets(2 * 32, 3);
  std::vector<wire::OutgoingTensor> t;
  t.push_back(wire::OutgoingTensor::encode("activations", std::move(shape), values));
  t.push_back(wire::OutgoingTensor::raw("targets", wire::DType::I64, {2, 32},
                                        wire::Payload::copy_of(std::as_bytes(std::span(targets)))));
  return wire::encode(h, std::move(t));
}

}  // namespace

class TestStageLink : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { torch::set_num_threads(1); }

  // The link alone: messages arrive decoded, in the order they were sent, and are counted;
  // what a socket would never deliver is dropped at the sender and counted there; a
  // malformed frame is refused at the receiver and never reaches it.
  void linkDeliversInOrderAndRefusesWhatASocketWould() {
    pipeline::InProcessStageHub hub;
    const auto a = net::CurveKeyPair::generate(), b = net::CurveKeyPair::generate();
    const auto stranger = net::CurveKeyPair::generate();
    pipeline::InProcessStageLink from(hub, a.public_key, "tcp://a.in-process:1");
    auto to =
        std::make_unique<pipeline::InProcessStageLink>(hub, b.public_key, "tcp://b.in-process:1");
    std::mutex mutex;
    std::vector<std::uint64_t> got;
    std::vector<std::string> senders;
    std::atomic<int> count{0};
    to->admit({a.public_key});
    to->listen([&](const std::string& peer, wire::Message& msg) {
      std::lock_guard lock(mutex);
      got.push_back(msg.header.backward().micro_batch());
      senders.push_back(peer);
      ++count;
    });
    QCOMPARE(to->endpoint(), std::string("tcp://b.in-process:1"));
    // Peers reply to a stage's endpoint, and a stage takes only tcp:// return addresses.
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             pipeline::InProcessStageLink(hub, a.public_key, "inproc://b"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             pipeline::InProcessStageLink(hub, a.public_key, "tcp://b.in-process:1")
                                 .listen([](auto&, auto&) {}));

    const net::PeerAddress b_addr{"tcp://b.in-process:1", b.public_key};
    constexpr int kMessages = 200;
    for (int i = 0; i < kMessages; ++i)
      QVERIFY(from.send(b_addr, [i] { return numbered("j", static_cast<std::uint64_t>(i)); }));
    QTRY_COMPARE_WITH_TIMEOUT(count.load(), kMessages, 10000);
    QVERIFY(from.bytes_sent() > 0);
    {
      std::lock_guard lock(mutex);
      for (int i = 0; i < kMessages; ++i) QCOMPARE(got[std::size_t(i)], std::uint64_t(i));
      QVERIFY(std::all_of(senders.begin(), senders.end(),
                          [&](const std::string& k) { return k == a.public_key; }));
    }
    QCOMPARE(from.failed(), std::uint64_t{0});

    // Nobody there, another key there, a key that is not admitted: dropped, counted.
    QVERIFY(
        !from.send({"tcp://nobody.in-process:1", b.public_key}, [] { return numbered("j", 1); }));
    QVERIFY(
        !from.send({"tcp://b.in-process:1", stranger.public_key}, [] { return numbered("j", 1); }));
    pipeline::InProcessStageLink outsider(hub, stranger.public_key, "tcp://s.in-process:1");
    QVERIFY(!outsider.post(b_addr, [] { return numbered("j", 1); }));
    QCOMPARE(from.failed(), std::uint64_t{2});
    QCOMPARE(outsider.failed(), std::uint64_t{1});

    // Not a wire message: the receiver refuses it; the stage's receiver never sees it.
    QVERIFY(from.send(b_addr, [] {
      std::vector<zmq::message_t> f;
      f.emplace_back("\x01\x02garbage", 9);
      return f;
    }));
    QTRY_COMPARE_WITH_TIMEOUT(to->refused(), std::uint64_t{1}, 5000);
    QCOMPARE(count.load(), kMessages);

    // Taken off the members: refused from now on.
    to->restrict_peers({b.public_key});
    QVERIFY(!from.send(b_addr, [] { return numbered("j", 1); }));
    // A listener that is gone is nobody.
    to->admit({a.public_key});
    to.reset();
    QVERIFY(!from.send(b_addr, [] { return numbered("j", 1); }));
    QCOMPARE(from.failed(), std::uint64_t{4});
    QVERIFY(hub.endpoints().empty());
  }

  // A post never waits: with the receiver busy it queues up to twice the lane's capacity and
  // drops the rest, counted; a send waits for room instead of dropping.
  void postDropsBeyondTwiceTheCapacityAndSendWaits() {
    pipeline::InProcessStageHub hub;
    const auto a = net::CurveKeyPair::generate(), b = net::CurveKeyPair::generate();
    constexpr std::size_t kCapacity = 3;
    pipeline::InProcessStageLink from(hub, a.public_key, "tcp://a.in-process:1", kCapacity);
    pipeline::InProcessStageLink to(hub, b.public_key, "tcp://b.in-process:1");
    std::mutex mutex;
    std::condition_variable cv;
    bool busy = false, release = false;
    std::atomic<int> got{0};
    to.admit({a.public_key});
    to.listen([&](const std::string&, wire::Message&) {
      std::unique_lock lock(mutex);
      busy = true;
      cv.notify_all();
      cv.wait(lock, [&] { return release; });
      ++got;
    });
    const net::PeerAddress b_addr{"tcp://b.in-process:1", b.public_key};
    QVERIFY(from.post(b_addr, [] { return numbered("j", 0); }));
    {
      std::unique_lock lock(mutex);
      QVERIFY(cv.wait_for(lock, std::chrono::seconds(5), [&] { return busy; }));
    }
    for (std::size_t i = 0; i < 2 * kCapacity; ++i)
      QVERIFY(from.post(b_addr, [] { return numbered("j", 1); }));
    QVERIFY(!from.post(b_addr, [] { return numbered("j", 2); }));
    QCOMPARE(from.failed(), std::uint64_t{1});
    // A send waits until the receiver makes room, then goes.
    std::atomic<bool> sent{false};
    std::thread sender([&] { sent = from.send(b_addr, [] { return numbered("j", 3); }); });
    QTest::qWait(200);
    QVERIFY(!sent);
    {
      std::lock_guard lock(mutex);
      release = true;
      cv.notify_all();
    }
    sender.join();
    QVERIFY(sent);
    QTRY_COMPARE_WITH_TIMEOUT(got.load(), int(2 * kCapacity + 2), 5000);
    QCOMPARE(from.failed(), std::uint64_t{1});
  }

  // Staleness 1 and fp32: three stages on three threads compute exactly what the whole
  // model trained in one process does, over the in-process link as over ZeroMQ.
  void pipelineOverTheLinkMatchesOneProcess_data() {
    QTest::addColumn<int>("link");
    QTest::addColumn<bool>("cnn");
    QTest::newRow("language model, in-process") << int(LinkKind::InProcess) << false;
    QTest::newRow("cnn, in-process") << int(LinkKind::InProcess) << true;
    QTest::newRow("language model, zeromq") << int(LinkKind::ZeroMq) << false;
  }
  void pipelineOverTheLinkMatchesOneProcess() {
    QFETCH(int, link);
    QFETCH(bool, cnn);
    constexpr int kSteps = 20;
    QTemporaryDir dir;
    QString json = testing::gpt_job_json("link-exact", 1, "none");
    std::vector<std::pair<int, int>> blocks{{0, 1}, {1, 3}, {3, 4}};
    if (cnn) {
      const auto images = std::filesystem::path(dir.filePath("img.idx").toStdString());
      const auto labels = std::filesystem::path(dir.filePath("lab.idx").toStdString());
      testing::write_quadrant_images(images, labels, 512, 8);
      json = QString(R"({"id": "link-exact-cnn", "model": {"kind": "cnn", "channels": 1,
        "image_size": 8, "classes": 4, "widths": [8, 8]},
        "dataset": {"kind": "images", "path": "%1", "labels": "%2"},
        "optimizer": {"kind": "sgd", "lr": 0.05, "momentum": 0.9, "nesterov": true},
        "micro_batch_size": 16, "staleness": 1, "codec": "none", "seed": 5})")
                 .arg(QString::fromStdString(images.string()),
                      QString::fromStdString(labels.string()));
      blocks = {{0, 1}, {1, 2}, {2, 3}};
    }
    const auto job = job::parse_job_spec(json.toStdString());
    LocalSwarm swarm(static_cast<LinkKind>(link), 3);
    std::vector<std::filesystem::path> ckpts;
    for (int i = 2; i >= 0; --i) {
      auto c = stage_config(job, blocks[std::size_t(i)], swarm.keys());
      if (i < 2) c.next = swarm.address(i + 1);
      c.stages_before = i;
      c.checkpoint_path = dir.filePath(QString("stage-%1.ckpt").arg(i)).toStdString();
      if (i == 0) c.max_micro_batches = kSteps;
      swarm.start(i, std::move(c));
    }
    for (int i = 0; i < 3; ++i) ckpts.push_back(swarm.runtime(i).config().checkpoint_path);
    QTRY_COMPARE_WITH_TIMEOUT(swarm.stats(0).backwards, std::int64_t{kSteps}, 60000);
    for (int i = 0; i < 3; ++i) swarm.halt(i);
    QCOMPARE(swarm.errors(), std::string());
    for (int i = 0; i < 3; ++i) {
      const auto s = swarm.stats(i);
      QCOMPARE(s.backwards, std::int64_t{kSteps});
      QCOMPARE(s.rejected, std::int64_t{0});
      QCOMPARE(s.dropped, std::int64_t{0});
      if (i < 2) QVERIFY(s.bytes_sent > 0);
      swarm.runtime(i).checkpoint_now();
    }
    if (link == int(LinkKind::InProcess)) {
      QCOMPARE(swarm.runtime(1).endpoint(), std::string("tcp://stage-1.in-process:1"));
      for (int i = 0; i < 3; ++i) QCOMPARE(swarm.link(i)->failed(), std::uint64_t{0});
    }
    const auto piped = testing::read_stage_checkpoints(ckpts);
    const auto reference = testing::train_in_one_process(job, kSteps);
    const double diff = testing::max_abs_difference(piped, reference);
    const double moved = testing::max_abs_difference(reference, testing::initial_parameters(job));
    qInfo("max |pipeline - one process| = %.3g (training moved weights by up to %.3g)", diff,
          moved);
    QVERIFY(moved > 1e-2);
    QVERIFY2(diff <= 1e-5, qPrintable(QString("max abs difference %1").arg(diff)));
  }

  // Two replicas of the last stage; one vanishes while it holds micro-batches. The first
  // stage gives those up (the router suspects the silent hop) and trains on through the
  // other, over the in-process link as over ZeroMQ.
  void vanishedStageIsRoutedAround_data() {
    QTest::addColumn<int>("link");
    QTest::newRow("in-process") << int(LinkKind::InProcess);
    QTest::newRow("zeromq") << int(LinkKind::ZeroMq);
  }
  void vanishedStageIsRoutedAround() {
    QFETCH(int, link);
    const auto job =
        job::parse_job_spec(testing::gpt_job_json("link-vanish", 2, "none").toStdString());
    LocalSwarm swarm(static_cast<LinkKind>(link), 3);  // 0 feeds; 1 and 2 hold blocks [2, 4)
    swarm.start(1, stage_config(job, {2, 4}, swarm.keys()));
    swarm.start(2, stage_config(job, {2, 4}, swarm.keys()));
    auto first = stage_config(job, {0, 2}, swarm.keys());
    first.next = swarm.address(1);
    first.next_candidates = {swarm.address(1), swarm.address(2)};
    const auto gone = swarm.address(2);
    swarm.start(0, std::move(first));
    QTRY_VERIFY_WITH_TIMEOUT(swarm.stats(1).backwards >= 3 && swarm.stats(2).backwards >= 3, 60000);
    // Stage 2 stops computing: what is routed to it stays there, and soon holds every slot.
    swarm.halt(2);
    QTest::qWait(1000);
    swarm.remove(2);
    const auto survivor = swarm.stats(1).backwards;
    QTRY_VERIFY_WITH_TIMEOUT(swarm.stats(0).dropped >= 1, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(swarm.stats(1).backwards >= survivor + 20, 60000);
    QCOMPARE(swarm.errors(), std::string());
    const auto s0 = swarm.stats(0);
    qInfo("first stage: %lld dropped, %lld completed", static_cast<long long>(s0.dropped),
          static_cast<long long>(s0.backwards));
    QCOMPARE(s0.rejected, std::int64_t{0});
    QCOMPARE(swarm.stats(1).rejected, std::int64_t{0});
    if (link == int(LinkKind::InProcess)) {
      // A message to it now is dropped at once, as a socket's would be after its timeout.
      const auto failed = swarm.link(0)->failed();
      QVERIFY(!swarm.link(0)->post(gone, [] { return numbered("link-vanish", 1); }));
      QCOMPARE(swarm.link(0)->failed(), failed + 1);
    }
  }

  // Nonsense put on the link as the first stage (its key, admitted) is refused: what does not
  // decode by the link, without reaching the stage; what decodes but does not fit by the
  // stage, counted as rejected. A key that is not a member gets nothing through. The stage
  // trains on.
  void malformedMessagesOnTheLinkAreRefusedAndCounted() {
    const auto job =
        job::parse_job_spec(testing::gpt_job_json("link-malformed", 2, "none").toStdString());
    LocalSwarm swarm(LinkKind::InProcess, 2);
    swarm.start(1, stage_config(job, {2, 4}, swarm.keys()));
    auto first = stage_config(job, {0, 2}, swarm.keys());
    first.next = swarm.address(1);
    swarm.start(0, std::move(first));
    QTRY_VERIFY_WITH_TIMEOUT(swarm.stats(1).backwards >= 5, 60000);
    const auto before = swarm.stats(1).rejected;
    const auto to = swarm.address(1), as = swarm.address(0);

    pipeline::InProcessStageLink impostor(swarm.hub(), swarm.id(0).public_key,
                                          "tcp://impostor.in-process:1");
    auto put = [&](std::vector<zmq::message_t> frames) {
      auto shared = std::make_shared<std::vector<zmq::message_t>>(std::move(frames));
      QVERIFY(impostor.send(to, [shared] { return std::move(*shared); }));
    };
    // 1. Not an envelope at all: the link's decoder refuses it.
    std::vector<zmq::message_t> garbage;
    garbage.emplace_back("\x01\x02garbage", 9);
    put(std::move(garbage));
    // 2. Activations of the wrong width, and of the wrong rank: the stage refuses them.
    put(forward_message(job.id, 1, {2, 32, 5}, as));
    put(forward_message(job.id, 2, {2, 32 * 5}, as));
    // 3. A gradient to the last stage, which takes none; a forward of another job.
    pb::Envelope grad;
    grad.set_job_id(job.id);
    grad.mutable_backward()->set_micro_batch(12345);
    std::vector<float> g(10, 0.f);
    std::vector<wire::OutgoingTensor> t;
    t.push_back(wire::OutgoingTensor::encode("grad", {10}, g));
    put(wire::encode(grad, std::move(t)));
    put(forward_message("some-other-job", 3, {2, 32, 64}, as));

    QTRY_COMPARE_WITH_TIMEOUT(swarm.stats(1).rejected, before + 4, 10000);
    QCOMPARE(swarm.link(1)->refused(), std::uint64_t{1});
    QCOMPARE(impostor.failed(), std::uint64_t{0});

    // A key that is not a member: nothing reaches the stage.
    const auto stranger = net::CurveKeyPair::generate();
    pipeline::InProcessStageLink outsider(swarm.hub(), stranger.public_key,
                                          "tcp://outsider.in-process:1");
    QVERIFY(!outsider.send(to, [&] { return forward_message(job.id, 4, {2, 32, 5}, as); }));
    QCOMPARE(outsider.failed(), std::uint64_t{1});

    const auto mbs = swarm.stats(1).backwards;
    QTRY_VERIFY_WITH_TIMEOUT(swarm.stats(1).backwards >= mbs + 10, 30000);
    QCOMPARE(swarm.stats(1).rejected, before + 4);
    QCOMPARE(swarm.link(1)->refused(), std::uint64_t{1});
    QCOMPARE(swarm.errors(), std::string());
  }
};

QTEST_GUILESS_MAIN(TestStageLink)
#include "test_stage_link.moc"
