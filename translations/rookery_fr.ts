<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>Format</name>
    <message>
        <source>%1 GiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 / %2 GiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 PFLOP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 TFLOP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 TFLOP/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GFLOP/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 °C</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 W of %2 W</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contributing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GFLOP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>block %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>blocks %1–%2 of %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 samples/s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Rookery: lend this PC to a swarm that trains a neural network together.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder of rookery-node&apos;s control sockets (default: $XDG_RUNTIME_DIR/rookery).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rookery-node program to start when none runs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start in the tray, without opening the window.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contribute at once: ask rookery-node to contribute as soon as it answers (starting it when none runs).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Light or dark colours, or those of the desktop (default: the appearance/colours setting, else system).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rookery::ui::DeviceCard</name>
    <message>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Utilisation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Power</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Processor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PC load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rookery&apos;s share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Math library</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n logical core(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>GPU · computes on %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n more GPU(s) in this PC</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>CPU · computes on the processor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown processor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No GPU telemetry: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 · Rookery uses %n</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>measuring…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for rookery-node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This PC</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The device is shown once rookery-node answers.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rookery::ui::MainWindow</name>
    <message>
        <source>Rookery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rookery logo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lend this PC to a swarm of volunteers training a neural network together.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starts or pauses this PC&apos;s contribution to the training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rookery-node refused: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Started rookery-node (process %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rookery-node %1 · process %2 · data in %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rookery-node stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting rookery-node…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting to rookery-node…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contribute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rookery is still running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rookery keeps working in the tray. Use its menu to pause or quit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rookery keeps contributing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This PC goes on contributing in the background. Open Rookery again to pause it or to quit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping rookery-node: it finishes its current work unit and saves…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close Now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quitting Rookery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notice</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rookery::ui::NodeConnection</name>
    <message>
        <source>rookery-node stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rookery-node does not answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rookery-node is not running</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rookery::ui::NodeLauncher</name>
    <message>
        <source>rookery-node (process %1) is running but does not answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rookery-node was not found; set ROOKERY_NODE_BIN or install it beside rookery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rookery-node did not start after %1 attempts; see its log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>could not start %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rookery-node (process %1) does not answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rookery-node stopped right after starting; see its log</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rookery::ui::NodeStateCard</name>
    <message>
        <source>Node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Work units</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Work done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Coordinator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting to rookery-node…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none: computing a local benchmark workload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2 ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none: training a stage of a fixed pipeline plan</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rookery::ui::PipelineDiagram</name>
    <message>
        <source>Pipeline diagram</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This PC is not in a pipeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>A pipeline of %n stage(s), from the data to the loss.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>This PC is stage %1 and holds %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage %1 · this PC</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rookery::ui::SwarmCard</name>
    <message>
        <source>Your place in the swarm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Job</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Place in the pipeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Receives from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sends to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In flight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight versions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dropped · rejected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent to peers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not in a pipeline yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contributing benchmark work</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Benchmark work only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This PC computes a benchmark workload until a coordinator places it in a pipeline.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When you contribute, this PC computes a benchmark workload until a coordinator places it in a pipeline.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Job %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pipeline %1 · stage %2 of %3 · %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the dataset (first stage)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nobody: computes the loss (last stage)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n micro-batch(es)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 stashed · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dropped: micro-batches whose gradient did not come back in time. Rejected: messages that did not match what this stage expected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fed every micro-batch it was asked to; none is in flight.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for rookery-node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The swarm is shown once rookery-node answers.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rookery::ui::TrainingCard</name>
    <message>
        <source>Training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Moving average</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>micro-batches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loss chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loss of each micro-batch this stage completed (faint) and its moving average</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model to train yet: the loss curve appears here once this PC trains a stage of a pipeline.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for the first micro-batch to come back through the pipeline…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Press Contribute to train: the loss curve appears here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · average %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The training is shown once rookery-node answers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No loss yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loss %1 after %2 micro-batches; %3 at micro-batch %4</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rookery::ui::TrayIcon</name>
    <message>
        <source>Rookery tray menu</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contribute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Rookery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop contributing, stop rookery-node and close Rookery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rookery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rookery: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
