// Connection reversal on loopback: a node nobody can dial (it announces an address no packet
// reaches) registers its port with a reachable peer's reversal service; that peer's process
// then dials it, by its key, through the connection the node opened, with CURVE end to end,
// and stops doing so once the node is gone. The dialler's routes rewrite only the routed key
// and port, and a sender lane opened before the route existed follows it.
#include <QtTest>

#include "net/dial_routes.hpp"
#include "net/identity.hpp"
#include "net/peer_sender.hpp"
#include "net/secure_context.hpp"
#include "reach/relay_client.hpp"
#include "reach/relay_server.hpp"

using namespace rookery;
using namespace rookery::reach;

namespace {

// An address no packet reaches (TEST-NET-1, RFC 5737): what an unreachable node announces.
const std::string kNowhere = "192.0.2.1";

// The unreachable node's CURVE server socket (its stage), receiving one message at a time.
struct Node {
  net::SecureContext ctx;
  net::CurveKeyPair identity = net::CurveKeyPair::generate();
  zmq::socket_t socket;
  std::uint16_t port = 0;

  explicit Node(const std::string& peer_key) {
    ctx.auth().allow(net::kPeerDomain, peer_key);
    socket = net::bind_curve_server(ctx, zmq::socket_type::router, "tcp://127.0.0.1:0", identity,
                                    net::kPeerDomain, {});
    const std::string e = net::last_endpoint(socket);
    port = static_cast<std::uint16_t>(std::stoi(e.substr(e.rfind(':') + 1)));
  }
  std::string announced() const { return "tcp://" + kNowhere + ":" + std::to_string(port); }
  // The body of the next message, and who sent it; empty when none came within `wait`.
  std::string receive(std::string* sender = nullptr, int wait_ms = 5000) {
    zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLIN, 0};
    if (zmq::poll(&item, 1, std::chrono::milliseconds(wait_ms)) != 1) return {};
    zmq::message_t id, body;
    if (!socket.recv(id) || !socket.recv(body)) return {};
    if (sender) *sender = net::sender_key(body);
    return body.to_string();
  }
};

// The reachable peer: its process's context, and the reversal service in it.
struct Reachable {
  net::SecureContext ctx;
  net::CurveKeyPair identity = net::CurveKeyPair::generate();
  std::unique_ptr<RelayServer> service;

  void serve(const std::string& admitted) {
    ctx.auth().allow(net::kPeerDomain, admitted);
    RelayServerOptions o;
    o.host = "127.0.0.1";
    o.public_host = "127.0.0.1";
    o.routes = &ctx.routes();
    o.node_timeout = std::chrono::milliseconds(1000);
    service = std::make_unique<RelayServer>(ctx, identity, o);
  }
};

RelayClientOptions registration(const Reachable& peer, std::uint16_t port) {
  RelayClientOptions o;
  o.relay_host = "127.0.0.1";
  o.control_port = peer.service->control_port();
  o.data_port = peer.service->data_port();
  o.relay_key = peer.identity.public_key;
  o.ports = {port};
  o.ping_interval = std::chrono::milliseconds(200);
  o.timeout = std::chrono::milliseconds(1000);
  return o;
}

}  // namespace

class TestReversal : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void routesRewriteOnlyTheRoutedKeyAndPort() {
    net::DialRoutes routes;
    const std::string key(40, 'k'), other(40, 'o');
    QCOMPARE(routes.resolve("tcp://192.0.2.1:7000", key), std::string("tcp://192.0.2.1:7000"));
    routes.set(key, 7000, "tcp://127.0.0.1:41000");
    QCOMPARE(routes.resolve("tcp://192.0.2.1:7000", key), std::string("tcp://127.0.0.1:41000"));
    QCOMPARE(routes.resolve("tcp://[fd77::9]:7000", key), std::string("tcp://127.0.0.1:41000"));
    QCOMPARE(routes.resolve("tcp://192.0.2.1:7001", key), std::string("tcp://192.0.2.1:7001"));
    QCOMPARE(routes.resolve("tcp://192.0.2.1:7000", other), std::string("tcp://192.0.2.1:7000"));
    QCOMPARE(routes.resolve("tcp://192.0.2.1:70000", key), std::string("tcp://192.0.2.1:70000"));
    QCOMPARE(routes.resolve("garbage", key), std::string("garbage"));
    QCOMPARE(routes.routed_keys(), std::size_t(1));
    routes.erase(key);
    QCOMPARE(routes.resolve("tcp://192.0.2.1:7000", key), std::string("tcp://192.0.2.1:7000"));
    QCOMPARE(routes.routed_keys(), std::size_t(0));
  }

  void aReachablePeerDialsAnUnreachableNodeThroughItsConnection() {
    Reachable peer;
    Node node(peer.identity.public_key);
    peer.serve(node.identity.public_key);
    net::SecureContext node_side;
    auto client =
        std::make_unique<RelayClient>(node_side, node.identity, registration(peer, node.port));
    QTRY_COMPARE_WITH_TIMEOUT(client->state(), RelayState::registered, 5000);
    const std::string routed =
        peer.ctx.routes().resolve(node.announced(), node.identity.public_key);
    QVERIFY2(routed.rfind("tcp://127.0.0.1:", 0) == 0, routed.c_str());
    QVERIFY(routed != node.announced());

    // The peer dials the node by the address it announced: the route takes it through the
    // node's own connection, and the node sees the peer's key (CURVE end to end).
    zmq::socket_t dealer =
        net::connect_curve_client(peer.ctx, zmq::socket_type::dealer, node.announced(),
                                  peer.identity, node.identity.public_key, {});
    dealer.send(zmq::str_buffer("activations of micro-batch 7"), zmq::send_flags::none);
    std::string sender;
    QCOMPARE(QString::fromStdString(node.receive(&sender)),
             QStringLiteral("activations of micro-batch 7"));
    QCOMPARE(sender, peer.identity.public_key);
    QCOMPARE(client->connections(), std::uint64_t(1));
    QCOMPARE(peer.service->stats().nodes, std::size_t(1));

    // The node is gone: its route with it, once the service stops hearing from it.
    client.reset();
    QTRY_COMPARE_WITH_TIMEOUT(peer.ctx.routes().resolve(node.announced(), node.identity.public_key),
                              node.announced(), 5000);
    QCOMPARE(peer.service->stats().nodes, std::size_t(0));
  }

  void aServiceRefusesNodesOutsideTheJob() {
    Reachable peer;
    Node node(peer.identity.public_key);
    peer.serve(net::CurveKeyPair::generate().public_key);  // someone else
    net::SecureContext node_side;
    RelayClient client(node_side, node.identity, registration(peer, node.port));
    QTest::qWait(1500);
    QVERIFY(client.state() != RelayState::registered);
    QCOMPARE(peer.ctx.routes().routed_keys(), std::size_t(0));
  }

  // A lane opened while the node had no route (its socket dials an address where nothing
  // answers, and its message waits there) dials the route once it appears: the next message
  // arrives, and the one stuck on the old socket never does.
  void aSenderLaneFollowsARouteThatAppearsLater() {
    Reachable peer;
    Node node(peer.identity.public_key);
    peer.serve(node.identity.public_key);
    net::PeerSender sender(peer.ctx, peer.identity, 4, {},
                           {std::chrono::milliseconds(300), std::chrono::milliseconds(60000)});
    const net::PeerAddress to{node.announced(), node.identity.public_key};
    auto one = [](std::string text) {
      return [text] {
        std::vector<zmq::message_t> frames;
        frames.emplace_back(text.data(), text.size());
        return frames;
      };
    };
    QVERIFY(sender.send(to, one("before the route")));
    QVERIFY(node.receive(nullptr, 500).empty());

    net::SecureContext node_side;
    RelayClient client(node_side, node.identity, registration(peer, node.port));
    QTRY_COMPARE_WITH_TIMEOUT(client.state(), RelayState::registered, 5000);
    QVERIFY(sender.send(to, one("after the route")));
    QCOMPARE(QString::fromStdString(node.receive()), QStringLiteral("after the route"));
    QVERIFY(node.receive(nullptr, 500).empty());
  }
};

QTEST_GUILESS_MAIN(TestReversal)
#include "test_reversal.moc"
