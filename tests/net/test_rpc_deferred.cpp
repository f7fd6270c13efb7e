// A request whose reply is deferred (RequestContext::defer) is answered later from another
// thread, while the server's thread answers the requests that come meanwhile; a deferred reply
// sent after the server stopped does nothing.
#include <QTest>

#include <atomic>
#include <chrono>
#include <mutex>
#include <future>
#include <memory>
#include <thread>

#include "net/identity.hpp"
#include "net/rpc.hpp"

using namespace rookery;
using namespace std::chrono_literals;

namespace {

// A ping whose sent_unix_us is 1 asks for a slow answer.
wire::pb::Envelope ping(std::int64_t what) {
  wire::pb::Envelope e;
  e.mutable_ping()->set_sent_unix_us(what);
  return e;
}

constexpr auto kSlow = 600ms;

}  // namespace

class TestRpcDeferred : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void aDeferredReplyLetsTheServerAnswerOthersMeanwhile() {
    net::SecureContext ctx;
    const auto id = net::CurveKeyPair::generate();
    ctx.auth().set_open(net::kPeerDomain, true);
    std::mutex mutex;
    std::vector<std::jthread> answering;  // under `mutex`
    std::atomic<int> deferred{0};
    net::RpcServer::Config cfg;
    cfg.endpoint = "tcp://127.0.0.1:0";
    cfg.domain = net::kPeerDomain;
    auto server = std::make_unique<net::RpcServer>(
        ctx, &id, cfg,
        [&](const net::RequestContext& req, wire::Message& m) -> std::optional<net::Reply> {
          net::Reply r;
          r.header.mutable_pong()->set_ping_sent_unix_us(m.header.ping().sent_unix_us());
          if (m.header.ping().sent_unix_us() != 1) return r;
          std::lock_guard lock(mutex);
          answering.emplace_back([answer = req.defer(), r]() mutable {
            std::this_thread::sleep_for(kSlow);
            answer.send(std::move(r));
          });
          ++deferred;
          return std::nullopt;
        });
    const auto endpoint = server->endpoint();
    auto slow = std::async(std::launch::async, [&] {
      net::RpcClient c(ctx, endpoint, &id, id.public_key);
      const auto start = std::chrono::steady_clock::now();
      const auto r = c.request(ping(1), 5s);
      return std::pair(r.ok() ? r.message->header.pong().ping_sent_unix_us() : -1,
                       std::chrono::steady_clock::now() - start);
    });
    std::this_thread::sleep_for(100ms);  // the slow request is waiting for its answer now
    net::RpcClient fast(ctx, endpoint, &id, id.public_key);
    for (int i = 2; i < 6; ++i) {
      const auto start = std::chrono::steady_clock::now();
      const auto r = fast.request(ping(i), 5s);
      QVERIFY(r.ok());
      QCOMPARE(r.message->header.pong().ping_sent_unix_us(), std::int64_t(i));
      QVERIFY2(std::chrono::steady_clock::now() - start < kSlow / 2,
               "a request waited behind the deferred one");
    }
    const auto [answered, took] = slow.get();
    QCOMPARE(answered, std::int64_t(1));  // its own reply, matched by its request id
    QVERIFY(took >= kSlow);

    // Deferred again, then the server stops before the answer: nothing is sent, nothing breaks.
    std::atomic<bool> late_answered{true};
    std::jthread late([&] {
      net::RpcClient c(ctx, endpoint, &id, id.public_key);
      late_answered = c.request(ping(1), 1500ms).ok();
    });
    QTRY_COMPARE_WITH_TIMEOUT(deferred.load(), 2, 2000);
    server.reset();
    {
      std::lock_guard lock(mutex);
      answering.clear();  // the second answer is sent to a stopped server
    }
    late.join();
    QVERIFY(!late_answered);
  }
};

QTEST_GUILESS_MAIN(TestRpcDeferred)
#include "test_rpc_deferred.moc"
