// The dashboard served by a DashboardServer in this process and rendered by real headless
// Chromium: the loss chart drew both curves, the sample text shows as text (its markup
// escaped), the leaderboard is in credit order, the restoration and the pipelines are there,
// and neither the page nor /api/status shows a key or an address. Without Chart.js the page
// says so and still fills its tables. The server itself: read-only (405), 404 for anything it
// does not serve, its security headers, one status build per second however many ask, and a
// DashboardError for a port already taken.
// ROOKERY_DASHBOARD_SCREENSHOT=<file.png> also saves a 1280x1000 screenshot of the page.
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <httplib.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "clock/clock.hpp"
#include "dashboard/dashboard_server.hpp"
#include "run_fixture.hpp"
#include "support/headless_chromium.hpp"

using namespace rookery;
using namespace std::chrono_literals;

namespace {

const std::string kSalt = "a per-coordinator secret of some length";

// The text of the page as Chromium serialises it, with its entities turned back into the
// characters a reader sees (a key holding '<' or '&' would hide behind &lt; or &amp;).
std::string unescape(std::string html) {
  static const std::vector<std::pair<std::string, std::string>> entities = {
      {"&lt;", "<"},  {"&gt;", ">"},   {"&quot;", "\""},
      {"&#39;", "'"}, {"&nbsp;", " "}, {"&amp;", "&"}};
  for (const auto& [from, to] : entities) {
    for (auto at = html.find(from); at != std::string::npos; at = html.find(from, at + to.size())) {
      html.replace(at, from.size(), to);
    }
  }
  return html;
}

// The first match of `pattern`'s group 1 in `text`.
QString capture(const QString& text, const QString& pattern) {
  return QRegularExpression(pattern, QRegularExpression::DotMatchesEverythingOption)
      .match(text)
      .captured(1);
}

}  // namespace

class TestDashboardBrowser : public QObject {
  Q_OBJECT

  testing::HeadlessChromium browser_;

  QByteArray chromium(std::uint16_t port, const QStringList& extra) {
    return browser_.run(QString("http://127.0.0.1:%1/").arg(port), extra);
  }

 private Q_SLOTS:

  void page_in_a_browser() {
    QVERIFY2(browser_.available(), "chromium is not installed (scripts/install-deps.sh)");
    // The run moved to the present, so the page's clock times read as today's.
    const auto status = testing::fixture_status(clock::unix_ms() - 3'600'000);
    const auto hidden = testing::secrets(status);
    dashboard::DashboardServer server(
        "127.0.0.1", 0, [&] { return status; }, kSalt);
    QVERIFY(server.port() != 0);

    const auto dom = QString::fromUtf8(chromium(server.port(), {"--dump-dom"}));
    QVERIFY2(dom.contains("id=\"loss-chart\""), qPrintable(dom.left(2000)));
    QCOMPARE(capture(dom, "<body[^>]*data-charts=\"(\\w+)\""), QString("available"));
    QVERIFY(capture(dom, "<body[^>]*data-updates=\"(\\d+)\"").toInt() >= 1);

    // The chart laid out every point of both curves.
    const auto canvas = capture(dom, "(<canvas id=\"loss-chart\"[^>]*>)");
    QCOMPARE(capture(canvas, "data-loss-points=\"(\\d+)\"").toInt(), status.loss_size());
    QCOMPARE(capture(canvas, "data-validation-points=\"(\\d+)\"").toInt(),
             status.validation_size());
    // Each curve left a line of its colour on the canvas, not only its legend's swatch.
    QVERIFY2(capture(canvas, "data-training-pixels=\"(\\d+)\"").toInt() > 400, qPrintable(canvas));
    QVERIFY2(capture(canvas, "data-validation-pixels=\"(\\d+)\"").toInt() > 400,
             qPrintable(canvas));
    QVERIFY(capture(dom, "<canvas id=\"throughput-chart\"[^>]*data-points=\"(\\d+)\"").toInt() >=
            1);

    // The sample as text: its markup shows escaped, and made no element.
    const auto plain = QString::fromStdString(unescape(dom.toStdString()));
    QVERIFY(plain.contains(QString::fromStdString(status.evaluation().prompt())));
    QVERIFY(plain.contains(QString::fromStdString(status.evaluation().text())));
    QVERIFY(dom.contains("&lt;b&gt;great&lt;/b&gt;"));
    QVERIFY(!dom.contains("<b>great</b>"));

    // The leaderboard: every volunteer, in credit order.
    const auto board = capture(dom, "<table class=\"table\" id=\"leaderboard\">(.*?)</table>");
    std::vector<double> credits;
    for (const auto& m : QRegularExpression("data-credit=\"([0-9.]+)\"").globalMatch(board)) {
      credits.push_back(m.captured(1).toDouble());
    }
    QCOMPARE(credits.size(), static_cast<std::size_t>(status.nodes_size()));
    QCOMPARE(credits.front(), 44.0);
    for (std::size_t i = 1; i < credits.size(); ++i) QVERIFY(credits[i - 1] >= credits[i]);

    // The restoration, the pipelines as rows of stages, the volunteers, the bans.
    QVERIFY(dom.contains("data-first-block=\"4\" data-last-block=\"8\" data-snapshot=\"7\""));
    QVERIFY(plain.contains("Blocks 4–7 came back from snapshot 7"));
    QCOMPARE(dom.count("class=\"pipeline\""), 2);
    QCOMPARE(dom.count("class=\"stage\""), 5);
    QVERIFY(plain.contains("Waiting for a seat: volunteer "));
    const auto volunteers = capture(dom, "<table class=\"table\" id=\"volunteers\">(.*?)</table>");
    QCOMPARE(volunteers.count("<tr>"), 1 + status.nodes_size());
    QVERIFY(volunteers.contains("<span class=\"device cuda\">CUDA</span>"));
    QVERIFY(volunteers.contains("<td>relay</td>"));
    QVERIFY(dom.contains("data-code=\"CAUGHT_IN_SPOT_CHECKS\""));
    QVERIFY(plain.contains("2 of the 3 stages it sends to caught its activations wrong"));
    QVERIFY(plain.contains("Rookery · fortunes-gpt-small"));

    auto leak = testing::leaked(plain.toStdString(), hidden);
    QVERIFY2(leak.isEmpty(), qPrintable("the page shows " + leak));
    httplib::Client client("127.0.0.1", server.port());
    const auto api = client.Get("/api/status");
    QVERIFY(api);
    QCOMPARE(api->status, 200);
    leak = testing::leaked(api->body, hidden);
    QVERIFY2(leak.isEmpty(), qPrintable("/api/status shows " + leak));

    const auto shot = qEnvironmentVariable("ROOKERY_DASHBOARD_SCREENSHOT");
    if (!shot.isEmpty()) {
      QFile::remove(shot);
      chromium(server.port(), {"--screenshot=" + shot, "--window-size=1280,1000"});
      QVERIFY2(QFile::exists(shot), qPrintable(shot));
      qInfo("screenshot: %s", qPrintable(shot));
    }
  }

  void page_without_chart_js() {
    QVERIFY2(browser_.available(), "chromium is not installed (scripts/install-deps.sh)");
    const auto status = testing::fixture_status();
    dashboard::DashboardServer server(
        "127.0.0.1", 0, [&] { return status; }, kSalt, clock::SystemClock::instance(),
        "/nonexistent/chart.min.js");
    httplib::Client client("127.0.0.1", server.port());
    QCOMPARE(client.Get("/chart.js")->status, 404);
    const auto dom = QString::fromUtf8(chromium(server.port(), {"--dump-dom"}));
    QCOMPARE(capture(dom, "<body[^>]*data-charts=\"(\\w+)\""), QString("unavailable"));
    QVERIFY(dom.contains("<p class=\"notice charts-unavailable\">Charts are unavailable: "));
    const auto board = capture(dom, "<table class=\"table\" id=\"leaderboard\">(.*?)</table>");
    QCOMPARE(board.count("data-credit="), status.nodes_size());
  }

  void read_only_with_security_headers() {
    const auto status = testing::fixture_status();
    dashboard::DashboardServer server(
        "127.0.0.1", 0, [&] { return status; }, kSalt);
    httplib::Client client("127.0.0.1", server.port());
    for (const auto& path : {"/", "/api/status", "/nowhere"}) {
      const auto post = client.Post(path, "{}", "application/json");
      QVERIFY(post);
      QCOMPARE(post->status, 405);
      QCOMPARE(post->get_header_value("Allow"), std::string("GET, HEAD"));
      QCOMPARE(client.Put(path, "x", "text/plain")->status, 405);
      QCOMPARE(client.Delete(path)->status, 405);
      QCOMPARE(client.Options(path)->status, 405);
    }
    for (const auto& path : {"/nowhere", "/index.html/", "/api", "/api/status/x", "/../etc/passwd",
                             "/resources/dashboard/", "/usr/share/javascript/chart.js/"}) {
      const auto res = client.Get(path);
      QVERIFY(res);
      QVERIFY2(res->status == 404 || res->status == 400, path);
    }
    const auto page = client.Get("/");
    QCOMPARE(page->status, 200);
    QVERIFY(page->get_header_value("Content-Type").starts_with("text/html"));
    QVERIFY(page->body.find("<canvas id=\"loss-chart\"") != std::string::npos);
    for (const auto& path : {"/", "/dashboard.js", "/dashboard.css", "/api/status", "/nowhere"}) {
      const auto res = client.Get(path);
      QCOMPARE(res->get_header_value("Content-Security-Policy").rfind("default-src 'self'", 0),
               std::size_t{0});
      QCOMPARE(res->get_header_value("X-Content-Type-Options"), std::string("nosniff"));
      QVERIFY2(!res->has_header("Access-Control-Allow-Origin"), path);
    }
    const auto api = client.Get("/api/status");
    QCOMPARE(api->get_header_value_count("Cache-Control"), std::size_t{1});
    QCOMPARE(api->get_header_value("Cache-Control"), std::string("no-store"));
    QCOMPARE(api->get_header_value("Content-Type"), std::string("application/json"));
    QVERIFY(api->body.find("\"job_id\":\"fortunes-gpt-small\"") != std::string::npos);
    const auto head = client.Head("/api/status");
    QCOMPARE(head->status, 200);
    QVERIFY(head->body.empty());
    QCOMPARE(client.Get("/dashboard.js")->get_header_value("Content-Type"),
             std::string("text/javascript; charset=utf-8"));
  }

  void one_status_build_per_second() {
    clock::ManualClock clock;
    const auto status = testing::fixture_status();
    int calls = 0;
    dashboard::DashboardServer server(
        "127.0.0.1", 0,
        [&] {
          ++calls;
          return status;
        },
        kSalt, clock);
    httplib::Client client("127.0.0.1", server.port());
    QCOMPARE(server.status_builds(), std::uint64_t{0});
    for (int i = 0; i < 5; ++i) QCOMPARE(client.Get("/api/status")->status, 200);
    QCOMPARE(server.status_builds(), std::uint64_t{1});
    clock.advance(999ms);
    QCOMPARE(client.Get("/api/status")->status, 200);
    QCOMPARE(server.status_builds(), std::uint64_t{1});
    clock.advance(1ms);
    QCOMPARE(client.Get("/api/status")->status, 200);
    QCOMPARE(server.status_builds(), std::uint64_t{2});
    QCOMPARE(calls, 2);
  }

  void status_that_fails() {
    dashboard::DashboardServer server(
        "127.0.0.1", 0, []() -> wire::pb::RunStatus { throw std::runtime_error("state locked"); },
        kSalt);
    httplib::Client client("127.0.0.1", server.port());
    QCOMPARE(client.Get("/api/status")->status, 503);
    QCOMPARE(client.Get("/")->status, 200);
  }

  // A job id or a model's text that is not UTF-8 still makes JSON, with the bytes replaced.
  void bytes_that_are_not_utf8() {
    auto status = testing::fixture_status();
    status.set_job_id("job-\xff\xfe");
    status.mutable_evaluation()->set_text("caf\xc3");
    dashboard::DashboardServer server(
        "127.0.0.1", 0, [&] { return status; }, kSalt);
    httplib::Client client("127.0.0.1", server.port());
    const auto res = client.Get("/api/status");
    QCOMPARE(res->status, 200);
    QVERIFY(res->body.find("\"job_id\":\"job-\xef\xbf\xbd\xef\xbf\xbd\"") != std::string::npos);
    QVERIFY(res->body.find("\"text\":\"caf\xef\xbf\xbd\"") != std::string::npos);
  }

  void port_taken() {
    const auto status = testing::fixture_status();
    dashboard::DashboardServer first(
        "127.0.0.1", 0, [&] { return status; }, kSalt);
    try {
      dashboard::DashboardServer second(
          "127.0.0.1", first.port(), [&] { return status; }, kSalt);
      QFAIL("a second server bound a port the first listens on");
    } catch (const dashboard::DashboardError& e) {
      QVERIFY2(QString(e.what()).contains(QString::number(first.port())), e.what());
      QVERIFY2(QString(e.what()).contains("in use"), e.what());
    }
    // An address this host does not have.
    QVERIFY_THROWS_EXCEPTION(dashboard::DashboardError,
                             dashboard::DashboardServer(
                                 "203.0.113.7", 0, [&] { return status; }, kSalt));
    // The first still answers.
    httplib::Client client("127.0.0.1", first.port());
    QCOMPARE(client.Get("/")->status, 200);
  }
};

QTEST_GUILESS_MAIN(TestDashboardBrowser)
#include "test_dashboard_browser.moc"
