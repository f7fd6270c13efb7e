// A join's proof of work: the nonce found gives the bits asked for, and is checked with one
// hash; the hash depends on the job, the key and the nonce; a search can be stopped; more than
// the most bits is refused.
#include <QTest>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "net/join_work.hpp"

using namespace rookery;

class TestJoinWork : public QObject {
  Q_OBJECT

  const std::string key_ = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7";

 private Q_SLOTS:
  void theNonceFoundGivesTheBits() {
    for (const unsigned bits : {0u, 1u, 8u, 14u}) {
      const auto nonce = net::find_join_work("job", key_, bits);
      QVERIFY(nonce);
      QVERIFY(net::join_work_bits("job", key_, *nonce) >= bits);
      // The first such nonce: every one before it gives fewer.
      for (std::uint64_t n = 0; n < *nonce && n < 2000; ++n) {
        QVERIFY(net::join_work_bits("job", key_, n) < bits);
      }
    }
  }

  void theHashBindsJobKeyAndNonce() {
    // Over 64 nonces the three hashes agree on their zero bits only by chance; all 64 agreeing
    // would mean the job or key is not hashed.
    int same_as_other_job = 0, same_as_other_key = 0;
    for (std::uint64_t n = 0; n < 64; ++n) {
      const auto bits = net::join_work_bits("job", key_, n);
      QCOMPARE(net::join_work_bits("job", key_, n), bits);  // deterministic
      same_as_other_job += net::join_work_bits("job2", key_, n) == bits;
      same_as_other_key += net::join_work_bits("job", std::string(40, 'x'), n) == bits;
    }
    QVERIFY(same_as_other_job < 64);
    QVERIFY(same_as_other_key < 64);
    // "ab" + key and "a" + "b..." are not the same input.
    QVERIFY(net::find_join_work("ab", key_, 12) != net::find_join_work("a", "b" + key_, 12));
  }

  void aSearchCanBeStopped() {
    std::atomic<bool> stop{false};
    std::thread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      stop = true;
    });
    const auto started = std::chrono::steady_clock::now();
    const auto nonce = net::find_join_work("job", key_, net::kMaxJoinWorkBits, &stop);
    stopper.join();
    QVERIFY(!nonce);  // 2^32 hashes take far longer than the 100 ms it was given
    QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(10));
  }

  void moreThanTheMostIsRefused() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             net::find_join_work("job", key_, net::kMaxJoinWorkBits + 1));
  }
};

QTEST_GUILESS_MAIN(TestJoinWork)
#include "test_join_work.moc"
