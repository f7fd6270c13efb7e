// core/net in one process: identities on disk, the ZAP allow-list, RPC with timeouts,
// malformed requests, revocation of a connected peer, liveness with a fake clock, and the
// peer sender's lanes (a stalled peer holds up its own messages only).
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <fstream>
#include <thread>

#include "net/heartbeat.hpp"
#include "net/identity.hpp"
#include "net/peer_sender.hpp"
#include "net/rpc.hpp"

using namespace rookery;
using namespace std::chrono_literals;

namespace {
wire::pb::Envelope ping() {
  wire::pb::Envelope e;
  e.mutable_ping()->set_sent_unix_us(1);
  return e;
}

// An echo server on a free loopback port that answers pings with pongs.
struct EchoServer {
  net::CurveKeyPair identity = net::CurveKeyPair::generate();
  std::unique_ptr<net::RpcServer> server;
  EchoServer(net::SecureContext& ctx, const std::string& domain = net::kPeerDomain) {
    net::RpcServer::Config c;
    c.endpoint = "tcp://127.0.0.1:0";
    c.domain = domain;
    server = std::make_unique<net::RpcServer>(
        ctx, &identity, c, [this](const net::RequestContext& req, wire::Message& m) {
          net::Reply r;
          r.header.mutable_pong()->set_peer_key(
              req.peer_key);  // tells the client who we think it is
          r.header.mutable_pong()->set_ping_sent_unix_us(m.header.ping().sent_unix_us());
          return std::optional<net::Reply>(std::move(r));
        });
  }
};
}  // namespace

class TestNet : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void identityPersistsPrivately() {
    QTemporaryDir dir;
    const auto keys = std::filesystem::path(dir.path().toStdString()) / "keys";
    const auto a = net::CurveKeyPair::load_or_create(keys, "node");
    const auto b = net::CurveKeyPair::load_or_create(keys, "node");
    QCOMPARE(a.public_key, b.public_key);
    QCOMPARE(a.secret_key, b.secret_key);
    QVERIFY(net::is_z85_key(a.public_key));
    QCOMPARE(net::public_key_of(a.secret_key), a.public_key);
    struct stat st {};
    QCOMPARE(::stat((keys / "node.key").c_str(), &st), 0);
    QCOMPARE(st.st_mode & 0777, 0600u);
    QCOMPARE(::stat(keys.c_str(), &st), 0);
    QCOMPARE(st.st_mode & 0777, 0700u);
  }

  void damagedIdentityIsRefusedNotReplaced() {
    QTemporaryDir dir;
    const auto keys = std::filesystem::path(dir.path().toStdString()) / "keys";
    net::CurveKeyPair::load_or_create(keys, "node");
    { std::ofstream(keys / "node.key") << "not a key"; }
    try {
      net::CurveKeyPair::load_or_create(keys, "node");
      QFAIL("a damaged key file was accepted");
    } catch (const std::runtime_error& e) {
      QVERIFY(std::string(e.what()).find("damaged") != std::string::npos);
    }
    std::ifstream in(keys / "node.key");
    std::string content;
    std::getline(in, content);
    QCOMPARE(content, std::string("not a key"));  // left for the user to recover
  }

  void allowedKeyIsServedUnknownKeyIsRefused() {
    net::SecureContext server_ctx, client_ctx;
    EchoServer echo(server_ctx);
    const auto member = net::CurveKeyPair::generate();
    const auto stranger = net::CurveKeyPair::generate();
    server_ctx.auth().allow(net::kPeerDomain, member.public_key);

    net::RpcClient ok(client_ctx, echo.server->endpoint(), &member, echo.identity.public_key);
    auto r = ok.request(ping(), 3s);
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.message->header.pong().peer_key(),
             member.public_key);  // the server saw the member's key

    net::RpcClient refused(client_ctx, echo.server->endpoint(), &stranger,
                           echo.identity.public_key);
    auto r2 = refused.request(ping(), 600ms);
    QCOMPARE(r2.status, net::RpcResult::Status::Timeout);
    QVERIFY(server_ctx.auth().refused() >= 1);
  }

  void wrongServerKeyNeverConnects() {
    net::SecureContext server_ctx, client_ctx;
    EchoServer echo(server_ctx);
    server_ctx.auth().set_open(net::kPeerDomain, true);
    const auto me = net::CurveKeyPair::generate();
    const auto impostor = net::CurveKeyPair::generate();  // we expect another server
    net::RpcClient c(client_ctx, echo.server->endpoint(), &me, impostor.public_key);
    QCOMPARE(c.request(ping(), 600ms).status, net::RpcResult::Status::Timeout);
  }

  void revokedMemberIsCutOffOnItsOpenConnection() {
    net::SecureContext server_ctx, client_ctx;
    EchoServer echo(server_ctx);
    const auto member = net::CurveKeyPair::generate();
    server_ctx.auth().allow(net::kPeerDomain, member.public_key);
    net::RpcClient c(client_ctx, echo.server->endpoint(), &member, echo.identity.public_key);
    QVERIFY(c.request(ping(), 3s).ok());
    server_ctx.auth().revoke(net::kPeerDomain, member.public_key);
    QCOMPARE(c.request(ping(), 500ms).status, net::RpcResult::Status::Timeout);
    QVERIFY(echo.server->rejected() >= 1);
  }

  void malformedRequestIsRejectedAndServerKeepsServing() {
    net::SecureContext server_ctx, client_ctx;
    EchoServer echo(server_ctx);
    const auto member = net::CurveKeyPair::generate();
    server_ctx.auth().allow(net::kPeerDomain, member.public_key);
    auto raw = net::connect_curve_client(client_ctx, zmq::socket_type::dealer,
                                         echo.server->endpoint(), member, echo.identity.public_key);
    raw.send(zmq::buffer(std::string_view("this is not an envelope")), zmq::send_flags::none);
    auto frames = wire::encode(ping(), {});
    frames[0] = zmq::message_t(frames[0].data(), frames[0].size());
    frames.emplace_back("surplus", 7);  // declares 0 tensors, carries 1 frame
    for (std::size_t i = 0; i < frames.size(); ++i) {
      raw.send(frames[i], i + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
    }
    QTRY_COMPARE_WITH_TIMEOUT(echo.server->rejected(), std::uint64_t{2}, 3000);
    net::RpcClient c(client_ctx, echo.server->endpoint(), &member, echo.identity.public_key);
    QVERIFY(c.request(ping(), 3s).ok());
  }

  void remoteErrorIsReported() {
    net::SecureContext ctx;
    const auto id = net::CurveKeyPair::generate();
    ctx.auth().set_open(net::kPeerDomain, true);
    net::RpcServer::Config cfg;
    cfg.endpoint = "tcp://127.0.0.1:0";
    cfg.domain = net::kPeerDomain;
    net::RpcServer s(ctx, &id, cfg,
                     [](const net::RequestContext&, wire::Message&) -> std::optional<net::Reply> {
                       throw std::runtime_error("shard not held here");
                     });
    net::RpcClient c(ctx, s.endpoint(), &id, id.public_key);
    auto r = c.request(ping(), 3s);
    QCOMPARE(r.status, net::RpcResult::Status::RemoteError);
    QCOMPARE(r.error, std::string("shard not held here"));
  }

  // A peer that stops reading holds up its own lane only. B never reads: once its pipe, the
  // TCP buffers and its lane are full, post() drops instead of waiting, a message to A still
  // arrives at once (B's messages still queued; one sender thread for all peers would have
  // held it behind them), and B's messages are dropped after the send timeout, counted.
  void aStalledPeerHoldsUpOnlyItsOwnLane() {
    net::SecureContext server_ctx, client_ctx;
    const auto me = net::CurveKeyPair::generate();
    const auto a_id = net::CurveKeyPair::generate();
    const auto b_id = net::CurveKeyPair::generate();
    server_ctx.auth().allow(net::kPeerDomain, me.public_key);
    net::SocketOptions small;
    small.send_hwm = small.recv_hwm = 1;
    auto a = net::bind_curve_server(server_ctx, zmq::socket_type::router, "tcp://127.0.0.1:0", a_id,
                                    net::kPeerDomain);
    auto b = net::bind_curve_server(server_ctx, zmq::socket_type::router, "tcp://127.0.0.1:0", b_id,
                                    net::kPeerDomain, small);
    const net::PeerAddress to_a{net::last_endpoint(a), a_id.public_key};
    const net::PeerAddress to_b{net::last_endpoint(b), b_id.public_key};
    net::PeerSender::Timing timing;
    timing.send_timeout = 1500ms;
    net::PeerSender sender(client_ctx, me, 2, small, timing);
    const auto big = [] {
      std::vector<zmq::message_t> frames;
      frames.emplace_back(std::size_t(8) << 20);
      return frames;
    };
    int posted = 0;
    while (posted < 100 && sender.post(to_b, big)) {
      ++posted;
      std::this_thread::sleep_for(20ms);
    }
    QVERIFY2(posted < 100, "post() never found the stalled peer's lane full");
    const auto dropped_by_post = sender.failed();
    QCOMPARE(dropped_by_post, std::uint64_t(1));
    QVERIFY(sender.send(to_a, [] {
      std::vector<zmq::message_t> frames;
      frames.emplace_back(std::string("to A"));
      return frames;
    }));
    zmq::pollitem_t item{a.handle(), 0, ZMQ_POLLIN, 0};
    zmq::poll(&item, 1, std::chrono::milliseconds(10000));
    QVERIFY2(item.revents & ZMQ_POLLIN, "A never heard from us while B was stalled");
    QVERIFY2(sender.queued() > 0, "B's lane drained before A was served: the test proves nothing");
    zmq::message_t routing, payload;
    QVERIFY(a.recv(routing));
    QVERIFY(a.recv(payload));
    QCOMPARE(payload.to_string(), std::string("to A"));
    QCOMPARE(sender.lanes(), std::size_t(2));
    // B took nothing for the send timeout: its message was dropped (and counted).
    QTRY_VERIFY_WITH_TIMEOUT(sender.failed() > dropped_by_post, 15000);
  }

  void livenessWithFakeClock() {
    auto now = std::chrono::steady_clock::time_point{};
    net::LivenessTracker t(3s, [&] { return now; });
    t.seen("a");
    now += 2s;
    t.seen("b");
    QVERIFY(t.alive("a") && t.alive("b"));
    now += 1500ms;  // a silent for 3.5 s, b for 1.5 s
    QVERIFY(!t.alive("a"));
    QCOMPARE(t.expire(), std::vector<std::string>{"a"});
    QVERIFY(t.expire().empty());  // reported once
    QCOMPARE(t.alive_peers(), std::vector<std::string>{"b"});
  }
};

QTEST_GUILESS_MAIN(TestNet)
#include "test_net.moc"
