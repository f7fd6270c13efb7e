// Codec round trips and their error bounds, special values, and the reduction path.
#include <QTest>

#include <cmath>
#include <limits>
#include <random>

#include "wire/codec.hpp"

using namespace rookery::wire;

class TestCodec : public QObject {
  Q_OBJECT

  static std::vector<float> random_values(std::size_t n, float scale, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> d(0.f, scale);
    std::vector<float> v(n);
    for (auto& x : v) x = d(rng);
    return v;
  }

  static std::vector<float> round_trip(Codec c, const std::vector<float>& in,
                                       std::uint32_t block = kDefaultInt8Block) {
    std::vector<std::byte> buf(encoded_bytes(c, in.size(), block));
    encode_f32(c, in, buf, block);
    std::vector<float> out(in.size());
    decode_f32(c, buf, out, block);
    return out;
  }

 private Q_SLOTS:
  void roundTripBounds_data() {
    QTest::addColumn<int>("codec");
    QTest::addColumn<double>(
        "relBound");  // per value, relative to |x| (fp16/bf16) or block absmax (int8)
    QTest::newRow("none") << int(Codec::None) << 0.0;
    QTest::newRow("fp16") << int(Codec::Fp16) << std::ldexp(1.0, -11);
    QTest::newRow("bf16") << int(Codec::Bf16) << std::ldexp(1.0, -8);
    QTest::newRow("int8") << int(Codec::Int8Block) << 1.0 / 254.0;
  }
  void roundTripBounds() {
    QFETCH(int, codec);
    QFETCH(double, relBound);
    const auto c = static_cast<Codec>(codec);
    for (std::size_t n : {1u, 7u, 255u, 256u, 257u, 10000u}) {
      const auto in = random_values(n, 3.f, static_cast<unsigned>(n));
      const auto out = round_trip(c, in);
      for (std::size_t i = 0; i < n; ++i) {
        double bound;
        if (c == Codec::Int8Block) {
          const std::size_t b0 = i / kDefaultInt8Block * kDefaultInt8Block;
          float absmax = 0;
          for (std::size_t j = b0; j < std::min(n, b0 + kDefaultInt8Block); ++j)
            absmax = std::max(absmax, std::fabs(in[j]));
          bound = absmax * relBound * (1 + 1e-6);
        } else {
          bound = std::fabs(in[i]) * relBound;
        }
        QVERIFY2(
            std::fabs(out[i] - in[i]) <= bound,
            qPrintable(QString("n=%1 i=%2 in=%3 out=%4").arg(n).arg(i).arg(in[i]).arg(out[i])));
      }
    }
  }

  void fp16SpecialValues() {
    const float inf = std::numeric_limits<float>::infinity();
    QCOMPARE(f16_to_f32(f32_to_f16(0.f)), 0.f);
    QVERIFY(std::signbit(f16_to_f32(f32_to_f16(-0.f))));
    QCOMPARE(f16_to_f32(f32_to_f16(inf)), inf);
    QCOMPARE(f16_to_f32(f32_to_f16(-inf)), -inf);
    QVERIFY(std::isnan(f16_to_f32(f32_to_f16(std::nanf("")))));
    QCOMPARE(f16_to_f32(f32_to_f16(65504.f)), 65504.f);              // largest half
    QCOMPARE(f16_to_f32(f32_to_f16(70000.f)), inf);                  // overflows to infinity
    QCOMPARE(f16_to_f32(f32_to_f16(5.9604645e-8f)), 5.9604645e-8f);  // smallest subnormal
    QCOMPARE(f16_to_f32(f32_to_f16(1e-9f)), 0.f);                    // underflows to zero
    // Every half value survives half -> float -> half exactly.
    for (std::uint32_t h = 0; h < 0x10000; ++h) {
      const float f = f16_to_f32(static_cast<std::uint16_t>(h));
      if (std::isnan(f)) continue;
      QCOMPARE(f32_to_f16(f), static_cast<std::uint16_t>(h));
    }
  }

  void bf16SpecialValues() {
    QVERIFY(std::isnan(bf16_to_f32(f32_to_bf16(std::nanf("")))));
    QCOMPARE(bf16_to_f32(f32_to_bf16(1.f)), 1.f);
    QCOMPARE(bf16_to_f32(f32_to_bf16(-2.5f)), -2.5f);
    // Round to nearest even: 1 + 2^-8 is halfway between 1 and 1 + 2^-7 and rounds to 1.
    QCOMPARE(bf16_to_f32(f32_to_bf16(1.f + std::ldexp(1.f, -8))), 1.f);
  }

  void int8NonFiniteBlockBecomesNaN() {
    std::vector<float> in(300, 1.f);
    in[10] = std::numeric_limits<float>::infinity();
    const auto out = round_trip(Codec::Int8Block, in);
    QVERIFY(std::isnan(out[0]));  // the poisoned block is visibly poisoned
    QCOMPARE(out[299], 1.f);      // the next block is intact
  }

  void decodeAddAccumulates() {
    const auto a = random_values(1000, 1.f, 1);
    const auto b = random_values(1000, 1.f, 2);
    for (auto c : {Codec::None, Codec::Fp16, Codec::Bf16, Codec::Int8Block}) {
      std::vector<std::byte> buf(encoded_bytes(c, b.size()));
      encode_f32(c, b, buf);
      std::vector<float> acc = a, decoded(b.size());
      decode_add_f32(c, buf, acc);
      decode_f32(c, buf, decoded);
      for (std::size_t i = 0; i < a.size(); ++i) QCOMPARE(acc[i], a[i] + decoded[i]);
      // Both sides weighted in the same pass, the own values read from elsewhere: the ring's
      // first hop, whose values travel unweighted with their sender's weight.
      std::vector<float> weighted(a.size(), std::numeric_limits<float>::quiet_NaN());
      decode_add_f32(c, buf, weighted, kDefaultInt8Block, 3.f, a.data(), 0.25f);
      for (std::size_t i = 0; i < a.size(); ++i) {
        const double want = 3.0 * a[i] + 0.25 * decoded[i];
        QVERIFY2(std::fabs(weighted[i] - want) <= 1e-6 * (std::fabs(want) + 1),
                 qPrintable(QString::number(i)));
      }
    }
  }

  void sizeMismatchThrows() {
    std::vector<float> in(10);
    std::vector<std::byte> small(19);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, encode_f32(Codec::Fp16, in, small));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, codec_from_name("zstd"));
    QCOMPARE(codec_from_name("int8"), Codec::Int8Block);
  }
};

QTEST_APPLESS_MAIN(TestCodec)
#include "test_codec.moc"
