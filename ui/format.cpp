#include "ui/format.hpp"

#include <QLocale>
#include <QRegularExpression>

namespace rookery::ui {

namespace {
QString number(double v, int decimals) { return QLocale().toString(v, 'f', decimals); }
int decimalsFor(double v) { return v < 10 ? 2 : (v < 100 ? 1 : 0); }
}  // namespace

QString Format::bytes(quint64 bytes) {
  const double b = static_cast<double>(bytes);
  if (b >= 1024.0 * 1024 * 1024) return tr("%1 GiB").arg(number(b / (1024.0 * 1024 * 1024), 1));
  if (b >= 1024.0 * 1024) return tr("%1 MiB").arg(number(b / (1024.0 * 1024), 0));
  if (b >= 1024.0) return tr("%1 KiB").arg(number(b / 1024.0, 0));
  return tr("%1 B").arg(bytes);
}

QString Format::bytesOf(quint64 used, quint64 total) {
  const double gib = 1024.0 * 1024 * 1024;
  if (total >= gib) {
    return tr("%1 / %2 GiB").arg(number(used / gib, 1), number(total / gib, 1));
  }
  return tr("%1 / %2").arg(bytes(used), bytes(total));
}

QString Format::duration(double seconds) {
  const auto s = static_cast<qint64>(seconds);
  if (s < 60) return tr("%1 s").arg(s);
  if (s < 3600) return tr("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
  if (s < 86400)
    return tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
  return tr("%1 d %2 h").arg(s / 86400).arg((s % 86400) / 3600);
}

QString Format::flopCount(double flops) {
  if (flops >= 1e15) return tr("%1 PFLOP").arg(number(flops / 1e15, decimalsFor(flops / 1e15)));
  if (flops >= 1e12) return tr("%1 TFLOP").arg(number(flops / 1e12, decimalsFor(flops / 1e12)));
  return tr("%1 GFLOP").arg(number(flops / 1e9, decimalsFor(flops / 1e9)));
}

QString Format::gflopRate(double gflops) {
  if (gflops >= 1000)
    return tr("%1 TFLOP/s").arg(number(gflops / 1000, decimalsFor(gflops / 1000)));
  return tr("%1 GFLOP/s").arg(number(gflops, 1));
}

QString Format::percent(double percent) { return tr("%1 %").arg(number(percent, 0)); }

QString Format::temperature(double celsius) { return tr("%1 °C").arg(number(celsius, 0)); }

QString Format::power(double watts, double limit_watts) {
  if (limit_watts > 0) return tr("%1 W of %2 W").arg(number(watts, 0), number(limit_watts, 0));
  return tr("%1 W").arg(number(watts, 0));
}

QString Format::count(quint64 n) { return QLocale().toString(n); }

QString Format::blockRange(qint64 first, qint64 last, qint64 total) {
  if (last - first <= 1) return tr("block %1 of %2").arg(first).arg(total);
  return tr("blocks %1–%2 of %3").arg(first).arg(last - 1).arg(total);
}

QString Format::loss(double loss) { return number(loss, loss < 10 ? 3 : 2); }

QString Format::sampleRate(double per_second) {
  return tr("%1 samples/s").arg(number(per_second, per_second < 10 ? 1 : 0));
}

QString Format::blas(const std::string& description) {
  QString text = QString::fromStdString(description);
  // "(LibTorch 2.11.0)" names the framework, not the library: the tooltip keeps it.
  static const QRegularExpression framework(QStringLiteral(" \\(LibTorch [^)]*\\)$"));
  text.remove(framework);
  QString name = text;
  for (const auto& cut : {QStringLiteral(" ("), QStringLiteral(" at ")}) {
    const auto at = name.indexOf(cut);
    if (at > 0) name.truncate(at);
  }
  static const QRegularExpression version(QStringLiteral("\\b\\d+\\.\\d+(\\.\\d+)?\\b"));
  const auto m = version.match(text);
  if (m.hasMatch() && !name.contains(m.captured())) name += QLatin1Char(' ') + m.captured();
  return name;
}

QString Format::sentence(const std::string& text) { return sentence(QString::fromStdString(text)); }

QString Format::sentence(QString s) {
  if (!s.isEmpty()) s[0] = s[0].toUpper();
  return s;
}

QString Format::state(wire::pb::NodeState state, bool connected) {
  if (!connected) return tr("Not running");
  switch (state) {
    case wire::pb::STARTING:
      return tr("Starting");
    case wire::pb::PAUSED:
      return tr("Paused");
    case wire::pb::CONTRIBUTING:
      return tr("Contributing");
    case wire::pb::STOPPING:
      return tr("Stopping");
    case wire::pb::FAILED:
      return tr("Failed");
    default:
      return tr("Unknown");
  }
}

}  // namespace rookery::ui
