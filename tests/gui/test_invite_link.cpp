// Invite links: what a valid one holds, that it survives a round trip, and that every kind
// of malformed link is refused with a reason.
#include <QTest>
#include <QUrl>

#include "ui/invite_link.hpp"

using rookery::ui::InviteLink;

namespace {
// A real key's shape: 40 characters, several of which a URL would mangle unencoded.
const QString kKey = QStringLiteral("rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7");
const QString kCoordinator = QStringLiteral("tcp://coordinator.example.org:7461");

QString link(const QString& coordinator, const QString& key, const QString& job) {
  return QStringLiteral("rookery://join?coordinator=%1&key=%2&job=%3")
      .arg(coordinator, QString::fromLatin1(QUrl::toPercentEncoding(key)), job);
}
}  // namespace

class TestInviteLink : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void parsesAValidLink() {
    QString error = QStringLiteral("stale");
    const auto invite = InviteLink::parse(
        QStringLiteral("  ") + link(kCoordinator, kKey, QStringLiteral("demo-bytes-gpt")) +
            QStringLiteral("\n"),
        &error);
    QVERIFY2(invite, qPrintable(error));
    QVERIFY(error.isEmpty());
    QCOMPARE(invite->coordinator(), kCoordinator);
    QCOMPARE(invite->key(), kKey);
    QCOMPARE(invite->job(), QStringLiteral("demo-bytes-gpt"));
    QCOMPARE(invite->host(), QStringLiteral("coordinator.example.org"));
    QCOMPARE(invite->port(), 7461);
    QVERIFY(invite->token().isEmpty());
    QCOMPARE(invite->nodeArguments(),
             QStringList({QStringLiteral("--coordinator"), kCoordinator,
                          QStringLiteral("--coordinator-key"), kKey, QStringLiteral("--join"),
                          QStringLiteral("demo-bytes-gpt")}));
  }

  void acceptsAddressesAndEncodings() {
    for (const QString& coordinator :
         {QStringLiteral("tcp://127.0.0.1:1"), QStringLiteral("tcp://[::1]:65535"),
          QStringLiteral("tcp://localhost:7461"), QStringLiteral("tcp://a-b.c9.de:80")}) {
      QString error;
      QVERIFY2(InviteLink::parse(link(coordinator, kKey, QStringLiteral("j")), &error),
               qPrintable(coordinator + QStringLiteral(": ") + error));
    }
    // Parameters in any order, the coordinator percent-encoded too, the scheme in capitals.
    const QString reordered =
        QStringLiteral("ROOKERY://JOIN?job=run.2_b&key=%1&coordinator=tcp%3A%2F%2F10.0.0.5%3A9000")
            .arg(QString::fromLatin1(QUrl::toPercentEncoding(kKey)));
    QString error;
    const auto invite = InviteLink::parse(reordered, &error);
    QVERIFY2(invite, qPrintable(error));
    QCOMPARE(invite->coordinator(), QStringLiteral("tcp://10.0.0.5:9000"));
    QCOMPARE(invite->job(), QStringLiteral("run.2_b"));
    QCOMPARE(invite->key(), kKey);
  }

  void carriesAnInviteToken() {
    // An invite-only job's token, percent-encoded like the key; the node gets --invite-token.
    const QString token = QStringLiteral("t0k&n=+/x");
    const QString text = link(kCoordinator, kKey, QStringLiteral("private-run")) +
                         QStringLiteral("&token=") +
                         QString::fromLatin1(QUrl::toPercentEncoding(token));
    QString error;
    const auto invite = InviteLink::parse(text, &error);
    QVERIFY2(invite, qPrintable(error));
    QCOMPARE(invite->token(), token);
    QCOMPARE(invite->nodeArguments().mid(6),
             (QStringList{QStringLiteral("--invite-token"), token}));
    QCOMPARE(*InviteLink::parse(invite->toString()), *invite);
  }

  void roundTrips() {
    const InviteLink original(QStringLiteral("tcp://[fe80::1]:7000"), kKey,
                              QStringLiteral("job-1"));
    const QString text = original.toString();
    QVERIFY(
        text.startsWith(QStringLiteral("rookery://join?coordinator=tcp://[fe80::1]:7000&key=")));
    QVERIFY2(!text.mid(text.indexOf(QStringLiteral("key="))).contains(QLatin1Char('#')),
             qPrintable(text));
    const auto parsed = InviteLink::parse(text);
    QVERIFY(parsed);
    QCOMPARE(*parsed, original);
    QCOMPARE(parsed->host(), QStringLiteral("fe80::1"));
  }

  void refusesMalformedLinks_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("reason");  // a word the error must contain
    const QString k = QString::fromLatin1(QUrl::toPercentEncoding(kKey));
    const QString good = QStringLiteral("coordinator=tcp://h:1&key=%1&job=j").arg(k);
    QTest::newRow("empty") << QString() << "paste";
    QTest::newRow("blank") << QStringLiteral("   ") << "paste";
    QTest::newRow("https") << QStringLiteral("https://join?%1").arg(good) << "rookery://join?";
    QTest::newRow("other action") << QStringLiteral("rookery://leave?%1").arg(good)
                                  << "rookery://join?";
    QTest::newRow("no query") << QStringLiteral("rookery://join?") << "name=value";
    QTest::newRow("no coordinator")
        << QStringLiteral("rookery://join?key=%1&job=j").arg(k) << "coordinator";
    QTest::newRow("no key") << QStringLiteral("rookery://join?coordinator=tcp://h:1&job=j")
                            << "key";
    QTest::newRow("no job") << QStringLiteral("rookery://join?coordinator=tcp://h:1&key=%1").arg(k)
                            << "job";
    QTest::newRow("empty job") << QStringLiteral("rookery://join?%1")
                                      .arg(good)
                                      .replace(QStringLiteral("job=j"), QStringLiteral("job="))
                               << "job";
    QTest::newRow("job with blank")
        << QStringLiteral("rookery://join?%1")
               .arg(good)
               .replace(QStringLiteral("job=j"), QStringLiteral("job=a%20b"))
        << "job id";
    QTest::newRow("job too long") << QStringLiteral("rookery://join?%1")
                                         .arg(good)
                                         .replace(QStringLiteral("job=j"),
                                                  QStringLiteral("job=") +
                                                      QString(129, QLatin1Char('x')))
                                  << "128";
    QTest::newRow("duplicate job")
        << QStringLiteral("rookery://join?%1&job=k").arg(good) << "twice";
    QTest::newRow("unknown part") << QStringLiteral("rookery://join?%1&secret=abc").arg(good)
                                  << "secret";
    QTest::newRow("empty token") << QStringLiteral("rookery://join?%1&token=").arg(good)
                                 << "empty invite token";
    QTest::newRow("token with blank")
        << QStringLiteral("rookery://join?%1&token=a%20b").arg(good) << "visible ASCII";
    QTest::newRow("token too long")
        << QStringLiteral("rookery://join?%1&token=").arg(good) + QString(257, QLatin1Char('t'))
        << "256";
    QTest::newRow("duplicate token")
        << QStringLiteral("rookery://join?%1&token=a&token=b").arg(good) << "twice";
    QTest::newRow("not a pair") << QStringLiteral("rookery://join?%1&&").arg(good) << "name=value";
    QTest::newRow("udp") << QStringLiteral("rookery://join?%1")
                                .arg(good)
                                .replace(QStringLiteral("tcp://h:1"), QStringLiteral("udp://h:1"))
                         << "tcp://";
    QTest::newRow("no port") << QStringLiteral("rookery://join?%1")
                                    .arg(good)
                                    .replace(QStringLiteral("tcp://h:1"), QStringLiteral("tcp://h"))
                             << "tcp://host:port";
    QTest::newRow("port 0") << QStringLiteral("rookery://join?%1")
                                   .arg(good)
                                   .replace(QStringLiteral("tcp://h:1"),
                                            QStringLiteral("tcp://h:0"))
                            << "65535";
    QTest::newRow("port too big") << QStringLiteral("rookery://join?%1")
                                         .arg(good)
                                         .replace(QStringLiteral("tcp://h:1"),
                                                  QStringLiteral("tcp://h:70000"))
                                  << "65535";
    QTest::newRow("host with blank")
        << QStringLiteral("rookery://join?%1")
               .arg(good)
               .replace(QStringLiteral("tcp://h:1"), QStringLiteral("tcp://a%20b:1"))
        << "tcp://host:port";
    QTest::newRow("path after port")
        << QStringLiteral("rookery://join?%1")
               .arg(good)
               .replace(QStringLiteral("tcp://h:1"), QStringLiteral("tcp://h:1/x"))
        << "tcp://host:port";
    QTest::newRow("short key") << QStringLiteral(
                                      "rookery://join?coordinator=tcp://h:1&key=%1&job=j")
                                      .arg(k.left(k.size() - 1))
                               << "40";
    QTest::newRow("non-Z85 key") << QStringLiteral(
                                        "rookery://join?coordinator=tcp://h:1&key=%1&job=j")
                                        .arg(QString(39, QLatin1Char('a')) + QStringLiteral("%7E"))
                                 << "Z85";
    // The key pasted without percent-encoding: its '&' cuts it, what follows is no pair.
    QTest::newRow("unencoded key")
        << QStringLiteral(
               "rookery://join?coordinator=tcp://"
               "h:1&key=abcdefghij&klmnopqrstuvwxyzABCDEFGHIJKLMNOPQ&job=j")
        << "percent-encoded";
    QTest::newRow("too long") << QStringLiteral("rookery://join?%1&").arg(good) +
                                     QString(3000, QLatin1Char('x'))
                              << "2048";
  }

  void refusesMalformedLinks() {
    QFETCH(QString, text);
    QFETCH(QString, reason);
    QString error;
    QVERIFY(!InviteLink::parse(text, &error));
    QVERIFY2(error.contains(reason, Qt::CaseInsensitive),
             qPrintable(QStringLiteral("%1 → %2").arg(text.left(120), error)));
    QVERIFY(!InviteLink::parse(text));  // and without asking for the reason
  }
};

QTEST_GUILESS_MAIN(TestInviteLink)
#include "test_invite_link.moc"
