#pragma once
// An invitation to a training swarm, as one link a job owner hands out:
//
//   rookery://join?coordinator=tcp://host:port&key=<coordinator's public key>&job=<job id>
//
// `key` is the coordinator's 40-character Z85 CURVE key, percent-encoded in the link (Z85
// uses '&', '#', '%', '+' and '?'). This is the one place that defines and validates it;
// parse() names what is wrong with a malformed link in words for the user.
#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <optional>

namespace rookery::ui {

class InviteLink {
  Q_DECLARE_TR_FUNCTIONS(rookery::ui::InviteLink)

 public:
  static constexpr int kMaxLength = 2048;
  static constexpr int kMaxJobLength = 128;

  InviteLink() = default;
  InviteLink(QString coordinator, QString key, QString job)
      : coordinator_(std::move(coordinator)), key_(std::move(key)), job_(std::move(job)) {}

  // The link the user pasted (surrounding blanks ignored). On failure returns nothing and,
  // when `error` is given, says why ("the key must be 40 characters of Z85, it has 39").
  static std::optional<InviteLink> parse(const QString& text, QString* error = nullptr);

  // Each part on its own, with the same rules as parse() (empty string: valid).
  static QString checkCoordinator(const QString& endpoint);
  static QString checkKey(const QString& key);
  static QString checkJob(const QString& job);

  const QString& coordinator() const { return coordinator_; }  // tcp://host:port
  const QString& key() const { return key_; }
  const QString& job() const { return job_; }
  QString host() const;
  int port() const;

  // The link again, with the key percent-encoded: parse(toString()) gives the same invite.
  QString toString() const;
  // What rookery-node needs to reach the coordinator: --coordinator … --coordinator-key ….
  QStringList nodeArguments() const;

  friend bool operator==(const InviteLink&, const InviteLink&) = default;

 private:
  QString coordinator_;
  QString key_;
  QString job_;
};

}  // namespace rookery::ui
