#include <torch/torch.h>

#include "data/batch.hpp"
#include "data/image_dataset.hpp"
#include "data/open_dataset.hpp"
#include "data/text_datasets.hpp"

#include <QtTest/QtTest>

#include <cmath>
#include <fstream>
#include <set>

using namespace rookery;
using namespace rookery::data;

namespace {

void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string tokens_le(const std::vector<uint16_t>& ids) {
  std::string out;
  for (uint16_t id : ids) {
    out.push_back(char(id & 0xff));
    out.push_back(char(id >> 8));
  }
  return out;
}

std::string be32(uint32_t v) {
  return {char(v >> 24), char((v >> 16) & 0xff), char((v >> 8) & 0xff), char(v & 0xff)};
}

// IDX unsigned-byte file with the given dimensions; data byte i = (i * 7 + salt) % 256.
std::string idx(const std::vector<uint32_t>& dims, int salt, size_t drop_tail = 0) {
  std::string out{'\0', '\0', '\x08', char(dims.size())};
  size_t n = 1;
  for (uint32_t d : dims) {
    out += be32(d);
    n *= d;
  }
  for (size_t i = 0; i < n - drop_tail; ++i) out.push_back(char((i * 7 + size_t(salt)) % 256));
  return out;
}

template <typename F>
void expect_dataset_error(F&& f, const std::string& fragment) {
  try {
    f();
    QFAIL("no DatasetError");
  } catch (const DatasetError& e) {
    QVERIFY2(std::string(e.what()).find(fragment) != std::string::npos, e.what());
  }
}

}  // namespace

class TestDatasets : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  std::filesystem::path at(const char* name) const {
    return std::filesystem::path(dir_.path().toStdString()) / name;
  }

 private Q_SLOTS:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void textWindowsAreShiftedByOne() {
    write_file(at("abc.txt"), "abcdefghij");  // 10 bytes
    const TextBytesDataset d(at("abc.txt"), 4, 1, 0, /*shuffle=*/false);
    QCOMPARE(d.size(), 6);  // windows of 5 bytes start at 0..5
    const Batch b = make_batch(d, 2, 2);
    QCOMPARE(b.inputs.sizes().vec(), (std::vector<int64_t>{2, 4}));
    QCOMPARE(b.inputs.scalar_type(), torch::kLong);
    QVERIFY(torch::equal(b.inputs[0], torch::tensor({'c', 'd', 'e', 'f'}, torch::kLong)));
    QVERIFY(torch::equal(b.targets[0], torch::tensor({'d', 'e', 'f', 'g'}, torch::kLong)));
    QVERIFY(torch::equal(b.inputs[1], torch::tensor({'d', 'e', 'f', 'g'}, torch::kLong)));
    QCOMPARE(b.first_sample_id, 2);
    // the id after the last position wraps into the next epoch
    QVERIFY(torch::equal(make_batch(d, 6, 1).inputs[0],
                         torch::tensor({'a', 'b', 'c', 'd'}, torch::kLong)));
  }

  void textStrideAndHighBytes() {
    write_file(at("high.bin"), std::string("\x00\xff\x80\x7f\x01\x02\x03", 7));
    const TextBytesDataset d(at("high.bin"), 2, 2, 0, false);
    QCOMPARE(d.size(), 3);  // starts 0, 2, 4
    const Batch b = make_batch(d, 0, 3);
    QVERIFY(
        torch::equal(b.inputs, torch::tensor({0, 255, 128, 127, 1, 2}, torch::kLong).view({3, 2})));
    QVERIFY(torch::equal(b.targets,
                         torch::tensor({255, 128, 127, 1, 2, 3}, torch::kLong).view({3, 2})));
  }

  void textFolderIsReadInSortedOrder() {
    const auto folder = at("corpus");
    std::filesystem::create_directory(folder);
    write_file(folder / "b.txt", "456");
    write_file(folder / "a.txt", "123");
    write_file(folder / "c.txt", "789");
    write_file(folder / ".hidden", "xxxxxxxx");
    std::filesystem::create_directory(folder / "sub");
    const TextBytesDataset d(folder, 8, 1, 0, false);
    QCOMPARE(d.files().size(), size_t(3));
    QCOMPARE(d.size(), 1);
    QVERIFY(torch::equal(make_batch(d, 0, 1).inputs[0],
                         torch::tensor({'1', '2', '3', '4', '5', '6', '7', '8'}, torch::kLong)));
  }

  void textErrors() {
    write_file(at("short.txt"), "abc");
    expect_dataset_error([&] { TextBytesDataset(at("short.txt"), 4, 1, 0); },
                         "short.txt: holds 3 bytes, fewer than one sample needs (context 4 + 1)");
    expect_dataset_error([&] { TextBytesDataset(at("missing.txt"), 4, 1, 0); },
                         "missing.txt: does not exist");
    std::filesystem::create_directory(at("empty"));
    expect_dataset_error([&] { TextBytesDataset(at("empty"), 4, 1, 0); },
                         "empty: folder holds no text files");
  }

  // 900 letters then 100 digits: a window's bytes say which part of the text it came from.
  static std::string letters_then_digits() {
    std::string text;
    for (int i = 0; i < 900; ++i) text.push_back(char('a' + i % 26));
    for (int i = 0; i < 100; ++i) text.push_back(char('0' + i % 10));
    return text;
  }

  void heldOutIsTheEndOfTheTextAndNoTrainingWindowTouchesIt() {
    write_file(at("split.txt"), letters_then_digits());
    const TextBytesDataset d(at("split.txt"), 8, 1, /*order_seed=*/5, /*shuffle=*/true, 0.1);
    // 100 bytes held out: training windows of 9 bytes must end by byte 900.
    QCOMPARE(d.size(), 900 - 9 + 1);
    QCOMPARE(d.held_out_size(), (100 - 1) / 8);  // disjoint windows every `context` bytes
    // Two epochs of every training sample id: letters only, inputs and targets.
    const Batch train = make_batch(d, 0, 2 * d.size());
    QVERIFY(train.inputs.ge('a').all().item<bool>() && train.targets.ge('a').all().item<bool>());
    // Every held-out window: digits only, starting every 8 bytes from byte 900.
    const Batch held = make_held_out_batch(d, 0, d.held_out_size());
    QVERIFY(held.held_out && !train.held_out);
    QVERIFY(held.inputs.le('9').all().item<bool>() && held.targets.le('9').all().item<bool>());
    QVERIFY(torch::equal(held.inputs[0],
                         torch::tensor({'0', '1', '2', '3', '4', '5', '6', '7'}, torch::kLong)));
    QVERIFY(torch::equal(held.targets[1],
                         torch::tensor({'9', '0', '1', '2', '3', '4', '5', '6'}, torch::kLong)));
    // The last window, 12th, starts at byte 988 and ends at byte 996 (digit 6); the 3 bytes
    // after it make no whole window.
    QCOMPARE(held.inputs[d.held_out_size() - 1][0].item<int64_t>(), int64_t('8'));
    QCOMPARE(held.targets[d.held_out_size() - 1][7].item<int64_t>(), int64_t('6'));
  }

  void aLongTextHoldsOutTheEndOfEachStripe() {
    // Three stripes of 64 Ki bytes (the last one 2 bytes longer), each ending in 10% digits.
    constexpr int64_t kStripe = kHeldOutStripeTokens;
    std::string text;
    for (const int64_t length : {kStripe, kStripe, kStripe + 2}) {
      const auto held = int64_t(std::floor(double(length) * 0.1));
      for (int64_t i = 0; i < length; ++i)
        text.push_back(i < length - held ? char('a' + i % 26) : char('0' + i % 10));
    }
    write_file(at("stripes.txt"), text);
    const TextBytesDataset d(at("stripes.txt"), 8, 1, 3, true, 0.1);
    const int64_t held = int64_t(std::floor(double(kStripe) * 0.1)),
                  held_last = int64_t(std::floor(double(kStripe + 2) * 0.1));
    QCOMPARE(d.size(), 2 * (kStripe - held - 8) + (kStripe + 2 - held_last - 8));
    QCOMPARE(d.held_out_size(), 2 * ((held - 1) / 8) + (held_last - 1) / 8);
    const Batch train = make_batch(d, 0, d.size());
    QVERIFY(train.inputs.ge('a').all().item<bool>() && train.targets.ge('a').all().item<bool>());
    const Batch all = make_held_out_batch(d, 0, d.held_out_size());
    QVERIFY(all.inputs.le('9').all().item<bool>() && all.targets.le('9').all().item<bool>());
    // The second stripe's first held-out window starts at its byte 64 Ki - held.
    const int64_t first_of_second = (held - 1) / 8;
    const int64_t digit = (kStripe - held) % 10;
    QCOMPARE(all.inputs[first_of_second][0].item<int64_t>(), int64_t('0' + digit));
    // Without a held-out part there are no stripes: every window of the text trains.
    QCOMPARE(TextBytesDataset(at("stripes.txt"), 8, 1, 3).size(), int64_t(text.size()) - 8);
  }

  void heldOutWindowsAreTheSameEveryTime() {
    write_file(at("split.txt"), letters_then_digits());
    const TextBytesDataset a(at("split.txt"), 8, 1, 5, true, 0.1);
    const TextBytesDataset b(at("split.txt"), 8, 1, 5, true, 0.1);
    const TextBytesDataset other_order(at("split.txt"), 8, 3, 77, false, 0.1);
    const Batch first = make_held_out_batch(a, 0, a.held_out_size());
    QVERIFY(torch::equal(first.inputs, make_held_out_batch(a, 0, a.held_out_size()).inputs));
    QVERIFY(torch::equal(first.targets, make_held_out_batch(b, 0, b.held_out_size()).targets));
    // The training order and stride change which training windows there are, not these.
    QCOMPARE(other_order.held_out_size(), a.held_out_size());
    QVERIFY(
        torch::equal(first.inputs, make_held_out_batch(other_order, 0, a.held_out_size()).inputs));
    QCOMPARE(other_order.size(), (900 - 9) / 3 + 1);
    // Parts of it are the same windows as the whole.
    QVERIFY(torch::equal(make_held_out_batch(a, 3, 4).inputs, first.inputs.slice(0, 3, 7)));
  }

  void heldOutBoundsAreChecked() {
    write_file(at("split.txt"), letters_then_digits());
    const TextBytesDataset d(at("split.txt"), 8, 1, 5, true, 0.1);
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, make_held_out_batch(d, 10, 5));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, make_held_out_batch(d, -1, 1));
    const TextBytesDataset none(at("split.txt"), 8, 1, 5);
    QCOMPARE(none.held_out_size(), 0);
    QCOMPARE(none.size(), 1000 - 9 + 1);  // without a held-out part, the whole text trains
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, make_held_out_batch(none, 0, 1));
  }

  void badHeldOutFractionsAreRefused() {
    write_file(at("split.txt"), letters_then_digits());
    expect_dataset_error([&] { TextBytesDataset(at("split.txt"), 8, 1, 0, true, 0.005); },
                         "split.txt: held_out 0.005 of its 1000 bytes is 5, fewer than one "
                         "held-out sample needs (9)");
    expect_dataset_error([&] { TextBytesDataset(at("split.txt"), 8, 1, 0, true, 0.7); },
                         "split.txt: held_out must be in [0, 0.5], got 0.7");
    expect_dataset_error([&] { TextBytesDataset(at("split.txt"), 8, 1, 0, true, -0.1); },
                         "held_out must be in [0, 0.5]");
    write_file(at("img.idx"), idx({4, 2, 2}, 0));
    write_file(at("lab.idx"), idx({4}, 0));
    expect_dataset_error([&] { IdxImageDataset(at("img.idx"), at("lab.idx"), 256, 0, true, 0.2); },
                         "img.idx: held_out 0.2 of its 4 images is 0, fewer than one held-out "
                         "sample needs (1)");
  }

  void tokensAndImagesHoldOutTheirEnd() {
    std::vector<uint16_t> ids;
    for (uint16_t i = 0; i < 40; ++i) ids.push_back(i);
    write_file(at("split.bin"), tokens_le(ids));
    const TokenFileDataset t(at("split.bin"), 3, 1, 256, 0, true, 0.25);  // tokens 30..39 held
    QCOMPARE(t.size(), 30 - 4 + 1);
    QCOMPARE(t.held_out_size(), 3);
    const Batch train = make_batch(t, 0, t.size());
    QVERIFY(train.targets.max().item<int64_t>() <= 29);
    const Batch held = make_held_out_batch(t, 0, 3);
    QVERIFY(torch::equal(held.inputs[2], torch::tensor({36, 37, 38}, torch::kLong)));
    QVERIFY(torch::equal(held.targets[2], torch::tensor({37, 38, 39}, torch::kLong)));

    write_file(at("img.idx"), idx({5, 4, 3}, 0));
    write_file(at("lab.idx"), idx({5}, 1));  // labels 1, 8, 15, 22, 29
    const IdxImageDataset images(at("img.idx"), at("lab.idx"), 64, 0, true, 0.4);  // 2 held
    QCOMPARE(images.size(), 3);
    QCOMPARE(images.held_out_size(), 2);
    const Batch all = make_batch(images, 0, 3);
    QVERIFY(all.targets.max().item<int64_t>() <= 15);  // images 0..2 only
    const Batch last = make_held_out_batch(images, 0, 2);
    QCOMPARE(last.targets[0].item<int64_t>(), 22);
    QCOMPARE(last.targets[1].item<int64_t>(), 29);
    // image 4 starts at data byte 48: (48·7) % 256 = 80
    QCOMPARE(last.inputs[1][0][0][0].item<float>(), 80.0f / 255.0f);
  }

  void fortuneFilesReadAsCookiesSeparatedByBlankLines() {
    const auto folder = at("fortunes");
    std::filesystem::create_directory(folder);
    write_file(folder / "a", "one\n%\ntwo\nlines\n%\n");
    write_file(folder / "a.dat", std::string("\0\0\0\x02\x01", 5));  // strfile's binary index
    std::filesystem::create_symlink("a", folder / "a.u8");           // Debian's UTF-8 alias
    write_file(folder / "b", "100%\n%\nlast, no separator");
    const TextBytesDataset d(folder, 4, 1, 0, false, 0, job::TextFormat::fortune);
    QCOMPARE(d.files().size(), size_t(2));
    QCOMPARE(d.files()[0].filename().string(), std::string("a"));
    QCOMPARE(d.files()[1].filename().string(), std::string("b"));
    const std::string expected = "one\n\ntwo\nlines\n\n100%\n\nlast, no separator\n\n";
    const auto text = d.text();
    QCOMPARE(std::string(reinterpret_cast<const char*>(text.data()), text.size()), expected);
    QCOMPARE(d.size(), int64_t(expected.size()) - 5 + 1);

    expect_dataset_error(
        [&] { TextBytesDataset(at("no-fortunes"), 4, 1, 0, false, 0, job::TextFormat::fortune); },
        "no-fortunes: does not exist (Debian and Ubuntu install fortune files with `apt install "
        "fortunes`)");
    // The plain format reads every regular file as it is, the index and the alias too.
    const TextBytesDataset plain(folder, 4, 1, 0, false);
    QCOMPARE(plain.files().size(), size_t(4));
  }

  void fortuneTextOfOneFile() {
    const auto text = [](const std::string& s) {
      const auto out = fortune_text(std::as_bytes(std::span(s.data(), s.size())));
      return std::string(reinterpret_cast<const char*>(out.data()), out.size());
    };
    QCOMPARE(text(""), std::string());
    QCOMPARE(text("%\n"), std::string("\n"));
    QCOMPARE(text("a\n%\n"), std::string("a\n\n"));
    QCOMPARE(text("a\n%"), std::string("a\n\n"));               // a last "%" without its newline
    QCOMPARE(text("a\n%%\nb\n"), std::string("a\n%%\nb\n\n"));  // only a lone "%" separates
    QCOMPARE(text(" %\n"), std::string(" %\n\n"));
  }

  void tokenFileIsLittleEndianUint16() {
    write_file(at("train.bin"), tokens_le({1, 258, 65535, 7, 300, 0}));
    const TokenFileDataset d(at("train.bin"), 3, 1, 65536, 0, false);
    QCOMPARE(d.token_count(), 6);
    QCOMPARE(d.size(), 3);
    const Batch b = make_batch(d, 0, 3);
    QVERIFY(torch::equal(b.inputs[0], torch::tensor({1, 258, 65535}, torch::kLong)));
    QVERIFY(torch::equal(b.targets[0], torch::tensor({258, 65535, 7}, torch::kLong)));
    QVERIFY(torch::equal(b.targets[2], torch::tensor({7, 300, 0}, torch::kLong)));
  }

  void tokenFileErrors() {
    write_file(at("odd.bin"), tokens_le({1, 2, 3, 4, 5}) + "x");
    expect_dataset_error(
        [&] { TokenFileDataset(at("odd.bin"), 2, 1, 256, 0); },
        "odd.bin: size 11 bytes is not a whole number of uint16 tokens (truncated?)");
    write_file(at("few.bin"), tokens_le({1, 2}));
    expect_dataset_error([&] { TokenFileDataset(at("few.bin"), 2, 1, 256, 0); },
                         "few.bin: holds 2 tokens, fewer than one sample needs (context 2 + 1)");
    write_file(at("big.bin"), tokens_le({1, 2, 3, 999, 4}));
    const TokenFileDataset d(at("big.bin"), 2, 1, 256, 0, false);
    QCOMPARE(make_batch(d, 0, 1).inputs[0][1].item<int64_t>(), 2);  // valid windows still read
    expect_dataset_error([&] { make_batch(d, 1, 1); },
                         "big.bin: token 999 at index 3 is outside the vocabulary of 256");
    write_file(at("empty.bin"), "");
    expect_dataset_error([&] { TokenFileDataset(at("empty.bin"), 2, 1, 256, 0); },
                         "holds 0 tokens");
  }

  void idxImagesAndLabels() {
    write_file(at("img.idx"), idx({5, 4, 3}, 0));  // 5 grey 4×3 images
    write_file(at("lab.idx"), idx({5}, 1));  // labels (i*7+1) % 256 → 1, 8, 15, ... use classes 64
    const IdxImageDataset d(at("img.idx"), at("lab.idx"), 64, 0, false);
    QCOMPARE(d.size(), 5);
    QCOMPARE(d.channels(), 1);
    const Batch b = make_batch(d, 1, 2);
    QCOMPARE(b.inputs.sizes().vec(), (std::vector<int64_t>{2, 1, 4, 3}));
    QCOMPARE(b.inputs.scalar_type(), torch::kFloat);
    QCOMPARE(b.targets.sizes().vec(), (std::vector<int64_t>{2}));
    QCOMPARE(b.targets[0].item<int64_t>(), 8);
    QCOMPARE(b.targets[1].item<int64_t>(), 15);
    // image 1 starts at data byte 12: (12·7) % 256 = 84
    QCOMPARE(b.inputs[0][0][0][0].item<float>(), 84.0f / 255.0f);
    QCOMPARE(b.inputs[0][0][0][1].item<float>(), 91.0f / 255.0f);

    write_file(at("rgb.idx"), idx({5, 3, 2, 2}, 0));
    QCOMPARE(IdxImageDataset(at("rgb.idx"), at("lab.idx"), 64, 0).channels(), 3);
  }

  void idxErrors_data() {
    QTest::addColumn<QByteArray>("images");
    QTest::addColumn<QByteArray>("labels");
    QTest::addColumn<QString>("message");
    const auto bytes = [](const std::string& s) {
      return QByteArray(s.data(), qsizetype(s.size()));
    };
    const QByteArray good_images = bytes(idx({4, 2, 2}, 0)), good_labels = bytes(idx({4}, 0));
    QTest::newRow("truncated images")
        << bytes(idx({4, 2, 2}, 0, 3)) << good_labels
        << "img.idx: holds 13 data bytes but its header promises 16 (truncated)";
    QTest::newRow("extra bytes") << bytes(idx({4, 2, 2}, 0) + "zz") << good_labels
                                 << "img.idx: holds 18 data bytes but its header promises 16";
    QTest::newRow("bad magic") << QByteArray("GIF89a....") << good_labels
                               << "img.idx: not an IDX file (magic 0x47494638)";
    QTest::newRow("tiny") << QByteArray("\0\0", 2) << good_labels
                          << "img.idx: too short for an IDX header";
    QTest::newRow("float type") << bytes(std::string("\0\0\x0d\x03", 4) + be32(1) + be32(1) +
                                         be32(1) + "abcd")
                                << good_labels << "img.idx: IDX element type 0x0d is not supported";
    QTest::newRow("header cut") << bytes(std::string("\0\0\x08\x03", 4) + be32(4)) << good_labels
                                << "img.idx: truncated IDX header";
    QTest::newRow("2-D images") << bytes(idx({4, 4}, 0)) << good_labels
                                << "img.idx: has 2 dimensions; images need";
    QTest::newRow("zero dim") << bytes(idx({0, 2, 2}, 0)) << good_labels
                              << "img.idx: dimension 0 is 0";
    QTest::newRow("count mismatch")
        << good_images << bytes(idx({3}, 0)) << "lab.idx: holds 3 labels for 4 images";
    QTest::newRow("labels 2-D") << good_images << bytes(idx({4, 1}, 0))
                                << "lab.idx: has 2 dimensions; labels need (n)";
  }
  void idxErrors() {
    QFETCH(QByteArray, images);
    QFETCH(QByteArray, labels);
    QFETCH(QString, message);
    write_file(at("img.idx"), images.toStdString());
    write_file(at("lab.idx"), labels.toStdString());
    expect_dataset_error([&] { IdxImageDataset(at("img.idx"), at("lab.idx"), 256, 0); },
                         message.toStdString());
  }

  void idxLabelBeyondClasses() {
    write_file(at("img.idx"), idx({4, 2, 2}, 0));
    write_file(at("lab.idx"), idx({4}, 3));  // labels 3, 10, 17, 24
    const IdxImageDataset d(at("img.idx"), at("lab.idx"), 10, 0, false);
    QCOMPARE(make_batch(d, 0, 1).targets[0].item<int64_t>(), 3);
    expect_dataset_error([&] { make_batch(d, 1, 1); },
                         "lab.idx: label 10 of sample 1 is not below the 10 classes");
  }

  void openDatasetChecksTheModel() {
    write_file(at("img.idx"), idx({4, 8, 8}, 0));
    write_file(at("lab.idx"), idx({4}, 0));
    const std::string base =
        R"({"id": "t", "dataset": {"kind": "images", "path": "img.idx", "labels": "lab.idx"},
                                     "optimizer": {"lr": 0.1}, "model": )";
    const auto folder = std::filesystem::path(dir_.path().toStdString());
    const auto cnn = job::parse_job_spec(
        base + R"({"kind": "cnn", "channels": 1, "image_size": 8, "classes": 256, "widths": [4]}})",
        folder);
    QCOMPARE(open_dataset(cnn)->layout().input_shape, (std::vector<int64_t>{1, 8, 8}));
    const auto wrong_cnn = job::parse_job_spec(
        base + R"({"kind": "cnn", "channels": 3, "image_size": 8, "classes": 256, "widths": [4]}})",
        folder);
    expect_dataset_error([&] { open_dataset(wrong_cnn); },
                         "img.idx: images are 1x8x8 but the model expects 3x8x8");
    const auto mlp =
        job::parse_job_spec(base + R"({"kind": "mlp", "input": 64, "output": 256}})", folder);
    QCOMPARE(open_dataset(mlp)->size(), 4);
    const auto wrong_mlp =
        job::parse_job_spec(base + R"({"kind": "mlp", "input": 60, "output": 256}})", folder);
    expect_dataset_error([&] { open_dataset(wrong_mlp); },
                         "images are 1x8x8 = 64 values but the model's input is 60");
  }

  void demoJobOpens() {
    const auto job = job::load_job_spec(ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json");
    const auto d = open_dataset(job);
    // Debian's English fortunes, about 2.5 MB, 5% held out.
    QVERIFY2(d->size() > 2'000'000, qPrintable(QString::number(d->size())));
    const double held_share =
        double(d->held_out_size() * 64) / double(d->size() + 64 * d->held_out_size());
    QVERIFY2(std::abs(held_share - 0.05) < 0.001, qPrintable(QString::number(held_share)));
    const Batch b = make_batch(*d, 0, 64);
    QCOMPARE(b.inputs.sizes().vec(), (std::vector<int64_t>{64, 64}));
    // English text: mostly lower-case letters and spaces; no "%" separator lines.
    const auto letters = (b.inputs.ge('a') & b.inputs.le('z')) | b.inputs.eq(' ');
    QVERIFY2(letters.to(torch::kFloat).mean().item<double>() > 0.6,
             qPrintable(QString::number(letters.to(torch::kFloat).mean().item<double>())));
    QVERIFY(make_held_out_batch(*d, 0, d->held_out_size()).count == d->held_out_size());
  }
};

QTEST_APPLESS_MAIN(TestDatasets)
#include "test_datasets.moc"
