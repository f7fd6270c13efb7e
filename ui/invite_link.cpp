#include "ui/invite_link.hpp"

#include <QRegularExpression>
#include <QUrl>

namespace rookery::ui {

namespace {

const QString kPrefix = QStringLiteral("rookery://join?");

// ZeroMQ's Z85 alphabet (RFC 32): what a CURVE key is written in.
bool isZ85(QChar c) {
  static const QString alphabet = QStringLiteral(
      "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#");
  return alphabet.contains(c);
}

// tcp://host:port, host a DNS name, an IPv4 address or a bracketed IPv6 address.
const QRegularExpression& endpointPattern() {
  static const QRegularExpression re(QStringLiteral(
      R"(^tcp://(?<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*):(?<port>[0-9]{1,5})$)"));
  return re;
}

}  // namespace

QString InviteLink::checkCoordinator(const QString& endpoint) {
  if (endpoint.isEmpty()) return tr("the link names no coordinator");
  if (!endpoint.startsWith(QLatin1String("tcp://"))) {
    return tr("the coordinator must be a tcp://host:port address, not “%1”").arg(endpoint);
  }
  const auto match = endpointPattern().match(endpoint);
  if (!match.hasMatch()) return tr("“%1” is not a valid tcp://host:port address").arg(endpoint);
  const int port = match.captured(QStringLiteral("port")).toInt();
  if (port < 1 || port > 65535)
    return tr("the coordinator's port must be between 1 and 65535, not %1").arg(port);
  return {};
}

QString InviteLink::checkKey(const QString& key) {
  if (key.isEmpty()) return tr("the link has no coordinator key");
  if (key.size() != 40)
    return tr("the coordinator key must be 40 characters long, it has %1").arg(key.size());
  for (const QChar c : key) {
    if (!isZ85(c))
      return tr("the coordinator key contains “%1”, which is not a Z85 character").arg(c);
  }
  return {};
}

QString InviteLink::checkJob(const QString& job) {
  static const QRegularExpression allowed(QStringLiteral("^[A-Za-z0-9._-]+$"));
  if (job.isEmpty()) return tr("the link names no job");
  if (job.size() > kMaxJobLength)
    return tr("the job id is longer than %1 characters").arg(kMaxJobLength);
  if (!allowed.match(job).hasMatch()) {
    return tr("the job id may hold only letters, digits, '.', '-' and '_'");
  }
  return {};
}

QString InviteLink::checkToken(const QString& token) {
  if (token.size() > kMaxTokenLength)
    return tr("the invite token is longer than %1 characters").arg(kMaxTokenLength);
  for (const QChar c : token) {
    if (c.unicode() <= 0x20 || c.unicode() >= 0x7f)
      return tr("the invite token may hold only visible ASCII characters");
  }
  return {};
}

std::optional<InviteLink> InviteLink::parse(const QString& text, QString* error) {
  auto fail = [error](const QString& why) -> std::optional<InviteLink> {
    if (error) *error = why;
    return std::nullopt;
  };
  const QString link = text.trimmed();
  if (link.isEmpty()) return fail(tr("paste an invite link"));
  if (link.size() > kMaxLength)
    return fail(tr("the link is longer than %1 characters").arg(kMaxLength));
  if (!link.startsWith(kPrefix, Qt::CaseInsensitive)) {
    return fail(tr("an invite link starts with rookery://join?"));
  }
  QString coordinator, key, job, token;
  bool has_coordinator = false, has_key = false, has_job = false, has_token = false;
  const QStringList items = link.mid(kPrefix.size()).split(QLatin1Char('&'));
  for (const QString& item : items) {
    const qsizetype eq = item.indexOf(QLatin1Char('='));
    if (item.isEmpty() || eq <= 0) {
      return fail(
          tr("“%1” in the link is not a name=value pair (is the key percent-encoded?)").arg(item));
    }
    const QString name = item.left(eq);
    // Percent-decoding only: a '+' is a Z85 character here, not a space.
    const QString value = QUrl::fromPercentEncoding(item.mid(eq + 1).toUtf8());
    bool* seen = nullptr;
    QString* target = nullptr;
    if (name == QLatin1String("coordinator")) {
      seen = &has_coordinator, target = &coordinator;
    } else if (name == QLatin1String("key")) {
      seen = &has_key, target = &key;
    } else if (name == QLatin1String("job")) {
      seen = &has_job, target = &job;
    } else if (name == QLatin1String("token")) {
      seen = &has_token, target = &token;
    } else {
      return fail(tr("the link has an unknown part “%1” (is the key percent-encoded?)").arg(name));
    }
    if (*seen) return fail(tr("the link gives “%1” twice").arg(name));
    *seen = true;
    *target = value;
  }
  if (has_token && token.isEmpty()) return fail(tr("the link has an empty invite token"));
  for (const QString& why :
       {checkCoordinator(coordinator), checkKey(key), checkJob(job), checkToken(token)}) {
    if (!why.isEmpty()) return fail(why);
  }
  if (error) error->clear();
  return InviteLink(coordinator, key, job, token);
}

QString InviteLink::host() const {
  const auto match = endpointPattern().match(coordinator_);
  QString host = match.captured(QStringLiteral("host"));
  if (host.startsWith(QLatin1Char('['))) host = host.mid(1, host.size() - 2);
  return host;
}

int InviteLink::port() const {
  return endpointPattern().match(coordinator_).captured(QStringLiteral("port")).toInt();
}

QString InviteLink::toString() const {
  return kPrefix + QStringLiteral("coordinator=") + coordinator_ + QStringLiteral("&key=") +
         QString::fromLatin1(QUrl::toPercentEncoding(key_)) + QStringLiteral("&job=") +
         QString::fromLatin1(QUrl::toPercentEncoding(job_)) +
         (token_.isEmpty()
              ? QString()
              : QStringLiteral("&token=") + QString::fromLatin1(QUrl::toPercentEncoding(token_)));
}

QStringList InviteLink::nodeArguments() const {
  QStringList args{
      QStringLiteral("--coordinator"), coordinator_, QStringLiteral("--coordinator-key"), key_,
      QStringLiteral("--join"),        job_};
  if (!token_.isEmpty()) args << QStringLiteral("--invite-token") << token_;
  return args;
}

}  // namespace rookery::ui
