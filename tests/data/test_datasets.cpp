#include <torch/torch.h>

#include "data/batch.hpp"
#include "data/image_dataset.hpp"
#include "data/open_dataset.hpp"
#include "data/text_datasets.hpp"

#include <QtTest/QtTest>

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
    QVERIFY(d->size() > 250'000);
    const Batch b = make_batch(*d, 0, job.micro_batch_size);
    QCOMPARE(b.inputs.sizes().vec(), (std::vector<int64_t>{job.micro_batch_size, 64}));
    QVERIFY(b.inputs.max().item<int64_t>() < 128);  // ASCII text
  }
};

QTEST_APPLESS_MAIN(TestDatasets)
#include "test_datasets.moc"
