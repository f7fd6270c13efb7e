// libFuzzer target: the invite-link parser (ui/invite_link.hpp InviteLink::parse) on arbitrary
// text, as a user pastes it or a rookery:// link opens the app. Needs only Qt Core, so it is
// built without the GUI. A refusal must say why; an accepted link must round-trip through
// toString() and its parts must each pass their own check.
#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "ui/invite_link.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using rookery::ui::InviteLink;
  const QString text =
      QString::fromUtf8(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
  QString error;
  const auto invite = InviteLink::parse(text, &error);
  if (!invite) {
    if (error.isEmpty()) std::abort();  // every refusal names what is wrong
    return 0;
  }
  if (!error.isEmpty()) std::abort();
  if (!InviteLink::checkCoordinator(invite->coordinator()).isEmpty() ||
      !InviteLink::checkKey(invite->key()).isEmpty() ||
      !InviteLink::checkJob(invite->job()).isEmpty() ||
      !InviteLink::checkToken(invite->token()).isEmpty()) {
    std::abort();
  }
  if (invite->host().isEmpty() || invite->port() < 1 || invite->port() > 65535) std::abort();
  QString again_error;
  const auto again = InviteLink::parse(invite->toString(), &again_error);
  if (!again || !(*again == *invite)) std::abort();  // parse(toString()) gives the same invite
  const int arguments = static_cast<int>(invite->nodeArguments().size());
  if (arguments != (invite->token().isEmpty() ? 6 : 8)) std::abort();
  return 0;
}
