// The relay on loopback: a node behind it is dialled through its public port with CURVE end to
// end (the relay sees only ciphertext), bad registrations and a full relay are refused, garbage
// on the control channel is shrugged off, and a node whose relay dies registers again with the
// relay that takes its place.
#include <QtTest>

#include <poll.h>
#include <sys/socket.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "net/identity.hpp"
#include "net/secure_context.hpp"
#include "reach/relay_client.hpp"
#include "reach/relay_server.hpp"
#include "reach/tcp.hpp"
#include "rookery/reach.pb.h"

using namespace rookery;
using namespace rookery::reach;

namespace {

// A node's CURVE server socket (what its stage listens on), echoing what it receives.
struct EchoNode {
  net::SecureContext ctx;
  net::CurveKeyPair identity;
  zmq::socket_t socket;
  std::uint16_t port = 0;

  EchoNode(const net::CurveKeyPair& id, const std::string& peer_key) : identity(id) {
    ctx.auth().allow(net::kPeerDomain, peer_key);
    socket = net::bind_curve_server(ctx, zmq::socket_type::router, "tcp://127.0.0.1:0", identity,
                                    net::kPeerDomain, {});
    const std::string e = net::last_endpoint(socket);
    port = static_cast<std::uint16_t>(std::stoi(e.substr(e.rfind(':') + 1)));
  }
  // Answers one message with the same bytes; false when none came within 5 s.
  bool echo_one() {
    zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLIN, 0};
    if (zmq::poll(&item, 1, std::chrono::milliseconds(5000)) != 1) return false;
    zmq::message_t id, body;
    if (!socket.recv(id) || !socket.recv(body)) return false;
    socket.send(id, zmq::send_flags::sndmore);
    socket.send(body, zmq::send_flags::none);
    return true;
  }
};

std::string roundtrip(net::SecureContext& ctx, const net::CurveKeyPair& me,
                      const std::string& server_key, std::uint16_t port, EchoNode& node,
                      const std::string& text) {
  zmq::socket_t dealer = net::connect_curve_client(
      ctx, zmq::socket_type::dealer, "tcp://127.0.0.1:" + std::to_string(port), me, server_key, {});
  dealer.send(zmq::buffer(text), zmq::send_flags::none);
  if (!node.echo_one()) return "(the node got nothing)";
  zmq::pollitem_t item{dealer.handle(), 0, ZMQ_POLLIN, 0};
  if (zmq::poll(&item, 1, std::chrono::milliseconds(5000)) != 1) return "(no echo)";
  zmq::message_t reply;
  (void)dealer.recv(reply);
  return reply.to_string();
}

}  // namespace

class TestRelay : public QObject {
  Q_OBJECT

  net::CurveKeyPair relay_id_ = net::CurveKeyPair::generate();
  net::CurveKeyPair node_id_ = net::CurveKeyPair::generate();
  net::CurveKeyPair peer_id_ = net::CurveKeyPair::generate();

  RelayClientOptions client(std::uint16_t control_port, std::vector<std::uint16_t> ports) {
    RelayClientOptions o;
    o.relay_host = "127.0.0.1";
    o.control_port = control_port;
    o.relay_key = relay_id_.public_key;
    o.ports = std::move(ports);
    o.ping_interval = std::chrono::milliseconds(200);
    o.timeout = std::chrono::milliseconds(1000);
    return o;
  }

 private Q_SLOTS:
  void carriesCiphertextEndToEnd() {
    net::SecureContext relay_ctx;
    relay_ctx.auth().allow(net::kPeerDomain, node_id_.public_key);
    std::mutex seen_mutex;
    std::string seen;
    RelayServerOptions options;
    options.host = "127.0.0.1";
    options.tap = [&](const char* data, std::size_t size) {
      std::lock_guard lock(seen_mutex);
      seen.append(data, size);
    };
    RelayServer relay(relay_ctx, relay_id_, options);

    EchoNode node(node_id_, peer_id_.public_key);
    net::SecureContext node_ctx;
    RelayClient behind(node_ctx, node_id_, client(relay.control_port(), {node.port}));
    QTRY_COMPARE_WITH_TIMEOUT(behind.state(), RelayState::registered, 5000);
    QCOMPARE(behind.ports().size(), std::size_t(1));
    QCOMPARE(behind.ports()[0].local_port, node.port);

    net::SecureContext peer_ctx;
    const std::string secret = "activations of micro-batch 42, in plain words";
    const std::string echoed = roundtrip(peer_ctx, peer_id_, node_id_.public_key,
                                         behind.ports()[0].public_port, node, secret);
    QCOMPARE(QString::fromStdString(echoed), QString::fromStdString(secret));
    QCOMPARE(behind.connections(), std::uint64_t(1));
    QTRY_VERIFY(relay.stats().bytes > 2 * secret.size());
    QCOMPARE(relay.stats().connections_total, std::uint64_t(1));
    std::lock_guard lock(seen_mutex);
    QVERIFY(!seen.empty());
    QVERIFY2(seen.find(secret) == std::string::npos, "the relay saw the plaintext");
  }

  // A relay that flips one byte of what it forwards once a message went through intact: the
  // node never receives an altered message (the MAC fails and the connection is dropped).
  void aTamperingRelayIsDetected() {
    EchoNode node(node_id_, peer_id_.public_key);
    Fd listener = listen_tcp("127.0.0.1", 0);
    const std::uint16_t port = local_port(listener.get());
    std::atomic<bool> armed{false}, flipped{false};
    std::thread forwarder([&] {
      pollfd l{listener.get(), POLLIN, 0};
      if (::poll(&l, 1, 5000) != 1) return;
      Fd peer = accept_tcp(listener.get());
      Fd to_node = dial_tcp("127.0.0.1", node.port, std::chrono::milliseconds(2000));
      char buffer[4096];
      for (int rounds = 0; rounds < 400; ++rounds) {
        pollfd p[2] = {{peer.get(), POLLIN, 0}, {to_node.get(), POLLIN, 0}};
        if (::poll(p, 2, 10) <= 0) continue;
        for (int i = 0; i < 2; ++i) {
          if (!(p[i].revents & (POLLIN | POLLHUP))) continue;
          const int from = i == 0 ? peer.get() : to_node.get();
          const ssize_t n = ::recv(from, buffer, sizeof buffer, 0);
          if (n <= 0) return;
          if (i == 0) {
            if (armed && !flipped) {
              buffer[n - 1] ^= 0x5a;
              flipped = true;
            }
          }
          if (!write_all(i == 0 ? to_node.get() : peer.get(), buffer, static_cast<std::size_t>(n)))
            return;
        }
      }
    });
    net::SecureContext peer_ctx;
    zmq::socket_t dealer = net::connect_curve_client(peer_ctx, zmq::socket_type::dealer,
                                                     "tcp://127.0.0.1:" + std::to_string(port),
                                                     peer_id_, node_id_.public_key, {});
    dealer.set(zmq::sockopt::rcvtimeo, 5000);
    const std::string text(400, 'w');
    dealer.send(zmq::buffer(text), zmq::send_flags::none);  // through the handshake, intact
    QVERIFY(node.echo_one());
    zmq::message_t echo;
    QVERIFY(dealer.recv(echo));
    armed = true;
    dealer.send(zmq::buffer(text), zmq::send_flags::none);  // the flipped one
    zmq::pollitem_t item{node.socket.handle(), 0, ZMQ_POLLIN, 0};
    QCOMPARE(zmq::poll(&item, 1, std::chrono::milliseconds(1500)), 0);
    forwarder.join();
    QVERIFY(flipped);
  }

  void refusesWhatItCannotCarry_data() {
    QTest::addColumn<int>("ports");
    QTest::addColumn<int>("maxNodes");
    QTest::addColumn<int>("reason");
    QTest::newRow("no ports") << 0 << 4 << int(wire::pb::RelayRefused::BAD_REQUEST);
    QTest::newRow("too many ports") << 9 << 4 << int(wire::pb::RelayRefused::BAD_REQUEST);
    QTest::newRow("full") << 1 << 0 << int(wire::pb::RelayRefused::FULL);
  }
  void refusesWhatItCannotCarry() {
    QFETCH(int, ports);
    QFETCH(int, maxNodes);
    QFETCH(int, reason);
    net::SecureContext relay_ctx;
    relay_ctx.auth().allow(net::kPeerDomain, node_id_.public_key);
    RelayServerOptions options;
    options.host = "127.0.0.1";
    options.max_nodes = static_cast<std::size_t>(maxNodes);
    RelayServer relay(relay_ctx, relay_id_, options);
    net::SecureContext node_ctx;
    std::vector<std::uint16_t> list;
    for (int i = 0; i < ports; ++i) list.push_back(static_cast<std::uint16_t>(20000 + i));
    RelayClient behind(node_ctx, node_id_, client(relay.control_port(), list));
    QTRY_COMPARE_WITH_TIMEOUT(behind.state(), RelayState::refused, 5000);
    QCOMPARE(QString::fromStdString(behind.error()),
             QString::fromStdString(wire::pb::RelayRefused::Reason_Name(
                 static_cast<wire::pb::RelayRefused::Reason>(reason))));
    QCOMPARE(relay.stats().nodes, std::size_t(0));
    QVERIFY(relay.stats().refused >= 1);
  }

  void garbageOnTheControlChannelIsIgnored() {
    net::SecureContext relay_ctx;
    relay_ctx.auth().allow(net::kPeerDomain, node_id_.public_key);
    RelayServerOptions options;
    options.host = "127.0.0.1";
    RelayServer relay(relay_ctx, relay_id_, options);
    net::SecureContext node_ctx;
    {
      zmq::socket_t rogue =
          net::connect_curve_client(node_ctx, zmq::socket_type::dealer,
                                    "tcp://127.0.0.1:" + std::to_string(relay.control_port()),
                                    node_id_, relay_id_.public_key, {});
      rogue.send(zmq::str_buffer("\xff\xff not a relay message"), zmq::send_flags::none);
      rogue.send(zmq::str_buffer("a"), zmq::send_flags::sndmore);
      rogue.send(zmq::str_buffer("b"), zmq::send_flags::none);
    }
    EchoNode node(node_id_, peer_id_.public_key);
    RelayClient behind(node_ctx, node_id_, client(relay.control_port(), {node.port}));
    QTRY_COMPARE_WITH_TIMEOUT(behind.state(), RelayState::registered, 5000);
  }

  void registersAgainWhenItsRelayComesBack() {
    EchoNode node(node_id_, peer_id_.public_key);
    net::SecureContext node_ctx;
    std::uint16_t control_port = 0;
    RelayServerOptions options;
    options.host = "127.0.0.1";
    {
      net::SecureContext relay_ctx;
      relay_ctx.auth().allow(net::kPeerDomain, node_id_.public_key);
      auto relay = std::make_unique<RelayServer>(relay_ctx, relay_id_, options);
      control_port = relay->control_port();
      options.control_port = control_port;
      RelayClient* behind = nullptr;
      auto client_ptr =
          std::make_unique<RelayClient>(node_ctx, node_id_, client(control_port, {node.port}));
      behind = client_ptr.get();
      QTRY_COMPARE_WITH_TIMEOUT(behind->state(), RelayState::registered, 5000);
      relay.reset();  // the relay's host goes away
      QTRY_COMPARE_WITH_TIMEOUT(behind->state(), RelayState::lost, 5000);

      net::SecureContext relay2_ctx;
      relay2_ctx.auth().allow(net::kPeerDomain, node_id_.public_key);
      RelayServer relay2(relay2_ctx, relay_id_, options);  // back on the same control port
      QTRY_COMPARE_WITH_TIMEOUT(behind->state(), RelayState::registered, 8000);
      net::SecureContext peer_ctx;
      const std::string echoed = roundtrip(peer_ctx, peer_id_, node_id_.public_key,
                                           behind->ports()[0].public_port, node, "again");
      QCOMPARE(QString::fromStdString(echoed), QStringLiteral("again"));
      client_ptr.reset();
    }
  }
};

QTEST_GUILESS_MAIN(TestRelay)
#include "test_relay.moc"
