#pragma once
// An invitation to a training swarm, as one link a job owner hands out:
//
//   rookery://join?coordinator=tcp://host:port&key=<coordinator's public key>&job=<job id>
//                 [&token=<invite token>]
//
// `key` is the coordinator's 40-character Z85 CURVE key, percent-encoded in the link (Z85
// uses '&', '#', '%', '+' and '?'); `token` is there when the job is invite-only
// (rookery-coordinator --invite-token). This is the one place that defines and validates
// it; parse() names what is wrong with a malformed link in words for the user.
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
  static constexpr int kMaxTokenLength = 256;

  InviteLink() = default;
  InviteLink(QString coordinator, QString key, QString job, QString token = {})
      : coordinator_(std::move(coordinator)),
        key_(std::move(key)),
        job_(std::move(job)),
        token_(std::move(token)) {}

  // The link the user pasted (surrounding blanks ignored). On failure returns nothing and,
  // when `error` is given, says why ("the key must be 40 characters of Z85, it has 39").
  static std::optional<InviteLink> parse(const QString& text, QString* error = nullptr);

  // Each part on its own, with the same rules as parse() (empty string: valid).
  static QString checkCoordinator(const QString& endpoint);
  static QString checkKey(const QString& key);
  static QString checkJob(const QString& job);
  static QString checkToken(const QString& token);  // empty: no token, valid

  const QString& coordinator() const { return coordinator_; }  // tcp://host:port
  const QString& key() const { return key_; }
  const QString& job() const { return job_; }
  const QString& token() const { return token_; }
  QString host() const;
  int port() const;

  // The link again, with the key percent-encoded: parse(toString()) gives the same invite.
  QString toString() const;
  // What rookery-node needs to join the job: --coordinator … --coordinator-key … --join …
  // (and --invite-token … when the link carries one).
  QStringList nodeArguments() const;

  friend bool operator==(const InviteLink&, const InviteLink&) = default;

 private:
  QString coordinator_;
  QString key_;
  QString job_;
  QString token_;
};

}  // namespace rookery::ui
