// Dial-back on loopback: the node's own socket answers (whether or not it admits the dialler);
// a socket with another key, a closed port and an address nobody routes do not.
#include <QtTest>

#include "net/identity.hpp"
#include "net/secure_context.hpp"
#include "reach/dial_back.hpp"
#include "reach/tcp.hpp"

using namespace rookery;

namespace {
struct Listener {
  net::SecureContext ctx;
  zmq::socket_t socket;
  std::string endpoint;
  Listener(const net::CurveKeyPair& id, const std::string& admitted_key) {
    if (!admitted_key.empty()) ctx.auth().allow(net::kPeerDomain, admitted_key);
    socket = net::bind_curve_server(ctx, zmq::socket_type::router, "tcp://127.0.0.1:0", id,
                                    net::kPeerDomain, {});
    endpoint = net::last_endpoint(socket);
  }
};
}  // namespace

class TestDialBack : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void answersForTheNodeOnly() {
    const auto node = net::CurveKeyPair::generate();
    const auto other = net::CurveKeyPair::generate();
    const auto coordinator = net::CurveKeyPair::generate();
    Listener admits(node, coordinator.public_key);
    Listener refuses(node, "");  // the node's allow-list does not name the coordinator
    Listener impostor(other, coordinator.public_key);
    std::uint16_t closed_port = 0;
    {
      reach::Fd probe = reach::listen_tcp("127.0.0.1", 0);
      closed_port = reach::local_port(probe.get());
    }
    net::SecureContext ctx;
    const auto results = reach::dial_back(ctx, coordinator,
                                          {admits.endpoint, refuses.endpoint, impostor.endpoint,
                                           "tcp://127.0.0.1:" + std::to_string(closed_port)},
                                          node.public_key, std::chrono::milliseconds(2000));
    QCOMPARE(results.size(), std::size_t(4));
    QVERIFY2(results[0].reachable, results[0].why.c_str());
    QVERIFY2(results[1].reachable, results[1].why.c_str());
    QVERIFY(!results[2].reachable);
    QCOMPARE(QString::fromStdString(results[2].why), QStringLiteral("another key answered"));
    QVERIFY(!results[3].reachable);
    QCOMPARE(QString::fromStdString(results[3].why), QStringLiteral("nothing answered"));
    QVERIFY(results[0].rtt_ms > 0 && results[0].rtt_ms < 2000);
  }

  void aMalformedEndpointIsNamed() {
    const auto node = net::CurveKeyPair::generate();
    net::SecureContext ctx;
    const auto results = reach::dial_back(ctx, node, {"not an endpoint"}, node.public_key,
                                          std::chrono::milliseconds(200));
    QVERIFY(!results[0].reachable);
    QVERIFY2(QString::fromStdString(results[0].why).startsWith("cannot dial"),
             results[0].why.c_str());
  }
};

QTEST_GUILESS_MAIN(TestDialBack)
#include "test_dial_back.moc"
