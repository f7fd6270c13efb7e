// PortMapper's rules against routers the test scripts: the same port outside where it is free,
// another where it is taken, renewal at half the lease, removal, and no router at all.
#include <QtTest>

#include <atomic>
#include <map>
#include <mutex>

#include "reach/port_mapper.hpp"

using namespace rookery::reach;

namespace {

// A router that keeps its table in memory; some external ports are taken by other PCs.
struct FakeRouter {
  std::mutex mutex;
  std::map<std::uint16_t, std::uint16_t> table;  // external → internal
  std::vector<std::uint16_t> taken;
  std::chrono::seconds granted_lease{3600};
  std::atomic<int> requests{0};
  bool refuse_all = false;
};

class FakeGateway final : public RouterGateway {
 public:
  explicit FakeGateway(FakeRouter& r) : router_(r) {}
  std::string protocol() const override { return "NAT-PMP"; }
  std::string external_address() const override { return "198.20.0.2"; }
  std::string internal_address() const override { return "192.168.77.10"; }
  GatewayResult map_tcp(std::uint16_t internal_port, std::uint16_t external_port,
                        std::chrono::seconds) override {
    std::lock_guard lock(router_.mutex);
    ++router_.requests;
    if (router_.refuse_all) return {false, 0, {}, "refused"};
    if (std::find(router_.taken.begin(), router_.taken.end(), external_port) !=
        router_.taken.end()) {
      return {false, 0, {}, "ConflictInMappingEntry (718)"};
    }
    router_.table[external_port] = internal_port;
    return {true, external_port, router_.granted_lease, {}};
  }
  bool unmap_tcp(std::uint16_t, std::uint16_t external_port) override {
    std::lock_guard lock(router_.mutex);
    return router_.table.erase(external_port) == 1;
  }

 private:
  FakeRouter& router_;
};

PortMapper::Discover fake(FakeRouter& r) {
  return [&r](std::string&) -> std::unique_ptr<RouterGateway> {
    return std::make_unique<FakeGateway>(r);
  };
}
PortMapper::Discover none(std::string why) {
  return [why](std::string& error) -> std::unique_ptr<RouterGateway> {
    error = why;
    return nullptr;
  };
}

}  // namespace

class TestPortMapper : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void mapsTheSamePortOutside() {
    FakeRouter router;
    PortMapper mapper({}, {fake(router)});
    const auto s = mapper.map({7000, 7001});
    QCOMPARE(s.method, MappingMethod::nat_pmp);
    QCOMPARE(s.external_address, std::string("198.20.0.2"));
    QCOMPARE(s.ports.size(), std::size_t(2));
    QCOMPARE(s.ports[0].external_port, std::uint16_t(7000));
    QCOMPARE(s.ports[1].external_port, std::uint16_t(7001));
    QVERIFY(s.error.empty());
    QCOMPARE(router.table.size(), std::size_t(2));
  }

  void takesAnotherPortWhenItIsTaken() {
    FakeRouter router;
    router.taken = {7000};
    PortMapper mapper({}, {fake(router)});
    const auto s = mapper.map({7000});
    QCOMPARE(s.ports.size(), std::size_t(1));
    QVERIFY(s.ports[0].external_port != 7000);
    QVERIFY(s.ports[0].external_port >= 1024);
    QCOMPARE(router.table.at(s.ports[0].external_port), std::uint16_t(7000));
  }

  void reportsWhyNothingIsMapped() {
    PortMapper mapper({}, {none("no UPnP internet gateway on the LAN"),
                           none("the router did not answer NAT-PMP")});
    const auto s = mapper.map({7000});
    QCOMPARE(s.method, MappingMethod::none);
    QVERIFY(s.ports.empty());
    QCOMPARE(s.error,
             std::string("no UPnP internet gateway on the LAN; the router did not answer NAT-PMP"));
  }

  void fallsBackToTheSecondProtocol() {
    FakeRouter router;
    PortMapper mapper({}, {none("no UPnP internet gateway on the LAN"), fake(router)});
    QCOMPARE(mapper.map({7000}).ports.size(), std::size_t(1));
  }

  void aRefusedPortIsNamed() {
    FakeRouter router;
    router.refuse_all = true;
    PortMapper mapper({}, {fake(router)});
    const auto s = mapper.map({7000});
    QVERIFY(s.ports.empty());
    QVERIFY2(s.error.find("port 7000: refused") != std::string::npos, s.error.c_str());
  }

  void renewsAtHalfTheLease() {
    FakeRouter router;
    router.granted_lease = std::chrono::seconds(2);  // the router shortens what was asked
    PortMapper mapper({}, {fake(router)});
    QCOMPARE(mapper.map({7000}).lease, std::chrono::seconds(2));
    const int first = router.requests;
    QTRY_VERIFY_WITH_TIMEOUT(mapper.status().renewals >= 2, 5000);
    QVERIFY(router.requests >= first + 2);
    QCOMPARE(router.table.size(), std::size_t(1));
  }

  void removesEveryMapping() {
    FakeRouter router;
    {
      PortMapper mapper({}, {fake(router)});
      mapper.map({7000, 7001});
      mapper.remove();
      QVERIFY(router.table.empty());
      QVERIFY(mapper.status().ports.empty());
      mapper.map({7002});
      QCOMPARE(router.table.size(), std::size_t(1));
    }
    QVERIFY(router.table.empty());  // the destructor removes what is left
  }
};

QTEST_GUILESS_MAIN(TestPortMapper)
#include "test_port_mapper.moc"
