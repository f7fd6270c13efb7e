// The dashboard cards from hand-made snapshots: the GPU path (which the test machines may
// lack), the CPU path, and the node state in words.
#include <QDir>
#include <QLabel>
#include <QChartView>
#include <QLineSeries>
#include <QTest>
#include <cmath>
#include <deque>
#include <tuple>

#include "ui/cards/device_card.hpp"
#include "ui/cards/swarm_card.hpp"
#include "ui/widgets/pipeline_diagram.hpp"
#include "ui/cards/node_state_card.hpp"
#include "ui/widgets/sparkline.hpp"

namespace pb = rookery::wire::pb;
using rookery::ui::DeviceCard;
using rookery::ui::NodeStateCard;
using rookery::ui::Sparkline;
using rookery::ui::SwarmCard;

namespace {
pb::DeviceSnapshot gpuMachine() {
  pb::DeviceSnapshot d;
  d.set_compute_device("cuda:0");
  d.set_cpu_model("AMD Ryzen 9 7950X 16-Core Processor");
  d.set_cpu_cores(32);
  d.set_ram_total_bytes(64ull << 30);
  d.set_ram_available_bytes(40ull << 30);
  d.set_cuda_available(true);
  d.set_blas("cuBLAS and cuDNN on NVIDIA GeForce RTX 4090 (LibTorch 2.11.0)");
  d.set_measured_gflops(61234);
  auto* g = d.add_gpus();
  g->set_index(0);
  g->set_name("NVIDIA GeForce RTX 4090");
  g->set_memory_total_bytes(24ull << 30);
  g->set_memory_used_bytes(3ull << 30);
  g->set_utilization_percent(87);
  g->set_temperature_c(64);
  g->set_power_w(220);
  g->set_power_limit_w(450);
  return d;
}

QString valueOf(const QWidget& card, const char* name) {
  auto* label = card.findChild<QLabel*>(QString::fromLatin1(name));
  return label && label->isVisibleTo(&card) ? label->text() : QString();
}

void maybeSave(QWidget& w, const QString& name) {
  const QString dir = qEnvironmentVariable("ROOKERY_GUI_SCREENSHOTS");
  if (!dir.isEmpty()) w.grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}
}  // namespace

class TestCards : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

  void deviceCardShowsTheGpu() {
    DeviceCard card;
    card.resize(420, 360);
    card.show();
    card.showSnapshot(gpuMachine());
    QCOMPARE(card.deviceName(), QStringLiteral("NVIDIA GeForce RTX 4090"));
    QCOMPARE(valueOf(card, "gpuMemory"), QStringLiteral("3.0 / 24.0 GiB"));
    QCOMPARE(valueOf(card, "gpuUtilisation"), QStringLiteral("87 %"));
    QCOMPARE(valueOf(card, "gpuTemperature"), QStringLiteral("64 °C"));
    QCOMPARE(valueOf(card, "gpuPower"), QStringLiteral("220 W of 450 W"));
    QVERIFY(valueOf(card, "cpuSummary").contains(QStringLiteral("AMD Ryzen 9 7950X")));
    QVERIFY(valueOf(card, "cpuSummary").contains(QStringLiteral("32")));
    QCOMPARE(valueOf(card, "measuredSpeed"), QStringLiteral("61.2 TFLOP/s"));
    QVERIFY(valueOf(card, "machineLoad").isEmpty());  // CPU rows give way to the GPU's
    maybeSave(card, QStringLiteral("device-card-gpu"));
  }

  void deviceCardPicksTheGpuTheNodeComputesOn() {
    auto d = gpuMachine();
    auto* second = d.add_gpus();
    second->set_index(1);
    second->set_name("NVIDIA RTX A6000");
    d.set_compute_device("cuda:1");
    DeviceCard card;
    card.showSnapshot(d);
    QCOMPARE(card.deviceName(), QStringLiteral("NVIDIA RTX A6000"));
    QVERIFY(card.summaryText().contains(QStringLiteral("1 more GPU")));
  }

  void deviceCardShowsTheCpuWithoutGpu() {
    pb::DeviceSnapshot d;
    d.set_compute_device("cpu");
    d.set_cpu_model("Intel(R) Core(TM) i5-8250U CPU @ 1.60GHz");
    d.set_cpu_cores(8);
    d.set_ram_total_bytes(16ull << 30);
    d.set_ram_available_bytes(12ull << 30);
    d.set_cpu_load_percent(23);
    d.set_node_cpu_percent(12);
    d.set_compute_threads(4);
    d.set_gpu_status("no NVIDIA driver (libnvidia-ml.so.1 not found)");
    d.set_blas("Intel oneMKL 2024.2 (LibTorch 2.11.0)");
    d.set_measured_gflops(95.5);
    DeviceCard card;
    card.show();
    card.showSnapshot(d);
    QCOMPARE(card.deviceName(), QStringLiteral("Intel(R) Core(TM) i5-8250U CPU @ 1.60GHz"));
    QVERIFY(valueOf(card, "cpuCores").contains(QStringLiteral("8")));
    QCOMPARE(valueOf(card, "ram"), QStringLiteral("4.0 / 16.0 GiB"));
    QCOMPARE(valueOf(card, "machineLoad"), QStringLiteral("23 %"));
    QCOMPARE(valueOf(card, "nodeCpu"), QStringLiteral("12 %"));
    QCOMPARE(valueOf(card, "blas"), QStringLiteral("Intel oneMKL 2024.2"));
    QVERIFY(valueOf(card, "gpuMemory").isEmpty());
    QVERIFY(card.summaryText().contains(QStringLiteral("libnvidia-ml.so.1")));
  }

  // A GPU the CPU trains beside (its driver is there, LibTorch's CUDA part is not): the card
  // names the CPU as the device, shows no GPU rows, and says why the GPU idles.
  void deviceCardSaysWhyAnIdleGpuIsNotUsed() {
    auto d = gpuMachine();
    d.set_compute_device("cpu");
    d.set_cuda_available(false);
    d.set_blas("Intel oneMKL 2024.2 (LibTorch 2.11.0)");
    d.set_gpu_unused(
        "cannot load /usr/lib/rookery/librookery_cuda.so: libtorch_cuda.so: cannot open");
    DeviceCard card;
    card.show();
    card.showSnapshot(d);
    QCOMPARE(card.deviceName(), QStringLiteral("AMD Ryzen 9 7950X 16-Core Processor"));
    QVERIFY(valueOf(card, "gpuTemperature").isEmpty());
    QVERIFY(!valueOf(card, "machineLoad").isEmpty());
    QVERIFY(card.summaryText().contains(QStringLiteral("CPU")));
    QVERIFY2(card.summaryText().contains(
                 QStringLiteral("NVIDIA GeForce RTX 4090 is not used for training: cannot load")),
             qPrintable(card.summaryText()));
    maybeSave(card, QStringLiteral("device-card-idle-gpu"));
  }

  void deviceCardKeepsALiveHistory() {
    DeviceCard card;
    card.setHistoryInterval(std::chrono::milliseconds(0));  // every snapshot is a sample
    card.resize(420, 420);
    card.show();
    Sparkline* history = card.history();
    QVERIFY(!history->isVisibleTo(&card));  // nothing to draw before the node answers
    pb::DeviceSnapshot d;
    d.set_compute_device("cpu");
    d.set_cpu_model("Intel(R) Core(TM) i5-8250U CPU @ 1.60GHz");
    d.set_cpu_cores(8);
    for (int load : {10, 80, 40}) {
      d.set_cpu_load_percent(load);
      d.set_node_cpu_percent(load / 2);
      card.showSnapshot(d);
    }
    QVERIFY(history->isVisibleTo(&card));
    maybeSave(card, QStringLiteral("device-card-cpu-history"));
    QCOMPARE(history->size(), 3);
    QCOMPARE(history->series(0), (std::deque<double>{0.10, 0.80, 0.40}));
    QCOMPARE(history->series(1), (std::deque<double>{0.05, 0.40, 0.20}));
    QVERIFY2(card.summaryText().contains(QStringLiteral("PC load: now 40 %, highest 80 %")),
             qPrintable(card.summaryText()));
    QVERIFY(history->accessibleDescription().contains(
        QStringLiteral("Rookery's share: now 20 %, highest 40 %")));

    // While the node is away, a gap; at most `capacity` samples are kept.
    card.showDisconnected();
    QCOMPARE(history->size(), 4);
    QVERIFY(std::isnan(history->series(0).back()));
    for (int i = 0; i < history->capacity() + 10; ++i) card.showSnapshot(d);
    QCOMPARE(history->size(), history->capacity());
    QCOMPARE(history->highest(0), 0.40);  // the 80 % sample has scrolled out

    // On a GPU the history follows the GPU, starting afresh.
    card.showSnapshot(gpuMachine());
    QCOMPARE(history->size(), 1);
    QCOMPARE(history->series(0).back(), 0.87);
    QCOMPARE(history->series(1).back(), 3.0 / 24.0);
    QVERIFY(card.summaryText().contains(QStringLiteral("Utilisation: now 87 %")));
    QVERIFY(card.summaryText().contains(QStringLiteral("GPU memory: now 13 %")));
    maybeSave(card, QStringLiteral("device-card-history"));
  }

  void deviceCardSamplesTheHistoryAtItsInterval() {
    DeviceCard card;
    card.setHistoryInterval(std::chrono::milliseconds(200));
    pb::DeviceSnapshot d;
    d.set_compute_device("cpu");
    for (int i = 0; i < 5; ++i) card.showSnapshot(d);  // a burst of snapshots: one sample
    QCOMPARE(card.history()->size(), 1);
    QTest::qWait(250);
    card.showSnapshot(d);
    QCOMPARE(card.history()->size(), 2);
  }

  void nodeStateCardSaysTheState_data() {
    QTest::addColumn<int>("state");
    QTest::addColumn<QString>("words");
    QTest::newRow("starting") << int(pb::STARTING) << "Starting";
    QTest::newRow("paused") << int(pb::PAUSED) << "Paused";
    QTest::newRow("contributing") << int(pb::CONTRIBUTING) << "Contributing";
    QTest::newRow("stopping") << int(pb::STOPPING) << "Stopping";
    QTest::newRow("failed") << int(pb::FAILED) << "Failed";
  }
  void nodeStateCardSaysTheState() {
    QFETCH(int, state);
    QFETCH(QString, words);
    pb::NodeSnapshot s;
    s.set_state(static_cast<pb::NodeState>(state));
    s.set_state_reason("paused: press Contribute to start");
    s.mutable_work()->set_work_units(1234);
    s.mutable_work()->set_flops(2.5e12);
    s.mutable_work()->set_current_gflops(45.6);
    s.set_uptime_seconds(3725);
    NodeStateCard card;
    card.showSnapshot(s);
    QCOMPARE(card.stateText(), words);
    QCOMPARE(card.reasonText(), QStringLiteral("Paused: press Contribute to start"));
    QCOMPARE(valueOf(card, "workUnits"), QStringLiteral("1,234"));
    QCOMPARE(valueOf(card, "workDone"), QStringLiteral("2.50 TFLOP"));
    QCOMPARE(valueOf(card, "uptime"), QStringLiteral("1 h 02 min"));
    QCOMPARE(valueOf(card, "currentSpeed"),
             state == pb::CONTRIBUTING ? QStringLiteral("45.6 GFLOP/s") : QStringLiteral("idle"));
    card.showDisconnected(QStringLiteral("rookery-node is not running"));
    QCOMPARE(card.stateText(), QStringLiteral("Not running"));
    QCOMPARE(card.reasonText(), QStringLiteral("rookery-node is not running"));
  }

  void swarmCardListsTheRingPartners() {
    pb::NodeSnapshot s;
    s.set_state(pb::CONTRIBUTING);
    auto* st = s.mutable_stage();
    st->set_job_id("demo");
    st->set_pipeline(0);
    st->set_stage(0);
    st->set_stage_count(2);
    st->set_first_block(0);
    st->set_last_block(2);
    st->set_block_count(4);
    SwarmCard card;
    card.show();
    card.showSnapshot(s);
    QCOMPARE(valueOf(card, "ringPartners"),
             QStringLiteral("none: no other pipeline averages with this one"));
    const std::string liar(40, 'x');
    for (const auto& [key, pipeline, values] :
         {std::tuple{std::string(40, 'p'), 1u, 209152}, std::tuple{liar, 2u, 52288}}) {
      auto* r = st->add_ring_partners();
      r->set_key(key);
      r->set_endpoint("tcp://10.0.0." + std::to_string(pipeline + 4) + ":7101");
      r->set_pipeline(pipeline);
      r->set_shared_values(values);
      r->set_rings(1);
    }
    st->add_excluded_peers(liar);
    card.showSnapshot(s);
    QCOMPARE(valueOf(card, "ringPartners"),
             QStringLiteral("pipeline 2 · 10.0.0.5:7101 · 209,152 values shared\n"
                            "pipeline 3 · 10.0.0.6:7101 · 52,288 values shared · excluded"));
    QVERIFY(card.summaryText().contains(QStringLiteral("10.0.0.6:7101")));
    maybeSave(card, QStringLiteral("swarm-card-partners"));
  }

  void swarmCardSaysHowThisPcIsReached_data() {
    QTest::addColumn<int>("way");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown") << int(pb::REACH_UNKNOWN) << QString();
    QTest::newRow("local") << int(pb::REACH_LOCAL)
                           << QStringLiteral("Reached on this PC only: the swarm runs here");
    QTest::newRow("direct") << int(pb::REACH_DIRECT)
                            << QStringLiteral("Reached directly at 198.20.0.9:7000");
    QTest::newRow("mapping")
        << int(pb::REACH_ROUTER_MAPPING)
        << QStringLiteral(
               "Reached through the router's port mapping (UPnP IGD) at 198.20.0.9:7000");
    QTest::newRow("relayed")
        << int(pb::REACH_RELAYED)
        << QStringLiteral(
               "Reached through a relay at 198.20.0.1: peers' traffic passes it encrypted");
    QTest::newRow("reversed") << int(pb::REACH_REVERSED)
                              << QStringLiteral(
                                     "Reached by connection reversal (no UPnP internet gateway on "
                                     "the LAN): this PC dials its neighbours itself");
    QTest::newRow("unreachable") << int(pb::REACH_UNREACHABLE)
                                 << QStringLiteral(
                                        "Not reachable from the internet (no UPnP internet gateway "
                                        "on the LAN): waiting for a relay to carry this PC");
  }
  void swarmCardSaysHowThisPcIsReached() {
    QFETCH(int, way);
    QFETCH(QString, expected);
    pb::NodeSnapshot s;
    s.set_state(pb::CONTRIBUTING);
    auto* r = s.mutable_reach();
    r->set_way(static_cast<pb::ReachWay>(way));
    r->set_endpoint("198.20.0.9:7000");
    r->set_mapping_protocol("UPnP IGD");
    r->set_relay("198.20.0.1");
    r->set_mapping_error("no UPnP internet gateway on the LAN");
    SwarmCard card;
    card.show();
    card.showSnapshot(s);  // not in a pipeline yet: how it is reached shows all the same
    QCOMPARE(card.reachText(), expected);
    if (!expected.isEmpty()) QVERIFY(card.summaryText().contains(expected));
    card.showDisconnected();
    QCOMPARE(card.reachText(), QString());
  }

  void swarmCardShowsTheRunFromTheCoordinator() {
    pb::NodeSnapshot s;
    s.set_state(pb::CONTRIBUTING);
    s.set_node_key(std::string(40, 'm'));
    auto* st = s.mutable_stage();
    st->set_job_id("demo");
    st->set_pipeline(1);
    st->set_stage(1);
    st->set_stage_count(3);
    st->set_first_block(2);
    st->set_last_block(4);
    st->set_block_count(6);
    SwarmCard card;
    card.showSnapshot(s);
    QVERIFY(!card.summaryText().contains("volunteer"));  // no coordinator: no run rows
    auto* run = s.mutable_run();
    run->set_pipelines(2);
    run->set_samples_per_s(66.25);
    run->set_plan_version(4);
    run->set_replans(4);
    // Ranked by confirmed samples: 'c' claims the most, but its consumers confirm little.
    // Two pipelines of two, cut differently: a [0,3) c [3,6) | b [0,2) m [2,6), this PC 'm'.
    struct Node {
      char key;
      std::int64_t samples, confirmed;
      int pipeline, stage, first, last;
      double rate;
    };
    const Node nodes[] = {{'a', 900, 880, 0, 0, 0, 3, 33.5},
                          {'m', 720, 700, 1, 1, 2, 6, 32.75},
                          {'b', 500, 500, 1, 0, 0, 2, 32.5},
                          {'c', 12000, 300, 0, 1, 3, 6, 33.25}};
    for (const auto& x : nodes) {
      auto* n = run->add_nodes();
      n->set_key(std::string(40, x.key));
      n->set_samples(x.samples);
      n->set_confirmed_samples(x.confirmed);
      n->set_pipeline(x.pipeline);
      n->set_stage(x.stage);
      n->set_first_block(x.first);
      n->set_last_block(x.last);
      n->set_samples_per_s(x.rate);
    }
    card.showSnapshot(s);
    QVERIFY(!card.runLossView()->isVisibleTo(&card));  // no loss yet: no curve
    std::int64_t at = 1'700'000'000'000;
    for (const double l : {5.5, 3.25, 2.408}) {
      auto* p = run->add_loss();
      p->set_loss(l);
      p->set_unix_ms(at);
      at += 90'000;
    }
    card.showSnapshot(s);
    // The run's loss curve: minutes since its first point.
    QVERIFY(card.runLossView()->isVisibleTo(&card));
    QCOMPARE(card.runLossSeries()->count(), 3);
    QCOMPARE(card.runLossSeries()->at(0), QPointF(0, 5.5));
    QCOMPARE(card.runLossSeries()->at(2), QPointF(3, 2.408));
    QVERIFY(!card.runLossView()->accessibleName().isEmpty());
    const auto text = card.summaryText();
    QVERIFY2(text.contains("4 volunteer(s) in 2 pipeline(s) · 66.3 samples/s"), qPrintable(text));
    QVERIFY2(text.contains("#2 of 4 by confirmed samples (700)"), qPrintable(text));
    const auto* rank = card.findChild<QLabel*>(QStringLiteral("runRank"));
    QVERIFY(rank && rank->toolTip().contains(QStringLiteral("700 of the 720 samples")));
    QVERIFY2(text.contains("2.408 (from 5.500)"), qPrintable(text));
    // The diagram shows the swarm: both pipelines, each stage over its blocks with its
    // throughput, this PC's seat marked; in words for screen readers.
    const auto& swarm = card.diagram()->shape().swarm;
    QCOMPARE(swarm.size(), std::size_t(2));
    QCOMPARE(swarm[0].size(), std::size_t(2));
    QCOMPARE(swarm[0][1].first_block, qint64(3));
    QCOMPARE(swarm[1][0].last_block, qint64(2));
    QVERIFY(swarm[1][1].mine && !swarm[1][0].mine && !swarm[0][0].mine);
    QCOMPARE(swarm[0][0].samples_per_s, 33.5);
    const QString words = card.diagram()->accessibleDescription();
    QVERIFY2(words.contains("2 pipeline(s)") &&
                 words.contains("Pipeline 2, this PC's: 2 stage(s), 32.5 samples/s") &&
                 words.contains("Pipeline 1: 2 stage(s), 33.5 samples/s"),
             qPrintable(words));
    QVERIFY(card.diagram()->sizeHint().height() >
            rookery::ui::PipelineDiagram().sizeHint().height());
    card.resize(520, card.sizeHint().height());
    maybeSave(card, QStringLiteral("swarm-card-run"));

    // A large run answers one page: the count and this PC's place come from the coordinator,
    // not from the rows on the page (which here do not even hold this PC).
    run->set_total_nodes(1000);
    run->mutable_nodes()->DeleteSubrange(1, 1);  // 'm' is on another page
    auto* me = run->mutable_asker();
    me->set_key(std::string(40, 'm'));
    me->set_samples(720);
    me->set_confirmed_samples(700);
    run->set_asker_rank(17);
    card.showSnapshot(s);
    const auto paged = card.summaryText();
    QVERIFY2(paged.contains("1000 volunteer(s) in 2 pipeline(s)"), qPrintable(paged));
    QVERIFY2(paged.contains("#17 of 1000 by confirmed samples (700)"), qPrintable(paged));
  }
};

QTEST_MAIN(TestCards)
#include "test_cards.moc"
