#include "dashboard/dashboard_server.hpp"

#include <httplib.h>
#include <sys/socket.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>
#include <thread>
#include <utility>

#include "dashboard/dashboard_json.hpp"
#include "dashboard/dashboard_page.hpp"

namespace rookery::dashboard {

namespace {

// Threads answering viewers. A browser keeps its connection open between polls, and an open
// connection holds a thread until it idles for kKeepAliveSeconds: each viewer holds one or two.
constexpr int kViewerThreads = 8;
constexpr time_t kKeepAliveSeconds = 1;

// Everything the page loads comes from here: no inline script or style, no other origin, no
// framing; and no CORS header, so other sites' pages cannot read the status.
const httplib::Headers kSecurityHeaders = {
    {"Content-Security-Policy",
     "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"},
    {"X-Content-Type-Options", "nosniff"},
    {"X-Frame-Options", "DENY"},
    {"Referrer-Policy", "no-referrer"},
    {"Cache-Control", "no-cache"},
};

std::string_view page_file(std::string_view name) {
  for (const auto& f : page_files()) {
    if (f.name == name) return f.body;
  }
  throw std::logic_error("the dashboard's page has no " + std::string(name));
}

const char* reason(int status) {
  switch (status) {
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 413:
      return "Payload Too Large";
    case 503:
      return "Service Unavailable";
    default:
      return "Error";
  }
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

struct DashboardServer::Impl {
  std::function<wire::pb::RunStatus()> status;
  std::string salt;
  const clock::Clock& clock;
  std::string chart_js;
  httplib::Server server;
  std::thread thread;
  std::atomic<bool> listened{false};  // listen_after_bind returned
  std::uint16_t port = 0;

  std::mutex mutex;  // one status build at a time; guards the cache
  std::string cached;
  std::chrono::steady_clock::time_point cached_at{};
  std::atomic<std::uint64_t> builds{0};

  Impl(std::function<wire::pb::RunStatus()> s, std::string salt_, const clock::Clock& c)
      : status(std::move(s)), salt(std::move(salt_)), clock(c) {}

  // The status as JSON, built at most once per kStatusCachedFor whoever asks.
  std::string status_json() {
    std::lock_guard lock(mutex);
    const auto now = clock.steady_now();
    if (builds.load() == 0 || now - cached_at >= kStatusCachedFor) {
      const auto s = status();
      ++builds;
      // Replacement, not an exception, for a byte that is not UTF-8 (a job id, a prompt).
      cached =
          dashboard_json(s, salt).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      cached_at = now;
    }
    return cached;
  }

  void serve_file(const char* path, std::string_view body, const char* type) {
    server.Get(path, [body, type](const httplib::Request&, httplib::Response& res) {
      res.set_content(body.data(), body.size(), type);
    });
  }

  void routes() {
    server.set_default_headers(kSecurityHeaders);
    serve_file("/", page_file("index.html"), "text/html; charset=utf-8");
    serve_file("/dashboard.js", page_file("dashboard.js"), "text/javascript; charset=utf-8");
    serve_file("/dashboard.css", page_file("dashboard.css"), "text/css; charset=utf-8");
    serve_file("/favicon.svg", page_file("rookery.svg"), "image/svg+xml");
    if (!chart_js.empty()) serve_file("/chart.js", chart_js, "text/javascript; charset=utf-8");
    server.Get("/api/status", [this](const httplib::Request&, httplib::Response& res) {
      try {
        res.set_content(status_json(), "application/json");
        res.headers.erase("Cache-Control");  // the default's no-cache
        res.set_header("Cache-Control", "no-store");
      } catch (const std::exception& e) {
        spdlog::error("dashboard: cannot build the run's status: {}", e.what());
        res.status = 503;
      }
    });
    // Read-only: every other method is refused before routing.
    server.set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
      if (req.method == "GET" || req.method == "HEAD")
        return httplib::Server::HandlerResponse::Unhandled;
      res.status = 405;
      res.set_header("Allow", "GET, HEAD");
      return httplib::Server::HandlerResponse::Handled;
    });
    server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
      if (res.body.empty()) {
        res.set_content(std::to_string(res.status) + " " + reason(res.status) + "\n",
                        "text/plain; charset=utf-8");
      }
    });
  }
};

DashboardServer::DashboardServer(std::string bind, std::uint16_t port,
                                 std::function<wire::pb::RunStatus()> status, std::string salt,
                                 const clock::Clock& clock, const std::filesystem::path& chart_js)
    : impl_(std::make_unique<Impl>(std::move(status), std::move(salt), clock)) {
  auto& d = *impl_;
  d.chart_js = read_file(chart_js);
  if (d.chart_js.empty()) {
    spdlog::warn("dashboard: no Chart.js at {} (Debian's libjs-chart.js): the page shows no charts",
                 chart_js.string());
  }
  d.routes();
  d.server.new_task_queue = [] { return new httplib::ThreadPool(kViewerThreads); };
  d.server.set_keep_alive_timeout(kKeepAliveSeconds);
  d.server.set_payload_max_length(64 * 1024);
  // SO_REUSEADDR alone: httplib's default adds SO_REUSEPORT, with which a second coordinator
  // would share this port and answer half the requests instead of failing to bind.
  d.server.set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  errno = 0;
  if (port == 0) {
    const int any = d.server.bind_to_any_port(bind);
    if (any > 0) d.port = static_cast<std::uint16_t>(any);
  } else if (d.server.bind_to_port(bind, port)) {
    d.port = port;
  }
  if (d.port == 0) {
    const int why = errno;
    throw DashboardError("the dashboard cannot listen on " + bind + ":" + std::to_string(port) +
                         (why ? ": " + std::string(std::strerror(why)) : std::string()));
  }
  d.thread = std::thread([&d] {
    d.server.listen_after_bind();
    d.listened = true;
  });
  // A stop() before the server runs is lost, and the destructor would wait for ever.
  while (!d.server.is_running() && !d.listened) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  spdlog::info("dashboard: serving http://{}:{}/", bind, d.port);
}

DashboardServer::~DashboardServer() {
  impl_->server.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

std::uint16_t DashboardServer::port() const { return impl_->port; }

std::uint64_t DashboardServer::status_builds() const { return impl_->builds.load(); }

}  // namespace rookery::dashboard
