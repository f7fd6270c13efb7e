#pragma once
// Quantities in words the user reads: bytes, durations, FLOP counts and rates, node states.
// Numbers follow the user's locale; units and words go through tr().
#include <QCoreApplication>
#include <QString>

#include "rookery/control.pb.h"

namespace rookery::ui {

class Format {
  Q_DECLARE_TR_FUNCTIONS(Format)

 public:
  static QString bytes(quint64 bytes);                     // "3.2 GiB"
  static QString bytesOf(quint64 used, quint64 total);     // "3.2 / 24.0 GiB"
  static QString duration(double seconds);                 // "2 h 05 min", "42 s"
  static QString flopCount(double flops);                  // "1.23 TFLOP", "512 GFLOP"
  static QString gflopRate(double gflops);                 // "45.6 GFLOP/s", "1.20 TFLOP/s"
  static QString percent(double percent);                  // "87 %"
  static QString temperature(double celsius);              // "64 °C"
  static QString power(double watts, double limit_watts);  // "220 W of 350 W"
  static QString count(quint64 n);                         // "12,345"
  // A shard [first, last) of a model of `total` blocks, as block indices: "blocks 0–2 of 6".
  static QString blockRange(qint64 first, qint64 last, qint64 total);
  static QString loss(double loss);              // "2.314"
  static QString sampleRate(double per_second);  // "123 samples/s", "4.5 samples/s"
  // The math library the node reports, short: "Intel oneMKL 2024.2" from
  // "Intel oneMKL 2024.2 (LibTorch 2.11.0)", "OpenBLAS 0.3.21" from its long description.
  static QString blas(const std::string& description);
  // Text from the node ("paused: press Contribute"), with a capital first letter.
  static QString sentence(const std::string& text);
  static QString sentence(QString text);
  // The node's state in words; `connected` false means no node answers.
  static QString state(wire::pb::NodeState state, bool connected);
};

}  // namespace rookery::ui
