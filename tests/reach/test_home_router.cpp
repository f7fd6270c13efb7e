// PortMapper against a real home router: Debian's miniupnpd in network namespaces
// (home_router_lab.sh), once speaking UPnP IGD and NAT-PMP, once NAT-PMP alone, once not at
// all. A host on the internet side dials the mapped port and reaches a listener on the home PC;
// after remove() the router's rule is gone and the dial fails.
#include <QtTest>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "reach/lab.hpp"
#include "reach/port_mapper.hpp"

using namespace rookery::reach;

namespace {

using rookery::testing::kHomeRouterLab;
using rookery::testing::run_command;

// Moves the calling thread into a named network namespace; the returned fd moves it back.
int enter_netns(const QString& name) {
  const int back = ::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  const int ns = ::open(("/var/run/netns/" + name).toUtf8().constData(), O_RDONLY | O_CLOEXEC);
  if (back < 0 || ns < 0 || ::setns(ns, CLONE_NEWNET) != 0) qFatal("cannot enter netns");
  ::close(ns);
  return back;
}
void leave_netns(int back) {
  if (::setns(back, CLONE_NEWNET) != 0) qFatal("cannot leave netns");
  ::close(back);
}

int listen_on(std::uint16_t& port) {
  const int s = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_ANY);
  socklen_t len = sizeof a;
  if (::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(s, 4) != 0 ||
      ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    qFatal("cannot listen");
  }
  port = ntohs(a.sin_port);
  return s;
}

// Dials address:port from inside namespace `ns` (on a thread of its own, so this thread stays
// where it is); true when the connection is accepted within 3 s.
bool dial_from(const QString& ns, const char* address, std::uint16_t port) {
  bool ok = false;
  std::thread([&] {
    const int back = enter_netns(ns);
    const int s = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    ::inet_pton(AF_INET, address, &a.sin_addr);
    if (::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
      ok = true;
    } else if (errno == EINPROGRESS) {
      pollfd p{s, POLLOUT, 0};
      int err = 0;
      socklen_t len = sizeof err;
      ok = ::poll(&p, 1, 3000) == 1 && ::getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len) == 0 &&
           err == 0;
    }
    ::close(s);
    leave_netns(back);
  }).join();
  return ok;
}

}  // namespace

class TestHomeRouter : public QObject {
  Q_OBJECT

  QString tag_ = QStringLiteral("rk%1").arg(QCoreApplication::applicationPid() % 100000);
  QString ns(const char* which) const { return tag_ + which; }

  void lab(const QString& mode) {
    const int rc = run_command({kHomeRouterLab, "up", tag_, mode});
    if (rc == 77) QSKIP("needs root, ip, nft and miniupnpd (scripts/install-deps.sh)");
    QCOMPARE(rc, 0);
  }
  QString routerRules() { return rookery::testing::router_rules(tag_); }

 private Q_SLOTS:
  void cleanup() { run_command({kHomeRouterLab, "down", tag_}); }

  void mapsThroughTheRouter_data() {
    QTest::addColumn<QString>("mode");
    QTest::addColumn<int>("method");
    QTest::newRow("UPnP IGD") << "upnp" << int(MappingMethod::upnp_igd);
    QTest::newRow("NAT-PMP alone") << "natpmp" << int(MappingMethod::nat_pmp);
  }
  void mapsThroughTheRouter() {
    QFETCH(QString, mode);
    QFETCH(int, method);
    lab(mode);
    const int back = enter_netns(ns("h"));
    std::uint16_t port = 0;
    const int listener = listen_on(port);
    {
      PortMapper mapper({std::chrono::seconds(120), std::chrono::milliseconds(1500)});
      const PortMappingStatus s = mapper.map({port});
      QVERIFY2(s.error.empty(), s.error.c_str());
      QCOMPARE(int(s.method), method);
      QCOMPARE(s.external_address, std::string("198.20.0.2"));
      QCOMPARE(s.internal_address, std::string("192.168.77.10"));
      QCOMPARE(s.ports.size(), std::size_t(1));
      const std::uint16_t outside = s.ports[0].external_port;
      QVERIFY2(routerRules().contains(QStringLiteral("192.168.77.10:%1").arg(port)),
               qPrintable(routerRules()));
      QVERIFY(dial_from(ns("i"), "198.20.0.2", outside));

      mapper.remove();
      QTRY_VERIFY_WITH_TIMEOUT(
          !routerRules().contains(QStringLiteral("192.168.77.10:%1").arg(port)), 3000);
      QVERIFY(!dial_from(ns("i"), "198.20.0.2", outside));
    }
    ::close(listener);
    leave_netns(back);
  }

  void aRouterWithoutMappingSaysSo() {
    lab("none");
    const int back = enter_netns(ns("h"));
    PortMapper mapper({std::chrono::seconds(120), std::chrono::milliseconds(800)});
    const PortMappingStatus s = mapper.map({7000});
    leave_netns(back);
    QCOMPARE(int(s.method), int(MappingMethod::none));
    QVERIFY(s.ports.empty());
    QVERIFY2(s.error.find("UPnP") != std::string::npos, s.error.c_str());
    QVERIFY2(s.error.find("NAT-PMP") != std::string::npos, s.error.c_str());
  }
};

QTEST_GUILESS_MAIN(TestHomeRouter)
#include "test_home_router.moc"
