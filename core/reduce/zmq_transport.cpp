#include "reduce/zmq_transport.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <mutex>
#include <stdexcept>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <spdlog/spdlog.h>

#include "net/rpc.hpp"

namespace rookery::reduce {

namespace {

// Every round receives its segments into fresh ZeroMQ messages (1 MiB each by default) and
// frees them at its end. glibc's defaults hand such memory back to the kernel at once (mmap
// for large blocks, trimming the heap's top), so the next round faults the same pages in
// again: a third of the ring's throughput at 256 MB on loopback. Keep up to 256 MiB of freed
// memory for reuse instead, once per process.
void keep_freed_segments_for_reuse() {
#if defined(__GLIBC__)
  static std::once_flag once;
  std::call_once(once, [] {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's largest: blocks below it come from the heap
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
  });
#endif
}
struct PeerLink {
  zmq::socket_t socket;
  std::string dialled;  // the endpoint it connects to (a reversal route or the member's own)
  std::deque<std::vector<zmq::message_t>> pending;
  std::deque<Clock::time_point> deadlines;
};

void drain(int fd) {
  std::uint64_t v;
  (void)::read(fd, &v, sizeof v);
}
}  // namespace

ZmqTransport::ZmqTransport(net::SecureContext& ctx, const net::CurveKeyPair& identity,
                           ZmqTransportConfig config)
    : ctx_(ctx), identity_(identity), config_(std::move(config)) {
  keep_freed_segments_for_reuse();
  id_ = config_.curve ? identity_.public_key : config_.id;
  config_.limits.checksums = !config_.curve && config_.plaintext_checksums;
  if (id_.empty())
    throw std::invalid_argument("zmq transport: a member id is needed when CURVE is off");
  net::SocketOptions opts;
  opts.recv_hwm = config_.hwm * 4;
  opts.send_hwm = config_.hwm;
  if (config_.curve) {
    router_ = net::bind_curve_server(ctx_, zmq::socket_type::router, config_.listen, identity_,
                                     net::kPeerDomain, opts);
  } else {
    router_ = zmq::socket_t(ctx_.zmq(), zmq::socket_type::router);
    router_.set(zmq::sockopt::linger, 0);
    router_.set(zmq::sockopt::rcvhwm, opts.recv_hwm);
    router_.set(zmq::sockopt::rcvbuf, config_.socket_buffer_bytes);
    router_.bind(config_.listen);
  }
  endpoint_ = net::last_endpoint(router_);
  stop_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (stop_fd_ < 0 || wake_fd_ < 0) throw std::runtime_error("zmq transport: eventfd failed");
  receiver_ = std::thread([this] { receive_loop(); });
  sender_ = std::thread([this] { send_loop(); });
}

ZmqTransport::~ZmqTransport() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake(stop_fd_);
  wake(wake_fd_);
  if (receiver_.joinable()) receiver_.join();
  if (sender_.joinable()) sender_.join();
  ::close(stop_fd_);
  ::close(wake_fd_);
}

void ZmqTransport::wake(int fd) {
  const std::uint64_t one = 1;
  (void)::write(fd, &one, sizeof one);
}

void ZmqTransport::add_peer(const std::string& id, const std::string& endpoint) {
  if (config_.curve) ctx_.auth().allow(net::kPeerDomain, id);
  std::lock_guard lock(mutex_);
  peers_[id] = endpoint;
}

void ZmqTransport::send(const std::string& to, OutgoingSegment segment) {
  wire::pb::Envelope env;
  auto* m = env.mutable_reduce();
  const auto& t = segment.tag;
  m->set_round(t.round);
  m->set_ring(t.ring);
  m->set_attempt(t.attempt);
  m->set_view(t.view);
  m->set_phase(static_cast<wire::pb::ReduceMessage::Phase>(t.phase));
  m->set_step(t.step);
  m->set_segment(t.segment);
  m->set_weight(segment.weight);
  m->set_ok(segment.ok);
  m->set_sender_view(segment.sender_view);
  if (!config_.curve) m->set_from(id_);
  std::vector<wire::OutgoingTensor> tensors;
  if (t.phase != Phase::Vote) {
    wire::OutgoingTensor ot;
    ot.name = "segment";
    ot.dtype = wire::DType::F32;
    ot.shape = {static_cast<std::int64_t>(segment.count)};
    ot.codec = segment.codec;
    ot.block_size = segment.block_size;
    ot.bytes = std::move(segment.bytes);
    tensors.push_back(std::move(ot));
  }
  Outgoing out{to, wire::encode(std::move(env), std::move(tensors), config_.limits.checksums),
               Clock::now() + config_.send_timeout, t.phase == Phase::Vote};
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    outbox_.push_back(std::move(out));
  }
  wake(wake_fd_);
}

void ZmqTransport::receive_loop() {
  std::vector<zmq::message_t> frames;
  for (;;) {
    zmq::pollitem_t items[] = {{router_.handle(), 0, ZMQ_POLLIN, 0},
                               {nullptr, stop_fd_, ZMQ_POLLIN, 0}};
    zmq::poll(items, 2, std::chrono::milliseconds(-1));
    if (items[1].revents & ZMQ_POLLIN) break;
    for (;;) {
      bool truncated = false;
      if (!net::recv_multipart_bounded(router_, frames, config_.limits.max_frames + 1, truncated))
        break;
      if (truncated || frames.size() < 2) {
        ++rejected_;
        continue;
      }
      std::string from = config_.curve ? net::sender_key(frames[1]) : std::string();
      frames.erase(frames.begin());  // the ROUTER's routing id
      auto decoded = wire::decode(std::move(frames), config_.limits);
      frames.clear();
      if (!decoded || !decoded.message().header.has_reduce()) {
        ++rejected_;
        spdlog::warn("reduce: rejected a message: {}",
                     decoded ? "not a reduce message" : decoded.error().what);
        continue;
      }
      auto msg = std::make_shared<wire::Message>(std::move(decoded.message()));
      const auto& m = msg->header.reduce();
      if (!config_.curve) from = m.from();
      const auto phase = static_cast<int>(m.phase());
      const bool data = phase != static_cast<int>(Phase::Vote);
      if (from.empty() || phase < 1 || phase > 4 || msg->tensors.size() != (data ? 1u : 0u) ||
          (data && msg->tensors[0].dtype() != wire::DType::F32)) {
        ++rejected_;
        continue;
      }
      IncomingSegment in;
      in.from = std::move(from);
      in.tag = {m.ring(), m.round(),  m.attempt(), m.view(), static_cast<Phase>(phase),
                m.step(), m.segment()};
      in.weight = m.weight();
      in.ok = m.ok();
      in.sender_view = m.sender_view();
      if (data) {
        const auto& tensor = msg->tensors[0];
        in.codec = tensor.codec();
        in.block_size = tensor.block_size();
        in.count = static_cast<std::uint64_t>(tensor.numel());
        in.bytes = tensor.bytes();
      }
      in.owner = msg;
      mailbox_.deliver(std::move(in));
    }
  }
}

void ZmqTransport::send_loop() {
  std::map<std::string, PeerLink> links;
  std::deque<Outgoing> incoming;
  for (bool last_pass = false; !last_pass;) {
    {
      std::lock_guard lock(mutex_);
      // On stop, one last pass hands what is queued to ZeroMQ, whose linger then flushes
      // it: a member that committed and leaves must still deliver its votes.
      last_pass = stopping_;
      incoming.swap(outbox_);
    }
    for (auto& o : incoming) {
      std::string endpoint;
      {
        std::lock_guard lock(mutex_);
        if (auto p = peers_.find(o.to); p != peers_.end()) endpoint = p->second;
      }
      auto it = links.find(o.to);
      // A member reached by connection reversal since the link opened (or no longer): its
      // queued segments move to a socket dialled the new way.
      std::deque<std::vector<zmq::message_t>> carried;
      std::deque<Clock::time_point> carried_deadlines;
      if (it != links.end() && config_.curve && !endpoint.empty() &&
          ctx_.routes().resolve(endpoint, o.to) != it->second.dialled) {
        carried = std::move(it->second.pending);
        carried_deadlines = std::move(it->second.deadlines);
        links.erase(it);
        it = links.end();
      }
      if (it == links.end()) {
        if (endpoint.empty()) {
          ++send_dropped_;
          spdlog::warn("reduce: no address for member {}; segment dropped", net::short_key(o.to));
          continue;
        }
        net::SocketOptions opts;
        opts.send_hwm = config_.hwm;
        zmq::socket_t s;
        if (config_.curve) {
          s = net::connect_curve_client(ctx_, zmq::socket_type::dealer, endpoint, identity_, o.to,
                                        opts);
        } else {
          s = zmq::socket_t(ctx_.zmq(), zmq::socket_type::dealer);
          s.set(zmq::sockopt::linger, 0);
          s.set(zmq::sockopt::sndhwm, config_.hwm);
          s.connect(endpoint);
        }
        s.set(zmq::sockopt::sndbuf, config_.socket_buffer_bytes);
        s.set(zmq::sockopt::linger, config_.linger_ms);
        it = links
                 .emplace(o.to,
                          PeerLink{std::move(s),
                                   config_.curve ? ctx_.routes().resolve(endpoint, o.to) : endpoint,
                                   std::move(carried), std::move(carried_deadlines)})
                 .first;
      }
      // Votes overtake queued data: they are tiny, and a late vote costs a whole attempt.
      if (o.vote) {
        it->second.pending.push_front(std::move(o.frames));
        it->second.deadlines.push_front(o.deadline);
      } else {
        it->second.pending.push_back(std::move(o.frames));
        it->second.deadlines.push_back(o.deadline);
      }
    }
    incoming.clear();

    // Send what each peer's pipe takes now; drop what waited past its deadline.
    const auto now = Clock::now();
    auto next_deadline = Clock::time_point::max();
    std::vector<zmq::pollitem_t> items{{nullptr, wake_fd_, ZMQ_POLLIN, 0}};
    for (auto& [to, link] : links) {
      while (!link.pending.empty()) {
        auto& frames = link.pending.front();
        if (link.deadlines.front() < now) {
          ++send_dropped_;
          spdlog::warn("reduce: member {} did not take a segment within the send timeout; dropped",
                       net::short_key(to));
        } else {
          std::uint64_t bytes = 0;
          for (auto& f : frames) bytes += f.size();
          if (!link.socket.send(frames[0], frames.size() > 1 ? zmq::send_flags::sndmore |
                                                                   zmq::send_flags::dontwait
                                                             : zmq::send_flags::dontwait)) {
            break;  // the pipe is full: wait for POLLOUT
          }
          // The first part is queued, so ZeroMQ takes the rest of the multipart message.
          for (std::size_t i = 1; i < frames.size(); ++i) {
            link.socket.send(frames[i], i + 1 < frames.size() ? zmq::send_flags::sndmore
                                                              : zmq::send_flags::none);
          }
          bytes_sent_ += bytes;
        }
        link.pending.pop_front();
        link.deadlines.pop_front();
      }
      if (!link.pending.empty()) {
        items.push_back({link.socket.handle(), 0, ZMQ_POLLOUT, 0});
        next_deadline = std::min(next_deadline, link.deadlines.front());
      }
    }
    if (last_pass) break;
    auto wait = std::chrono::milliseconds(-1);
    if (next_deadline != Clock::time_point::max()) {
      wait = std::chrono::duration_cast<std::chrono::milliseconds>(next_deadline - Clock::now()) +
             std::chrono::milliseconds(1);
      if (wait.count() < 0) wait = std::chrono::milliseconds(0);
    }
    zmq::poll(items.data(), items.size(), wait);
    if (items[0].revents & ZMQ_POLLIN) drain(wake_fd_);
  }
}

}  // namespace rookery::reduce
