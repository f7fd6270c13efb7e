<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>Autostart</name>
    <message>
        <source>Cannot create the folder %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot remove %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot change %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A program path with a line break cannot start with the session</source>
        <translation type="unfinished"></translation>
    </message>
</context>
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
    <name>Reasons</name>
    <message>
        <source>Measuring this PC&apos;s compute speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused: press Contribute to start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slowed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training stage %1 of %2 in pipeline %3 (%4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Volunteer of job “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Volunteer of job “%1”: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Benchmark: matrix products on %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping: saving state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot start: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Work failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>snoozed until %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>outside the hours of the schedule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on battery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a full-screen application runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the PC is in use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the PC is idle and computing while idle is off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the PC is in use and the GPU is not used then</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU at %1, above %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>other programs use %1 of the CPU (resumes below %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>other programs use %1 of the CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory %1, more than the %2 allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the PC is idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n core(s)</source>
        <translation>
            <numerusform>%1 of %n core</numerusform>
            <numerusform>%1 of %n cores</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 CPU time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connecting to the coordinator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connected (version %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unreachable: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>joined job “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>refused this PC: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>banned this PC from the job: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the coordinator runs no job</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the coordinator runs another job (“%1”)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the job is invite-only and this invite is not valid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this invite has expired; ask the job&apos;s owner for a new one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the job&apos;s owner revoked this invite</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this PC&apos;s addresses are not TCP addresses</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this PC&apos;s measured speed, memory or network look implausible</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a ring partner proved, by its own signatures, that it handed the ring false averaged values</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 of its %n ring partner(s) reject its averaging contributions</source>
        <translation>
            <numerusform>%1 of its %n ring partner reject its averaging contributions</numerusform>
            <numerusform>%1 of its %n ring partners reject its averaging contributions</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of the %n stage(s) it sends to caught its activations wrong in spot-checks</source>
        <translation>
            <numerusform>%1 of the %n stage it sends to caught its activations wrong in spot-checks</numerusform>
            <numerusform>%1 of the %n stages it sends to caught its activations wrong in spot-checks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of the %n stage(s) it returns gradients to caught its gradients wrong in spot-checks</source>
        <translation>
            <numerusform>%1 of the %n stage it returns gradients to caught its gradients wrong in spot-checks</numerusform>
            <numerusform>%1 of the %n stages it returns gradients to caught its gradients wrong in spot-checks</numerusform>
        </translation>
    </message>
    <message>
        <source>a spare: its pipeline is faster without this PC, which waits to fill a seat that falls empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every pipeline of its bandwidth tier already has one PC per block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the volunteers together do not hold the model yet (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it joined after the plan was made</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unreachable: training on with the last plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pipeline %1, stage %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for a plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not in the plan: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>re-planning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>joining again (the coordinator restarted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fetching the job&apos;s data: %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no pipeline yet: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the coordinator ignored this PC&apos;s report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the coordinator cannot check invites (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no volunteer holds the job&apos;s data yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no other PC can reach this one yet, and no relay carries it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>input idleness</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>full-screen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>battery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>programs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no input for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing reports it here: the PC counts as in use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no desktop session reports it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no full-screen application</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on mains power</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no programs listed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>none of the %n listed program(s) runs</source>
        <translation>
            <numerusform>none of the %n listed program runs</numerusform>
            <numerusform>none of the %n listed programs runs</numerusform>
        </translation>
    </message>
    <message>
        <source>other programs %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hottest GPU %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 resident</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compute while I use the PC</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compute while the PC is idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU cores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The PC is idle after no input for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause while other programs use more CPU than</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause on battery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compute only at these times (empty: any time)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Upload at most</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download at most</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause while a full-screen application runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause while these programs run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause the GPU above</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On pause, finish the micro-batches already started (peers see a clean stop)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>% of cores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>% of the time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>% of RAM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>% (0: never)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KiB/s (0: unlimited)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>°C (0: no limit)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no NVIDIA driver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the NVIDIA driver&apos;s library is too old</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the NVIDIA driver did not start (is it loaded?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the NVIDIA driver reports no GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n NVIDIA GPU(s)</source>
        <translation>
            <numerusform>%n NVIDIA GPU</numerusform>
            <numerusform>%n NVIDIA GPUs</numerusform>
        </translation>
    </message>
    <message>
        <source>Reached on this PC only: the swarm runs here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reached directly at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reached through the router&apos;s port mapping (%1) at %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reached through a relay at %1: peers&apos; traffic passes it encrypted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reached by connection reversal: this PC dials its neighbours itself</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not reachable from the internet: waiting for a relay to carry this PC</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reached by connection reversal (%1): this PC dials its neighbours itself</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not reachable from the internet (%1): waiting for a relay to carry this PC</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>the job admits at most %n volunteer(s) from one address, and already has them from %1</source>
        <translation>
            <numerusform>the job admits at most %n volunteer from one address, and already has them from %1</numerusform>
            <numerusform>the job admits at most %n volunteers from one address, and already has them from %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the job admits at most %n volunteer(s) from one network, and already has them from %1</source>
        <translation>
            <numerusform>the job admits at most %n volunteer from one network, and already has them from %1</numerusform>
            <numerusform>the job admits at most %n volunteers from one network, and already has them from %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the job asks each join for a proof of work of %n bit(s), and this one carried none</source>
        <translation>
            <numerusform>the job asks each join for a proof of work of %n bit, and this one carried none</numerusform>
            <numerusform>the job asks each join for a proof of work of %n bits, and this one carried none</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>this join&apos;s proof of work gives %1 of the %n bit(s) the job asks for</source>
        <translation>
            <numerusform>this join&apos;s proof of work gives %1 of the %n bit the job asks for</numerusform>
            <numerusform>this join&apos;s proof of work gives %1 of the %n bits the job asks for</numerusform>
        </translation>
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
    <message>
        <source>Rookery could not snooze</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An invite link to join (rookery://join?…): Rookery offers to join its swarm.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rookery::ui::ContributionCard</name>
    <message>
        <source>%1 per day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 TFLOP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your contribution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Credit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>credits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recent average credit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recent average credit: credits per day, averaged so that credit earned a week ago counts half (as BOINC computes it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ledger status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples processed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hours contributed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confirmed by the swarm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The samples of this PC&apos;s work that the stages receiving it confirmed to the coordinator, and the credit they are worth: the run credits confirmed work only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 samples · %2 credits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time this PC spent computing for the swarm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Floating-point operations of the micro-batches this PC trained (1 TFLOP = 10¹² operations; 1 credit = 0.432 TFLOP)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show credit per day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show credit per hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 credits, %3 samples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Credit chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>History not available: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This rookery-node keeps no ledger</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recent average: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Not saved yet (%n unit(s) waiting): %1</source>
        <translation>
            <numerusform>Not saved yet (%n unit waiting): %1</numerusform>
            <numerusform>Not saved yet (%n units waiting): %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Shown once rookery-node answers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your contribution is shown once rookery-node answers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This rookery-node keeps no ledger, so there is no history to show.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the history…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing contributed yet. This PC runs a local benchmark, which earns no credit: credit comes with each micro-batch it trains for a pipeline.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing contributed yet: each micro-batch this PC trains earns credit (1 credit = 432 GFLOP, as in BOINC).</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Credit per day, the last %n day(s)</source>
        <translation>
            <numerusform>Credit per day, the last %n day</numerusform>
            <numerusform>Credit per day, the last %n days</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Credit per hour, the last %n hour(s)</source>
        <translation>
            <numerusform>Credit per hour, the last %n hour</numerusform>
            <numerusform>Credit per hour, the last %n hours</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 credits in all, most on %3 (%4). %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Credit: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rookery::ui::CoordinatorProbe</name>
    <message>
        <source>The coordinator at %1 answered (Rookery %2, %3 ms).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot reach the coordinator at %1. Check the address and your internet connection; the coordinator may also be down or behind a firewall.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Something answers at %1, but not the coordinator this link names: the secure handshake failed. Ask the job owner for a new invite link.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The coordinator at %1 refused this PC: it admits only volunteers on its list. Ask the job owner to add this PC, or for another invite.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The coordinator at %1 refused: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The coordinator at %1 accepted the connection but did not answer. It may be overloaded; try again later.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a Rookery coordinator.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not contact the coordinator at %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The coordinator at %1 answers but runs no job yet. Ask the job owner when the job starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The coordinator at %1 runs the job “%2”, not “%3” as the link says. Ask the job owner for a new invite link.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rookery::ui::DemoSwarm</name>
    <message>
        <source>rookery-node was not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rookery-coordinator was not found beside rookery-node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the demo job (demo-job.json) was not found; set ROOKERY_DEMO_JOB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no free port on 127.0.0.1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>could not start %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the demo coordinator did not start; see %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the demo coordinator wrote no address to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a job spec with an id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not size the demo job: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rookery::ui::DeviceCard</name>
    <message numerus="yes">
        <source>%n logical core(s)</source>
        <translation>
            <numerusform>%n logical core</numerusform>
            <numerusform>%n logical cores</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n more GPU(s) in this PC</source>
        <translation>
            <numerusform>%n more GPU in this PC</numerusform>
            <numerusform>%n more GPUs in this PC</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 · Rookery uses %n</source>
        <translation>
            <numerusform>%1 · Rookery uses %n</numerusform>
            <numerusform>%1 · Rookery uses %n</numerusform>
        </translation>
    </message>
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
    <message>
        <source>GPU · computes on %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation type="unfinished"></translation>
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
    <message>
        <source>Recent load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: now %2, highest %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not used for training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not used for training: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rookery::ui::FirstRunDialog</name>
    <message>
        <source>Welcome to Rookery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Join a training swarm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rookery lends this PC to a swarm of volunteers who train a neural network together. Choose the swarm to join; you can pause or quit at any time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Join the &amp;demo swarm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A small language model trained by a few volunteers on this PC: see Rookery at work within a minute.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Or paste an &amp;invite link from a job owner:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste the &amp;invite link a job owner gave you:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invite link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Join</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Not now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rookery computes a local benchmark until this PC joins a swarm.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Job “%1” at coordinator %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is not a valid invite link: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting the demo swarm on this PC…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demo swarm could not start: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contacting the coordinator at %1…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rookery::ui::InviteLink</name>
    <message>
        <source>the link names no coordinator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the coordinator must be a tcp://host:port address, not “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is not a valid tcp://host:port address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the coordinator&apos;s port must be between 1 and 65535, not %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the link has no coordinator key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the coordinator key must be 40 characters long, it has %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the coordinator key contains “%1”, which is not a Z85 character</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the link names no job</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the job id is longer than %1 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the job id may hold only letters, digits, &apos;.&apos;, &apos;-&apos; and &apos;_&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>paste an invite link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the link is longer than %1 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an invite link starts with rookery://join?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” in the link is not a name=value pair (is the key percent-encoded?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the link has an unknown part “%1” (is the key percent-encoded?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the link gives “%1” twice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the invite token is longer than %1 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the invite token may hold only visible ASCII characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the link has an empty invite token</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rookery::ui::LanguageChooser</name>
    <message>
        <source>&amp;Language:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The system&apos;s (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Applies when Rookery starts again.</source>
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
    <message>
        <source>Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How much of this PC Rookery may use, while you use it and while it is idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings are kept by rookery-node, which does not answer: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restarting rookery-node with its data in %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This PC left the job. Open an invite link to join a swarm again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restarting rookery-node to find out how it is reached…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restarting rookery-node to be reached at %1…</source>
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
    <message>
        <source>Allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sensors</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n thread(s)</source>
        <translation>
            <numerusform>%n thread</numerusform>
            <numerusform>%n threads</numerusform>
        </translation>
    </message>
    <message>
        <source>, %1% CPU time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, upload %1 KiB/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, download %1 KiB/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (in use)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (idle)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; not available: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
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
        <translation>
            <numerusform>A pipeline of %n stage, from the data to the loss.</numerusform>
            <numerusform>A pipeline of %n stages, from the data to the loss.</numerusform>
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
    <message numerus="yes">
        <source>The swarm: %n pipeline(s).</source>
        <translation>
            <numerusform>The swarm: %n pipeline.</numerusform>
            <numerusform>The swarm: %n pipelines.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pipeline %1, this PC&apos;s: %n stage(s), %2 samples/s.</source>
        <translation>
            <numerusform>Pipeline %1, this PC&apos;s: %n stage, %2 samples/s.</numerusform>
            <numerusform>Pipeline %1, this PC&apos;s: %n stages, %2 samples/s.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pipeline %1: %n stage(s), %2 samples/s.</source>
        <translation>
            <numerusform>Pipeline %1: %n stage, %2 samples/s.</numerusform>
            <numerusform>Pipeline %1: %n stages, %2 samples/s.</numerusform>
        </translation>
    </message>
    <message>
        <source>P%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this PC · %1/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rookery::ui::PresenceReporter</name>
    <message>
        <source>this window&apos;s input only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>needs the X11 screensaver extension (libXss)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>X11 screensaver extension</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the active window&apos;s _NET_WM_STATE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the window manager does not report the active window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not an X11 session</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rookery::ui::SettingsDialog</name>
    <message>
        <source>Rookery settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start with my session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Rookery in the tray when you log in (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Snooze for an hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>While I use my PC</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>While the PC is idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Always</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>any time; e.g. mon-fri 18:00-08:00; weekends 00:00-24:00</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none; e.g. steam, blender</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The node took your settings, but starting with your session could not be changed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting with your session could not be changed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Data folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where rookery-node keeps this PC&apos;s keys, its settings, the contribution ledger and checkpoints. Another folder starts afresh (a new identity, an empty ledger) unless you copy the old one there; the node restarts to use it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;hoose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the data folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The swarm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Leave this job…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This PC stops training for the job for good: the coordinator plans without it at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This PC volunteers for job “%1” at coordinator %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This PC talks to coordinator %1 but has joined none of its jobs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This PC trains a stage of a fixed pipeline plan, without a coordinator.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This PC has joined no swarm: open an invite link to join one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The data folder must be a full path, such as %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rookery&apos;s data folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave this job?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This PC stops training for the job for good; its contribution so far stays counted. Rookery then joins no swarm until you open an invite link.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The node cannot leave the job: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leaving the job: the node finishes its work in progress, tells the coordinator and stops.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reached at (e&amp;xperts):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address other PCs reach this one at</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>found out by Rookery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave empty: Rookery finds out how other PCs reach this one (through the home router, or a relay). An address here (a public IP address or host name of this PC) is used as it is, and the node listens only there; the node restarts to use it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is not an address: give an IP address (such as 203.0.113.7 or 2001:db8::7) or a host name, or leave it empty.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>rookery::ui::SingleInstance</name>
    <message>
        <source>cannot create %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rookery is already running (process %1) but does not answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rookery is already running but does not answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot listen on %1: %2</source>
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
        <source>Ring partners</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none: no other pipeline averages with this one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pipeline %1 · %2 · %3 values shared</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · excluded</source>
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
        <translation>
            <numerusform>%n micro-batch</numerusform>
            <numerusform>%n micro-batches</numerusform>
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
    <message>
        <source>The swarm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run&apos;s loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n volunteer(s) in %1 · %2 samples/s</source>
        <translation>
            <numerusform>%n volunteer in %1 · %2 samples/s</numerusform>
            <numerusform>%n volunteers in %1 · %2 samples/s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n pipeline(s)</source>
        <translation>
            <numerusform>%n pipeline</numerusform>
            <numerusform>%n pipelines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Plan %1 from the coordinator; it has re-planned %n time(s) as volunteers came and went.</source>
        <translation>
            <numerusform>Plan %1 from the coordinator; it has re-planned %n time as volunteers came and went.</numerusform>
            <numerusform>Plan %1 from the coordinator; it has re-planned %n times as volunteers came and went.</numerusform>
        </translation>
    </message>
    <message>
        <source>not ranked yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1 of %2 by confirmed samples (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The stages that received this PC&apos;s work confirmed %1 of the %2 samples it did; the run credits only confirmed work.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (from %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no loss reported yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run&apos;s loss curve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run&apos;s loss went from %1 to %2 in %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How peers reach this PC</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Held-out loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its held-out loss is %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>held-out %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no snapshot yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The coordinator keeps snapshots of the whole model, collected from the volunteers who train it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>snapshot %1, %2 ago</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Blocks %1–%2 came back from snapshot %3, %4 ago: no volunteer held them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>blocks %1–%2 restored from snapshot %3</source>
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
    <message>
        <source>What the run&apos;s model writes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the run&apos;s model predicts (snapshot %1, held-out loss %2, accuracy %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 as %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 held-out images right: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the run&apos;s model writes (snapshot %1, held-out loss %2)</source>
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
    <message>
        <source>Rookery: the disk is full</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rookery-node cannot save its work: %1. Free some disk space on this PC, then start Rookery again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rookery stopped contributing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rookery-node reports an error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The coordinator refused this PC</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The training job ended</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This PC has nothing more to do for its job. Thank you for contributing!</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” has ended: this PC has nothing more to do for it. Thank you for contributing!</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rookery-node cannot record your contribution: %1. Free some disk space on this PC; the work done meanwhile is written once there is room.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Snooze for an hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End the snooze</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The coordinator banned this PC</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Banned from the job: %1. This PC no longer trains with the swarm; open Rookery for details.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refused: %1. This PC no longer trains with the swarm; open Rookery for details.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
