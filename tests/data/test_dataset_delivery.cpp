// Dataset delivery: the manifest a coordinator publishes, the copy a volunteer keeps (every
// chunk checked, a killed fetch resumed, a copy damaged on disk repaired) and the fetcher
// over real CURVE sockets, with an honest peer, a peer serving corrupt chunks and a source
// that never answers.
#include <QtTest/QtTest>

#include <atomic>
#include <fstream>
#include <random>

#include "data/dataset.hpp"
#include "data/dataset_delivery.hpp"
#include "data/text_files.hpp"
#include "net/identity.hpp"
#include "net/rpc.hpp"
#include "net/secure_context.hpp"
#include "node/dataset_fetcher.hpp"
#include "rookery/envelope.pb.h"

using namespace rookery;
namespace fs = std::filesystem;
namespace pb = wire::pb;

namespace {

constexpr std::uint32_t kChunk = 4096;

std::string random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::string out(n, '\0');
  for (auto& c : out) c = static_cast<char>(rng() & 0xff);
  return out;
}

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

job::DatasetSpec text_spec(const fs::path& path) {
  job::DatasetSpec s;
  s.kind = job::DatasetKind::text;
  s.path = path;
  return s;
}

// Every chunk of the manifest from the original files, into the store.
void put_all(data::DatasetStore& store, const pb::DatasetManifest& m,
             const std::vector<fs::path>& files) {
  for (const auto& id : store.missing()) {
    const auto bytes = data::read_chunk(files[id.file], m, id.file, id.chunk);
    QCOMPARE(store.put(id, bytes), data::DatasetStore::Put::Stored);
  }
}

void flip_byte(const fs::path& path, std::uint64_t offset) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(static_cast<std::streamoff>(offset));
  char c = 0;
  f.read(&c, 1);
  c = static_cast<char>(c ^ 0x20);
  f.seekp(static_cast<std::streamoff>(offset));
  f.write(&c, 1);
}

// A holder of the dataset on a real CURVE socket, as a peer's shard server is: it serves
// chunks from `files`, flips a byte of each when `corrupt`.
struct ChunkServer {
  net::SecureContext ctx{1};
  net::CurveKeyPair identity = net::CurveKeyPair::generate();
  std::unique_ptr<net::RpcServer> server;
  std::atomic<int> served{0};

  ChunkServer(const pb::DatasetManifest& m, std::string digest, std::vector<fs::path> files,
              bool corrupt) {
    ctx.auth().set_open("rookery.test", true);
    net::RpcServer::Config rc;
    rc.endpoint = "tcp://127.0.0.1:0";
    rc.domain = "rookery.test";
    server = std::make_unique<net::RpcServer>(
        ctx, &identity, rc,
        [=, this](const net::RequestContext&, wire::Message& msg) -> std::optional<net::Reply> {
          net::Reply reply;
          const auto& q = msg.header.data_chunk_request();
          if (!msg.header.has_data_chunk_request() || q.dataset_digest() != digest ||
              q.file() >= files.size()) {
            reply.header.mutable_error()->set_message("no such chunk");
            return reply;
          }
          auto bytes = data::read_chunk(files[q.file()], m, q.file(), q.chunk());
          if (corrupt) bytes[bytes.size() / 2] ^= std::byte{1};
          ++served;
          reply.header.mutable_data_chunk_reply()->set_file(q.file());
          reply.header.mutable_data_chunk_reply()->set_chunk(q.chunk());
          const auto size = static_cast<std::int64_t>(bytes.size());
          reply.tensors.push_back(wire::OutgoingTensor::raw("chunk", wire::DType::U8, {size},
                                                            wire::Payload::own(std::move(bytes))));
          return reply;
        });
  }
  node::DataSource source() const { return {identity.public_key, server->endpoint(), false}; }
};

}  // namespace

class TestDatasetDelivery : public QObject {
  Q_OBJECT

  QTemporaryDir tmp_;
  fs::path dir() const { return tmp_.path().toStdString(); }

 private Q_SLOTS:
  void aManifestHashesEveryChunk() {
    const auto bytes = random_bytes(2 * kChunk + 100, 1);
    write_file(dir() / "a.txt", bytes);
    const auto m = data::build_manifest(text_spec(dir() / "a.txt"), kChunk);
    QCOMPARE(m.files_size(), 1);
    QCOMPARE(m.files(0).name(), std::string("a.txt"));
    QCOMPARE(m.files(0).size(), std::uint64_t(bytes.size()));
    QCOMPARE(m.files(0).chunk_sha256_size(), 3);
    QVERIFY(!m.folder());
    QCOMPARE(m.files(0).chunk_sha256(2),
             std::string(data::as_bytes(data::sha256(bytes.substr(2 * kChunk)))));
    // Its chunks, read back from the original.
    const auto last = data::read_chunk(dir() / "a.txt", m, 0, 2);
    QCOMPARE(last.size(), std::size_t(100));
    QVERIFY_THROWS_EXCEPTION(data::DatasetError, data::read_chunk(dir() / "a.txt", m, 0, 3));
    write_file(dir() / "a.txt", bytes.substr(0, kChunk));  // shortened under the coordinator
    QVERIFY_THROWS_EXCEPTION(data::DatasetError, data::read_chunk(dir() / "a.txt", m, 0, 2));
    QVERIFY_THROWS_EXCEPTION(data::DatasetError,
                             data::build_manifest(text_spec(dir() / "missing.txt"), kChunk));
  }

  void aFolderIsWhatTheLoaderReads() {
    const auto folder = dir() / "corpus";
    fs::create_directories(folder / "sub");
    write_file(folder / "b.txt", random_bytes(5000, 2));
    write_file(folder / "a.txt", random_bytes(10, 3));
    write_file(folder / "empty.txt", "");
    write_file(folder / ".hidden", "not data");
    const auto m = data::build_manifest(text_spec(folder), kChunk);
    QVERIFY(m.folder());
    QCOMPARE(m.files_size(), 3);
    QCOMPARE(m.files(0).name(), std::string("a.txt"));
    QCOMPARE(m.files(1).name(), std::string("b.txt"));
    QCOMPARE(m.files(2).chunk_sha256_size(), 0);
    // The copy: the same folder, nothing else in it.
    data::DatasetStore store(dir() / "copies-folder", m.SerializeAsString());
    put_all(store, m, data::manifest_sources(text_spec(folder), m));
    QVERIFY(store.complete());
    const auto local = store.localized(text_spec(folder)).path;
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(local))
      names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    QCOMPARE(names, (std::vector<std::string>{"a.txt", "b.txt", "empty.txt"}));
    QCOMPARE(read_file(local / "b.txt"), read_file(folder / "b.txt"));
  }

  // Fortune files travel as the loader reads them: the cookie files, once each, without
  // strfile's indexes; the copy, read in the same format, lists the same files.
  void aFortuneFolderTravelsWithoutItsIndexes() {
    const auto folder = dir() / "fortunes";
    fs::create_directories(folder);
    write_file(folder / "cookie", "a\n%\nb\n%\n");
    write_file(folder / "cookie.dat", std::string("\0\0\0\x02", 4));
    fs::create_symlink("cookie", folder / "cookie.u8");
    write_file(folder / "zippy", "YOW!\n%\n");
    auto spec = text_spec(folder);
    spec.format = job::TextFormat::fortune;
    const auto m = data::build_manifest(spec, kChunk);
    QCOMPARE(m.files_size(), 2);
    QCOMPARE(m.files(0).name(), std::string("cookie"));
    QCOMPARE(m.files(1).name(), std::string("zippy"));
    data::DatasetStore store(dir() / "copies-fortunes", m.SerializeAsString());
    put_all(store, m, data::manifest_sources(spec, m));
    QVERIFY(store.complete());
    const auto local = store.localized(spec);
    QVERIFY(local.format == job::TextFormat::fortune);
    const auto copied = data::text_files(local.path, local.format);
    QCOMPARE(copied.size(), std::size_t(2));
    QCOMPARE(copied[0].filename().string(), std::string("cookie"));
    QCOMPARE(read_file(copied[0]), read_file(folder / "cookie"));
    QCOMPARE(read_file(copied[1]), read_file(folder / "zippy"));
  }

  void imagesTravelWithTheirLabels() {
    write_file(dir() / "images.idx", random_bytes(9000, 4));
    write_file(dir() / "labels.idx", random_bytes(30, 5));
    job::DatasetSpec spec;
    spec.kind = job::DatasetKind::images;
    spec.path = dir() / "images.idx";
    spec.labels = dir() / "labels.idx";
    const auto m = data::build_manifest(spec, kChunk);
    QCOMPARE(m.files_size(), 2);
    QCOMPARE(m.files(1).role(), std::string("labels"));
    data::DatasetStore store(dir() / "copies-images", m.SerializeAsString());
    put_all(store, m, data::manifest_sources(spec, m));
    const auto local = store.localized(spec);
    QCOMPARE(read_file(local.path), read_file(spec.path));
    QCOMPARE(read_file(local.labels), read_file(spec.labels));
    QVERIFY(local.path.string().starts_with((dir() / "copies-images").string()));
  }

  void aManifestThatCouldWriteAnywhereIsRefused() {
    write_file(dir() / "c.txt", random_bytes(kChunk, 6));
    const auto good = data::build_manifest(text_spec(dir() / "c.txt"), kChunk);
    std::string error;
    QVERIFY(data::check_manifest(good, error));
    const auto refused = [&](const std::function<void(pb::DatasetManifest&)>& change,
                             const char* fragment) {
      auto m = good;
      change(m);
      std::string why;
      QVERIFY2(!data::check_manifest(m, why), fragment);
      QVERIFY2(why.find(fragment) != std::string::npos, why.c_str());
      // A store refuses it before it writes anything.
      QVERIFY_THROWS_EXCEPTION(data::DatasetError,
                               data::DatasetStore(dir() / "refused", m.SerializeAsString()));
    };
    refused([](auto& m) { m.mutable_files(0)->set_name("../../etc/passwd"); }, "plain file name");
    refused([](auto& m) { m.mutable_files(0)->set_name("/etc/passwd"); }, "plain file name");
    refused([](auto& m) { m.mutable_files(0)->set_name(".bashrc"); }, "plain file name");
    refused([](auto& m) { m.mutable_files(0)->set_name(""); }, "plain file name");
    refused([](auto& m) { m.mutable_files(0)->set_role("config"); }, "role");
    refused([](auto& m) { m.mutable_files(0)->set_size(10 * kChunk); }, "chunk hashes");
    refused([](auto& m) { m.mutable_files(0)->set_chunk_sha256(0, "short"); }, "32 bytes");
    refused([](auto& m) { m.set_chunk_bytes(16); }, "chunk size");
    refused([](auto& m) { *m.add_files() = m.files(0); }, "two files");
    refused([](auto& m) { m.mutable_files(0)->set_size(std::uint64_t(1) << 50); }, "1 TiB");
    QVERIFY_THROWS_EXCEPTION(data::DatasetError,
                             data::DatasetStore(dir() / "refused", "not a manifest \xff\xff"));
    QVERIFY(!fs::exists(dir() / "refused") || fs::is_empty(dir() / "refused"));
  }

  void aStoreTakesVerifiedChunksOnly() {
    const auto bytes = random_bytes(3 * kChunk + 7, 7);
    write_file(dir() / "d.txt", bytes);
    const auto m = data::build_manifest(text_spec(dir() / "d.txt"), kChunk);
    data::DatasetStore store(dir() / "copies-d", m.SerializeAsString());
    QCOMPARE(store.missing().size(), std::size_t(4));
    QCOMPARE(store.total_bytes(), std::uint64_t(bytes.size()));
    auto chunk = data::read_chunk(dir() / "d.txt", m, 0, 1);
    auto wrong = chunk;
    wrong[100] ^= std::byte{4};
    using Put = data::DatasetStore::Put;
    QCOMPARE(store.put({0, 1}, wrong), Put::WrongHash);
    QCOMPARE(store.put({0, 2}, chunk), Put::WrongHash);  // the right bytes at the wrong place
    QCOMPARE(store.put({0, 3}, chunk), Put::WrongSize);
    QCOMPARE(store.put({0, 9}, chunk), Put::NoSuchChunk);
    QCOMPARE(store.put({1, 0}, chunk), Put::NoSuchChunk);
    QVERIFY(!store.read({0, 1}));
    QCOMPARE(store.put({0, 1}, chunk), Put::Stored);
    QCOMPARE(store.put({0, 1}, chunk), Put::AlreadyHeld);
    QCOMPARE(store.bytes_held(), std::uint64_t(kChunk));
    QVERIFY(store.read({0, 1}) == chunk);  // a peer may have it from us already
    QVERIFY(!store.complete());
    put_all(store, m, {dir() / "d.txt"});
    QVERIFY(store.complete());
    QCOMPARE(read_file(store.localized(text_spec(dir() / "d.txt")).path), bytes);
    QCOMPARE(store.dir().filename().string(), data::to_hex(store.digest()));
  }

  void aKilledFetchResumesAndADamagedCopyIsRepaired() {
    const auto bytes = random_bytes(6 * kChunk, 8);
    write_file(dir() / "e.txt", bytes);
    const auto m = data::build_manifest(text_spec(dir() / "e.txt"), kChunk);
    const auto root = dir() / "copies-e";
    fs::path partial;
    {
      data::DatasetStore store(root, m.SerializeAsString());
      for (std::uint64_t c : {0, 2, 3, 5}) {
        QCOMPARE(store.put({0, c}, data::read_chunk(dir() / "e.txt", m, 0, c)),
                 data::DatasetStore::Put::Stored);
      }
      partial = store.dir() / "partial" / "0";
    }                                     // the process is killed here
    flip_byte(partial, 3 * kChunk + 10);  // and the disk damaged one chunk it had written
    {
      data::DatasetStore store(root, m.SerializeAsString());
      std::vector<std::uint64_t> missing;
      for (const auto& id : store.missing()) missing.push_back(id.chunk);
      QCOMPARE(missing, (std::vector<std::uint64_t>{1, 3, 4}));
      QCOMPARE(store.bytes_held(), std::uint64_t(3 * kChunk));
      put_all(store, m, {dir() / "e.txt"});
      QVERIFY(store.complete());
    }
    // A complete copy damaged on disk since: found when it is opened, and that chunk fetched again.
    data::DatasetStore again(root, m.SerializeAsString());
    QVERIFY(again.complete());
    const auto final_path = again.localized(text_spec(dir() / "e.txt")).path;
    flip_byte(final_path, 4 * kChunk + 1);
    data::DatasetStore damaged(root, m.SerializeAsString());
    QVERIFY(!damaged.complete());
    QCOMPARE(damaged.missing().size(), std::size_t(1));
    QCOMPARE(damaged.missing()[0].chunk, std::uint64_t(4));
    put_all(damaged, m, {dir() / "e.txt"});
    QVERIFY(damaged.complete());
    QCOMPARE(read_file(final_path), bytes);
  }

  // Real sockets: an honest peer, a peer that serves corrupt chunks and a source that never
  // answers. The copy completes, byte for byte, the liar is named and no longer asked.
  void theFetcherDropsALyingPeer() {
    const auto bytes = random_bytes(40 * kChunk + 123, 9);
    write_file(dir() / "f.txt", bytes);
    const auto m = data::build_manifest(text_spec(dir() / "f.txt"), kChunk);
    const auto manifest_bytes = m.SerializeAsString();
    const std::string digest(data::as_bytes(data::sha256(manifest_bytes)));
    ChunkServer honest(m, digest, {dir() / "f.txt"}, false);
    ChunkServer liar(m, digest, {dir() / "f.txt"}, true);
    // A CURVE server key nobody listens for: requests time out.
    const node::DataSource silent{net::CurveKeyPair::generate().public_key, "tcp://127.0.0.1:9",
                                  false};

    data::DatasetStore store(dir() / "copies-f", manifest_bytes);
    net::SecureContext ctx(1);
    const auto me = net::CurveKeyPair::generate();
    node::DatasetFetchOptions options;
    options.first_answer_timeout = std::chrono::milliseconds(300);
    options.peer_failures = 3;
    node::DatasetFetcher fetcher(ctx, me, store, options);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    const auto report = fetcher.run({liar.source(), silent, honest.source()},
                                    [&] { return std::chrono::steady_clock::now() > deadline; });
    QVERIFY(report.complete);
    QCOMPARE(read_file(store.localized(text_spec(dir() / "f.txt")).path), bytes);
    QCOMPARE(report.caught, std::vector<std::string>{liar.identity.public_key});
    QCOMPARE(liar.served.load(), 1);  // asked once, never again
    QVERIFY(honest.served.load() >= 40);
  }

  // Nothing to fetch from but a source that stops: the fetch ends when told, incomplete, and
  // what it had is kept for the next attempt.
  void aFetchWithoutSourcesStopsWhenTold() {
    write_file(dir() / "g.txt", random_bytes(3 * kChunk, 10));
    const auto m = data::build_manifest(text_spec(dir() / "g.txt"), kChunk);
    data::DatasetStore store(dir() / "copies-g", m.SerializeAsString());
    net::SecureContext ctx(1);
    const auto me = net::CurveKeyPair::generate();
    node::DatasetFetchOptions options;
    options.first_answer_timeout = std::chrono::milliseconds(200);
    node::DatasetFetcher fetcher(ctx, me, store, options);
    const node::DataSource coordinator{net::CurveKeyPair::generate().public_key,
                                       "tcp://127.0.0.1:9", true};
    const auto stop_at = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    const auto report =
        fetcher.run({coordinator}, [&] { return std::chrono::steady_clock::now() > stop_at; });
    QVERIFY(!report.complete);
    QVERIFY(std::chrono::steady_clock::now() < stop_at + std::chrono::seconds(2));
    QCOMPARE(store.missing().size(), std::size_t(3));
  }
};

QTEST_GUILESS_MAIN(TestDatasetDelivery)
#include "test_dataset_delivery.moc"
