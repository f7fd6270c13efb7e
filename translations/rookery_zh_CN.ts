<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Autostart</name>
    <message>
        <source>Cannot create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cannot remove %1: %2</source>
        <translation>无法删除 %1：%2</translation>
    </message>
    <message>
        <source>Cannot change %1</source>
        <translation>无法修改 %1</translation>
    </message>
    <message>
        <source>A program path with a line break cannot start with the session</source>
        <translation>含换行符的程序路径无法随会话启动</translation>
    </message>
</context>
<context>
    <name>Format</name>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>%1 / %2 GiB</source>
        <translation>%1 / %2 GiB</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 天 %2 小时</translation>
    </message>
    <message>
        <source>%1 PFLOP</source>
        <translation>%1 PFLOP</translation>
    </message>
    <message>
        <source>%1 TFLOP</source>
        <translation>%1 TFLOP</translation>
    </message>
    <message>
        <source>%1 TFLOP/s</source>
        <translation>%1 TFLOP/s</translation>
    </message>
    <message>
        <source>%1 GFLOP/s</source>
        <translation>%1 GFLOP/s</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>%1 °C</source>
        <translation>%1 °C</translation>
    </message>
    <message>
        <source>%1 W of %2 W</source>
        <translation>%1 W / %2 W</translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation>%1 W</translation>
    </message>
    <message>
        <source>Not running</source>
        <translation>未运行</translation>
    </message>
    <message>
        <source>Starting</source>
        <translation>正在启动</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Contributing</source>
        <translation>正在贡献</translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation>正在停止</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>%1 GFLOP</source>
        <translation>%1 GFLOP</translation>
    </message>
    <message>
        <source>block %1 of %2</source>
        <translation>块 %1（共 %2 块）</translation>
    </message>
    <message>
        <source>blocks %1–%2 of %3</source>
        <translation>块 %1–%2（共 %3 块）</translation>
    </message>
    <message>
        <source>%1 samples/s</source>
        <translation>%1 样本/秒</translation>
    </message>
</context>
<context>
    <name>Reasons</name>
    <message>
        <source>Measuring this PC&apos;s compute speed</source>
        <translation>正在测量这台电脑的计算速度</translation>
    </message>
    <message>
        <source>Paused: press Contribute to start</source>
        <translation>已暂停：点击“贡献算力”开始</translation>
    </message>
    <message>
        <source>Slowed: %1</source>
        <translation>已降速：%1</translation>
    </message>
    <message>
        <source>Paused: %1</source>
        <translation>已暂停：%1</translation>
    </message>
    <message>
        <source>Training stage %1 of %2 in pipeline %3 (%4)</source>
        <translation>正在训练流水线 %3 的第 %1 阶段（共 %2 个）（%4）</translation>
    </message>
    <message>
        <source>Volunteer of job “%1”</source>
        <translation>任务“%1”的志愿者</translation>
    </message>
    <message>
        <source>Volunteer of job “%1”: %2</source>
        <translation>任务“%1”的志愿者：%2</translation>
    </message>
    <message>
        <source>Benchmark: matrix products on %1</source>
        <translation>基准测试：在 %1 上计算矩阵乘积</translation>
    </message>
    <message>
        <source>Stopping: saving state</source>
        <translation>正在停止：保存状态</translation>
    </message>
    <message>
        <source>Cannot start: %1</source>
        <translation>无法启动：%1</translation>
    </message>
    <message>
        <source>Work failed: %1</source>
        <translation>工作失败：%1</translation>
    </message>
    <message>
        <source>snoozed until %1</source>
        <translation>暂停到 %1</translation>
    </message>
    <message>
        <source>outside the hours of the schedule</source>
        <translation>不在计划的时间段内</translation>
    </message>
    <message>
        <source>on battery</source>
        <translation>使用电池供电</translation>
    </message>
    <message>
        <source>%1 is running</source>
        <translation>%1 正在运行</translation>
    </message>
    <message>
        <source>a full-screen application runs</source>
        <translation>有全屏应用程序在运行</translation>
    </message>
    <message>
        <source>the PC is in use</source>
        <translation>电脑正在使用中</translation>
    </message>
    <message>
        <source>the PC is idle and computing while idle is off</source>
        <translation>电脑空闲，但空闲时计算已关闭</translation>
    </message>
    <message>
        <source>the PC is in use and the GPU is not used then</source>
        <translation>电脑正在使用中，此时不使用 GPU</translation>
    </message>
    <message>
        <source>GPU at %1, above %2</source>
        <translation>GPU 温度 %1，高于 %2</translation>
    </message>
    <message>
        <source>other programs use %1 of the CPU (resumes below %2)</source>
        <translation>其他程序占用 %1 的 CPU（低于 %2 时恢复）</translation>
    </message>
    <message>
        <source>other programs use %1 of the CPU</source>
        <translation>其他程序占用 %1 的 CPU</translation>
    </message>
    <message>
        <source>memory %1, more than the %2 allowed</source>
        <translation>内存 %1，超过允许的 %2</translation>
    </message>
    <message>
        <source>the PC is idle</source>
        <translation>电脑空闲</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n core(s)</source>
        <translation>
            <numerusform>%1 / %n 个核心</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 CPU time</source>
        <translation>%1 CPU 时间</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>connecting to the coordinator</source>
        <translation>正在连接协调器</translation>
    </message>
    <message>
        <source>connected (version %1)</source>
        <translation>已连接（版本 %1）</translation>
    </message>
    <message>
        <source>unreachable: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <source>joined job “%1”</source>
        <translation>已加入任务“%1”</translation>
    </message>
    <message>
        <source>refused this PC: %1</source>
        <translation>拒绝了这台电脑：%1</translation>
    </message>
    <message>
        <source>banned this PC from the job: %1</source>
        <translation>已禁止这台电脑参与该任务：%1</translation>
    </message>
    <message>
        <source>the coordinator runs no job</source>
        <translation>协调器没有运行任何任务</translation>
    </message>
    <message>
        <source>the coordinator runs another job (“%1”)</source>
        <translation>协调器运行的是另一个任务（“%1”）</translation>
    </message>
    <message>
        <source>the job is invite-only and this invite is not valid</source>
        <translation>该任务仅限受邀加入，而此邀请无效</translation>
    </message>
    <message>
        <source>this invite has expired; ask the job&apos;s owner for a new one</source>
        <translation>此邀请已过期；请向任务所有者索取新的邀请</translation>
    </message>
    <message>
        <source>the job&apos;s owner revoked this invite</source>
        <translation>任务所有者已撤销此邀请</translation>
    </message>
    <message>
        <source>this PC&apos;s addresses are not TCP addresses</source>
        <translation>本机的地址不是 TCP 地址</translation>
    </message>
    <message>
        <source>this PC&apos;s measured speed, memory or network look implausible</source>
        <translation>本机测得的速度、内存或网络看起来不合理</translation>
    </message>
    <message>
        <source>a ring partner proved, by its own signatures, that it handed the ring false averaged values</source>
        <translation>一个环伙伴凭其自身的签名证明它向环交付了虚假的平均值</translation>
    </message>
    <message numerus="yes">
        <source>%1 of its %n ring partner(s) reject its averaging contributions</source>
        <translation>
            <numerusform>其 %n 个环上伙伴中有 %1 个拒绝其平均贡献</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of the %n stage(s) it sends to caught its activations wrong in spot-checks</source>
        <translation>
            <numerusform>其发送目标的 %n 个阶段中有 %1 个在抽查中发现其激活值有误</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of the %n stage(s) it returns gradients to caught its gradients wrong in spot-checks</source>
        <translation>
            <numerusform>其回传梯度的 %n 个阶段中有 %1 个在抽查中发现其梯度有误</numerusform>
        </translation>
    </message>
    <message>
        <source>a spare: its pipeline is faster without this PC, which waits to fill a seat that falls empty</source>
        <translation>备用：其流水线没有本机更快，本机等待填补空出的位置</translation>
    </message>
    <message>
        <source>every pipeline of its bandwidth tier already has one PC per block</source>
        <translation>其带宽层级中的每条流水线已为每个块分配了一台电脑</translation>
    </message>
    <message>
        <source>the volunteers together do not hold the model yet (%1)</source>
        <translation>志愿者们合起来尚不能容纳该模型（%1）</translation>
    </message>
    <message>
        <source>it joined after the plan was made</source>
        <translation>它在计划制定之后才加入</translation>
    </message>
    <message>
        <source>unreachable: training on with the last plan</source>
        <translation>无法连接：按上一个计划继续训练</translation>
    </message>
    <message>
        <source>pipeline %1, stage %2</source>
        <translation>流水线 %1，第 %2 阶段</translation>
    </message>
    <message>
        <source>waiting for a plan</source>
        <translation>正在等待计划</translation>
    </message>
    <message>
        <source>not in the plan: %1</source>
        <translation>不在计划中：%1</translation>
    </message>
    <message>
        <source>re-planning</source>
        <translation>正在重新规划</translation>
    </message>
    <message>
        <source>joining again (the coordinator restarted)</source>
        <translation>正在重新加入（协调器已重启）</translation>
    </message>
    <message>
        <source>fetching the job&apos;s data: %1 of %2</source>
        <translation>正在获取任务数据：%2 中的 %1</translation>
    </message>
    <message>
        <source>no pipeline yet: %1</source>
        <translation>尚无流水线：%1</translation>
    </message>
    <message>
        <source>the coordinator ignored this PC&apos;s report</source>
        <translation>协调器忽略了此电脑的报告</translation>
    </message>
    <message>
        <source>the coordinator cannot check invites (%1)</source>
        <translation>协调器无法检查邀请（%1）</translation>
    </message>
    <message>
        <source>no volunteer holds the job&apos;s data yet</source>
        <translation>尚无志愿者持有任务数据</translation>
    </message>
    <message>
        <source>no other PC can reach this one yet, and no relay carries it</source>
        <translation>其他电脑暂时无法连接到此电脑，也没有中继为其转发</translation>
    </message>
    <message>
        <source>input idleness</source>
        <translation>输入空闲</translation>
    </message>
    <message>
        <source>full-screen</source>
        <translation>全屏</translation>
    </message>
    <message>
        <source>battery</source>
        <translation>电池</translation>
    </message>
    <message>
        <source>programs</source>
        <translation>程序</translation>
    </message>
    <message>
        <source>CPU load</source>
        <translation>CPU 负载</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>no input for %1</source>
        <translation>已 %1 无输入</translation>
    </message>
    <message>
        <source>nothing reports it here: the PC counts as in use</source>
        <translation>此处无来源报告：电脑视为使用中</translation>
    </message>
    <message>
        <source>no desktop session reports it</source>
        <translation>没有桌面会话报告</translation>
    </message>
    <message>
        <source>no full-screen application</source>
        <translation>没有全屏应用程序</translation>
    </message>
    <message>
        <source>on mains power</source>
        <translation>使用电源供电</translation>
    </message>
    <message>
        <source>no programs listed</source>
        <translation>未列出程序</translation>
    </message>
    <message>
        <source>running: %1</source>
        <translation>正在运行：%1</translation>
    </message>
    <message numerus="yes">
        <source>none of the %n listed program(s) runs</source>
        <translation>
            <numerusform>列出的 %n 个程序都没有运行</numerusform>
        </translation>
    </message>
    <message>
        <source>other programs %1</source>
        <translation>其他程序 %1</translation>
    </message>
    <message>
        <source>hottest GPU %1</source>
        <translation>最热的 GPU %1</translation>
    </message>
    <message>
        <source>%1 resident</source>
        <translation>常驻内存 %1</translation>
    </message>
    <message>
        <source>Compute while I use the PC</source>
        <translation>我使用电脑时也计算</translation>
    </message>
    <message>
        <source>Compute while the PC is idle</source>
        <translation>电脑空闲时计算</translation>
    </message>
    <message>
        <source>CPU cores</source>
        <translation>CPU 核心</translation>
    </message>
    <message>
        <source>CPU time</source>
        <translation>CPU 时间</translation>
    </message>
    <message>
        <source>Use the GPU</source>
        <translation>使用 GPU</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>The PC is idle after no input for</source>
        <translation>无输入多长时间后电脑视为空闲</translation>
    </message>
    <message>
        <source>Pause while other programs use more CPU than</source>
        <translation>其他程序的 CPU 占用超过此值时暂停</translation>
    </message>
    <message>
        <source>Pause on battery</source>
        <translation>使用电池时暂停</translation>
    </message>
    <message>
        <source>Compute only at these times (empty: any time)</source>
        <translation>仅在这些时间计算（留空：任何时间）</translation>
    </message>
    <message>
        <source>Upload at most</source>
        <translation>上传上限</translation>
    </message>
    <message>
        <source>Download at most</source>
        <translation>下载上限</translation>
    </message>
    <message>
        <source>Pause while a full-screen application runs</source>
        <translation>有全屏应用程序运行时暂停</translation>
    </message>
    <message>
        <source>Pause while these programs run</source>
        <translation>这些程序运行时暂停</translation>
    </message>
    <message>
        <source>Pause the GPU above</source>
        <translation>GPU 温度高于此值时暂停</translation>
    </message>
    <message>
        <source>On pause, finish the micro-batches already started (peers see a clean stop)</source>
        <translation>暂停时先完成已开始的微批次（对等节点看到干净的停止）</translation>
    </message>
    <message>
        <source>% of cores</source>
        <translation>% 的核心</translation>
    </message>
    <message>
        <source>% of the time</source>
        <translation>% 的时间</translation>
    </message>
    <message>
        <source>% of RAM</source>
        <translation>% 的内存</translation>
    </message>
    <message>
        <source>min</source>
        <translation>分钟</translation>
    </message>
    <message>
        <source>% (0: never)</source>
        <translation>%（0：从不）</translation>
    </message>
    <message>
        <source>KiB/s (0: unlimited)</source>
        <translation>KiB/s（0：不限）</translation>
    </message>
    <message>
        <source>°C (0: no limit)</source>
        <translation>°C（0：不限）</translation>
    </message>
    <message>
        <source>no NVIDIA driver</source>
        <translation>没有 NVIDIA 驱动</translation>
    </message>
    <message>
        <source>the NVIDIA driver&apos;s library is too old</source>
        <translation>NVIDIA 驱动的库太旧</translation>
    </message>
    <message>
        <source>the NVIDIA driver did not start (is it loaded?)</source>
        <translation>NVIDIA 驱动未能启动（是否已加载？）</translation>
    </message>
    <message>
        <source>the NVIDIA driver reports no GPU</source>
        <translation>NVIDIA 驱动未报告任何 GPU</translation>
    </message>
    <message numerus="yes">
        <source>%n NVIDIA GPU(s)</source>
        <translation>
            <numerusform>%n 个 NVIDIA GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>Reached on this PC only: the swarm runs here</source>
        <translation>仅在本机可达：集群在此运行</translation>
    </message>
    <message>
        <source>Reached directly at %1</source>
        <translation>可直接通过 %1 访问</translation>
    </message>
    <message>
        <source>Reached through the router&apos;s port mapping (%1) at %2</source>
        <translation>通过路由器的端口映射（%1）经 %2 访问</translation>
    </message>
    <message>
        <source>Reached through a relay at %1: peers&apos; traffic passes it encrypted</source>
        <translation>通过 %1 的中继访问：节点流量以加密形式经过它</translation>
    </message>
    <message>
        <source>Reached by connection reversal: this PC dials its neighbours itself</source>
        <translation>通过连接反转访问：本机主动连接其相邻节点</translation>
    </message>
    <message>
        <source>Not reachable from the internet: waiting for a relay to carry this PC</source>
        <translation>无法从互联网访问：正在等待中继转发本机的流量</translation>
    </message>
    <message>
        <source>Reached by connection reversal (%1): this PC dials its neighbours itself</source>
        <translation>通过连接反转访问（%1）：本机主动连接其相邻节点</translation>
    </message>
    <message>
        <source>Not reachable from the internet (%1): waiting for a relay to carry this PC</source>
        <translation>无法从互联网访问（%1）：正在等待中继转发本机的流量</translation>
    </message>
    <message numerus="yes">
        <source>the job admits at most %n volunteer(s) from one address, and already has them from %1</source>
        <translation>
            <numerusform>该任务每个地址最多接纳 %n 名志愿者，来自 %1 的已满</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the job admits at most %n volunteer(s) from one network, and already has them from %1</source>
        <translation>
            <numerusform>该任务每个网络最多接纳 %n 名志愿者，来自 %1 的已满</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the job asks each join for a proof of work of %n bit(s), and this one carried none</source>
        <translation>
            <numerusform>该任务要求每次加入附带 %n 位的工作量证明，而此次加入没有附带</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>this join&apos;s proof of work gives %1 of the %n bit(s) the job asks for</source>
        <translation>
            <numerusform>此次加入的工作量证明只有 %1 位，该任务要求 %n 位</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Rookery: lend this PC to a swarm that trains a neural network together.</source>
        <translation>Rookery：把这台电脑借给一个共同训练神经网络的蜂群。</translation>
    </message>
    <message>
        <source>Folder of rookery-node&apos;s control sockets (default: $XDG_RUNTIME_DIR/rookery).</source>
        <translation>rookery-node 控制套接字所在的文件夹（默认：$XDG_RUNTIME_DIR/rookery）。</translation>
    </message>
    <message>
        <source>The rookery-node program to start when none runs.</source>
        <translation>没有 rookery-node 运行时要启动的程序。</translation>
    </message>
    <message>
        <source>Start in the tray, without opening the window.</source>
        <translation>启动到系统托盘，不打开窗口。</translation>
    </message>
    <message>
        <source>Contribute at once: ask rookery-node to contribute as soon as it answers (starting it when none runs).</source>
        <translation>立即贡献：rookery-node 一应答就让它开始贡献（没有运行时先启动它）。</translation>
    </message>
    <message>
        <source>Light or dark colours, or those of the desktop (default: the appearance/colours setting, else system).</source>
        <translation>浅色或深色，或跟随桌面（默认：appearance/colours 设置，否则为 system）。</translation>
    </message>
    <message>
        <source>Rookery could not snooze</source>
        <translation>Rookery 无法暂停</translation>
    </message>
    <message>
        <source>An invite link to join (rookery://join?…): Rookery offers to join its swarm.</source>
        <translation>邀请链接（rookery://join?…）：Rookery 会提议加入它的蜂群。</translation>
    </message>
</context>
<context>
    <name>rookery::ui::ContributionCard</name>
    <message>
        <source>%1 per day</source>
        <translation>每天 %1</translation>
    </message>
    <message>
        <source>%1 TFLOP</source>
        <translation>%1 TFLOP</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>Your contribution</source>
        <translation>你的贡献</translation>
    </message>
    <message>
        <source>Credit</source>
        <translation>积分</translation>
    </message>
    <message>
        <source>credits</source>
        <translation>积分</translation>
    </message>
    <message>
        <source>Recent average credit</source>
        <translation>近期平均积分</translation>
    </message>
    <message>
        <source>Recent average credit: credits per day, averaged so that credit earned a week ago counts half (as BOINC computes it)</source>
        <translation>近期平均积分：每天的积分，按一周前获得的积分只算一半的方式平均（与 BOINC 的算法相同）</translation>
    </message>
    <message>
        <source>Ledger status</source>
        <translation>账本状态</translation>
    </message>
    <message>
        <source>Samples processed</source>
        <translation>已处理样本</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算量</translation>
    </message>
    <message>
        <source>Hours contributed</source>
        <translation>贡献时长</translation>
    </message>
    <message>
        <source>Data sent</source>
        <translation>已发送数据</translation>
    </message>
    <message>
        <source>Data received</source>
        <translation>已接收数据</translation>
    </message>
    <message>
        <source>Confirmed by the swarm</source>
        <translation>集群已确认</translation>
    </message>
    <message>
        <source>The samples of this PC&apos;s work that the stages receiving it confirmed to the coordinator, and the credit they are worth: the run credits confirmed work only</source>
        <translation>接收本机工作的阶段向协调器确认的样本数，以及它们对应的积分：训练只计入已确认的工作</translation>
    </message>
    <message>
        <source>%1 samples · %2 credits</source>
        <translation>%1 个样本 · %2 积分</translation>
    </message>
    <message>
        <source>Time this PC spent computing for the swarm</source>
        <translation>这台电脑为蜂群计算所用的时间</translation>
    </message>
    <message>
        <source>Floating-point operations of the micro-batches this PC trained (1 TFLOP = 10¹² operations; 1 credit = 0.432 TFLOP)</source>
        <translation>这台电脑训练的微批次的浮点运算次数（1 TFLOP = 10¹² 次运算；1 积分 = 0.432 TFLOP）</translation>
    </message>
    <message>
        <source>Per day</source>
        <translation>按天</translation>
    </message>
    <message>
        <source>Show credit per day</source>
        <translation>按天显示积分</translation>
    </message>
    <message>
        <source>Per hour</source>
        <translation>按小时</translation>
    </message>
    <message>
        <source>Show credit per hour</source>
        <translation>按小时显示积分</translation>
    </message>
    <message>
        <source>%1: %2 credits, %3 samples</source>
        <translation>%1：%2 积分，%3 个样本</translation>
    </message>
    <message>
        <source>Credit chart</source>
        <translation>积分图表</translation>
    </message>
    <message>
        <source>History not available: %1</source>
        <translation>历史记录不可用：%1</translation>
    </message>
    <message>
        <source>This rookery-node keeps no ledger</source>
        <translation>这个 rookery-node 不保存账本</translation>
    </message>
    <message>
        <source>Recent average: %1</source>
        <translation>近期平均：%1</translation>
    </message>
    <message numerus="yes">
        <source>Not saved yet (%n unit(s) waiting): %1</source>
        <translation>
            <numerusform>尚未保存（%n 个单元等待中）：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Shown once rookery-node answers</source>
        <translation>rookery-node 应答后显示</translation>
    </message>
    <message>
        <source>Your contribution is shown once rookery-node answers.</source>
        <translation>rookery-node 应答后将显示你的贡献。</translation>
    </message>
    <message>
        <source>This rookery-node keeps no ledger, so there is no history to show.</source>
        <translation>这个 rookery-node 不保存账本，因此没有历史记录可显示。</translation>
    </message>
    <message>
        <source>Loading the history…</source>
        <translation>正在加载历史记录…</translation>
    </message>
    <message>
        <source>Nothing contributed yet. This PC runs a local benchmark, which earns no credit: credit comes with each micro-batch it trains for a pipeline.</source>
        <translation>尚无贡献。这台电脑正在运行本地基准测试，不会获得积分：每为流水线训练一个微批次才会获得积分。</translation>
    </message>
    <message>
        <source>Nothing contributed yet: each micro-batch this PC trains earns credit (1 credit = 432 GFLOP, as in BOINC).</source>
        <translation>尚无贡献：这台电脑每训练一个微批次都会获得积分（1 积分 = 432 GFLOP，与 BOINC 相同）。</translation>
    </message>
    <message numerus="yes">
        <source>Credit per day, the last %n day(s)</source>
        <translation>
            <numerusform>每天积分，最近 %n 天</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Credit per hour, the last %n hour(s)</source>
        <translation>
            <numerusform>每小时积分，最近 %n 小时</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: %2 credits in all, most on %3 (%4). %5</source>
        <translation>%1：共 %2 积分，最多的是 %3（%4）。%5</translation>
    </message>
    <message>
        <source>Credit: %1</source>
        <translation>积分：%1</translation>
    </message>
</context>
<context>
    <name>rookery::ui::CoordinatorProbe</name>
    <message>
        <source>The coordinator at %1 answered (Rookery %2, %3 ms).</source>
        <translation>位于 %1 的协调器已应答（Rookery %2，%3 毫秒）。</translation>
    </message>
    <message>
        <source>Cannot reach the coordinator at %1. Check the address and your internet connection; the coordinator may also be down or behind a firewall.</source>
        <translation>无法连接位于 %1 的协调器。请检查地址和网络连接；协调器也可能已停止运行或位于防火墙之后。</translation>
    </message>
    <message>
        <source>Something answers at %1, but not the coordinator this link names: the secure handshake failed. Ask the job owner for a new invite link.</source>
        <translation>%1 上有程序应答，但不是此链接指定的协调器：安全握手失败。请向任务所有者索取新的邀请链接。</translation>
    </message>
    <message>
        <source>The coordinator at %1 refused this PC: it admits only volunteers on its list. Ask the job owner to add this PC, or for another invite.</source>
        <translation>位于 %1 的协调器拒绝了这台电脑：它只接纳名单上的志愿者。请让任务所有者把这台电脑加入名单，或索取其他邀请。</translation>
    </message>
    <message>
        <source>The coordinator at %1 refused: %2</source>
        <translation>位于 %1 的协调器拒绝了：%2</translation>
    </message>
    <message>
        <source>The coordinator at %1 accepted the connection but did not answer. It may be overloaded; try again later.</source>
        <translation>位于 %1 的协调器接受了连接但没有应答。它可能负载过高，请稍后再试。</translation>
    </message>
    <message>
        <source>%1 is not a Rookery coordinator.</source>
        <translation>%1 不是 Rookery 协调器。</translation>
    </message>
    <message>
        <source>Could not contact the coordinator at %1: %2</source>
        <translation>无法联系位于 %1 的协调器：%2</translation>
    </message>
    <message>
        <source>The coordinator at %1 answers but runs no job yet. Ask the job owner when the job starts.</source>
        <translation>位于 %1 的协调器有应答，但尚未运行任何任务。请向任务所有者询问任务何时开始。</translation>
    </message>
    <message>
        <source>The coordinator at %1 runs the job “%2”, not “%3” as the link says. Ask the job owner for a new invite link.</source>
        <translation>位于 %1 的协调器运行的任务是“%2”，而不是链接所写的“%3”。请向任务所有者索取新的邀请链接。</translation>
    </message>
</context>
<context>
    <name>rookery::ui::DemoSwarm</name>
    <message>
        <source>rookery-node was not found</source>
        <translation>找不到 rookery-node</translation>
    </message>
    <message>
        <source>rookery-coordinator was not found beside rookery-node</source>
        <translation>在 rookery-node 旁边找不到 rookery-coordinator</translation>
    </message>
    <message>
        <source>the demo job (demo-job.json) was not found; set ROOKERY_DEMO_JOB</source>
        <translation>找不到演示任务（demo-job.json）；请设置 ROOKERY_DEMO_JOB</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>无法创建 %1</translation>
    </message>
    <message>
        <source>no free port on 127.0.0.1</source>
        <translation>127.0.0.1 上没有空闲端口</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>could not start %1</source>
        <translation>无法启动 %1</translation>
    </message>
    <message>
        <source>the demo coordinator did not start; see %1</source>
        <translation>演示协调器未能启动；请查看 %1</translation>
    </message>
    <message>
        <source>the demo coordinator wrote no address to %1</source>
        <translation>演示协调器没有把地址写入 %1</translation>
    </message>
    <message>
        <source>%1 is not a job spec with an id</source>
        <translation>%1 不是带有 ID 的任务描述</translation>
    </message>
    <message>
        <source>%1 could not size the demo job: %2</source>
        <translation>%1 无法估算演示任务所需的内存：%2</translation>
    </message>
</context>
<context>
    <name>rookery::ui::DeviceCard</name>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Device name</source>
        <translation>设备名称</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>GPU 显存</translation>
    </message>
    <message>
        <source>Utilisation</source>
        <translation>利用率</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>功耗</translation>
    </message>
    <message>
        <source>Processor</source>
        <translation>处理器</translation>
    </message>
    <message>
        <source>Cores</source>
        <translation>核心</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>PC load</source>
        <translation>电脑负载</translation>
    </message>
    <message>
        <source>Rookery&apos;s share</source>
        <translation>Rookery 占用</translation>
    </message>
    <message>
        <source>Math library</source>
        <translation>数学库</translation>
    </message>
    <message>
        <source>Measured speed</source>
        <translation>实测速度</translation>
    </message>
    <message numerus="yes">
        <source>%n logical core(s)</source>
        <translation>
            <numerusform>%n 个逻辑核心</numerusform>
        </translation>
    </message>
    <message>
        <source>GPU · computes on %1</source>
        <translation>GPU · 在 %1 上计算</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message numerus="yes">
        <source>%n more GPU(s) in this PC</source>
        <translation>
            <numerusform>这台电脑还有 %n 块 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>CPU · computes on the processor</source>
        <translation>CPU · 在处理器上计算</translation>
    </message>
    <message>
        <source>Unknown processor</source>
        <translation>未知处理器</translation>
    </message>
    <message>
        <source>No GPU telemetry: %1</source>
        <translation>无 GPU 遥测数据：%1</translation>
    </message>
    <message numerus="yes">
        <source>%1 · Rookery uses %n</source>
        <translation>
            <numerusform>%1 · Rookery 使用 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>measuring…</source>
        <translation>测量中…</translation>
    </message>
    <message>
        <source>Waiting for rookery-node</source>
        <translation>正在等待 rookery-node</translation>
    </message>
    <message>
        <source>This PC</source>
        <translation>这台电脑</translation>
    </message>
    <message>
        <source>The device is shown once rookery-node answers.</source>
        <translation>rookery-node 应答后将显示设备信息。</translation>
    </message>
    <message>
        <source>Recent load</source>
        <translation>近期负载</translation>
    </message>
    <message>
        <source>%1: now %2, highest %3</source>
        <translation>%1：当前 %2，最高 %3</translation>
    </message>
    <message>
        <source>%1 is not used for training</source>
        <translation>%1 未用于训练</translation>
    </message>
    <message>
        <source>%1 is not used for training: %2</source>
        <translation>%1 未用于训练：%2</translation>
    </message>
</context>
<context>
    <name>rookery::ui::FirstRunDialog</name>
    <message>
        <source>Welcome to Rookery</source>
        <translation>欢迎使用 Rookery</translation>
    </message>
    <message>
        <source>Join a training swarm</source>
        <translation>加入训练蜂群</translation>
    </message>
    <message>
        <source>Rookery lends this PC to a swarm of volunteers who train a neural network together. Choose the swarm to join; you can pause or quit at any time.</source>
        <translation>Rookery 把这台电脑借给一群共同训练神经网络的志愿者。请选择要加入的蜂群；你可以随时暂停或退出。</translation>
    </message>
    <message>
        <source>Join the &amp;demo swarm</source>
        <translation>加入演示蜂群(&amp;D)</translation>
    </message>
    <message>
        <source>A small language model trained by a few volunteers on this PC: see Rookery at work within a minute.</source>
        <translation>由这台电脑上的几个志愿者训练的小型语言模型：一分钟内就能看到 Rookery 的工作效果。</translation>
    </message>
    <message>
        <source>Or paste an &amp;invite link from a job owner:</source>
        <translation>或粘贴任务所有者提供的邀请链接(&amp;I)：</translation>
    </message>
    <message>
        <source>Paste the &amp;invite link a job owner gave you:</source>
        <translation>粘贴任务所有者给你的邀请链接(&amp;I)：</translation>
    </message>
    <message>
        <source>Invite link</source>
        <translation>邀请链接</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>&amp;Join</source>
        <translation>加入(&amp;J)</translation>
    </message>
    <message>
        <source>&amp;Not now</source>
        <translation>以后再说(&amp;N)</translation>
    </message>
    <message>
        <source>Rookery computes a local benchmark until this PC joins a swarm.</source>
        <translation>在这台电脑加入蜂群之前，Rookery 会运行本地基准测试。</translation>
    </message>
    <message>
        <source>Job “%1” at coordinator %2.</source>
        <translation>协调器 %2 上的任务“%1”。</translation>
    </message>
    <message>
        <source>This is not a valid invite link: %1.</source>
        <translation>这不是有效的邀请链接：%1。</translation>
    </message>
    <message>
        <source>Starting the demo swarm on this PC…</source>
        <translation>正在这台电脑上启动演示蜂群…</translation>
    </message>
    <message>
        <source>The demo swarm could not start: %1</source>
        <translation>演示蜂群无法启动：%1</translation>
    </message>
    <message>
        <source>Contacting the coordinator at %1…</source>
        <translation>正在联系位于 %1 的协调器…</translation>
    </message>
</context>
<context>
    <name>rookery::ui::InviteLink</name>
    <message>
        <source>the link names no coordinator</source>
        <translation>链接中没有协调器</translation>
    </message>
    <message>
        <source>the coordinator must be a tcp://host:port address, not “%1”</source>
        <translation>协调器必须是 tcp://host:port 地址，而不是“%1”</translation>
    </message>
    <message>
        <source>“%1” is not a valid tcp://host:port address</source>
        <translation>“%1”不是有效的 tcp://host:port 地址</translation>
    </message>
    <message>
        <source>the coordinator&apos;s port must be between 1 and 65535, not %1</source>
        <translation>协调器端口必须在 1 到 65535 之间，而不是 %1</translation>
    </message>
    <message>
        <source>the link has no coordinator key</source>
        <translation>链接中没有协调器密钥</translation>
    </message>
    <message>
        <source>the coordinator key must be 40 characters long, it has %1</source>
        <translation>协调器密钥必须是 40 个字符，而它有 %1 个</translation>
    </message>
    <message>
        <source>the coordinator key contains “%1”, which is not a Z85 character</source>
        <translation>协调器密钥包含“%1”，它不是 Z85 字符</translation>
    </message>
    <message>
        <source>the link names no job</source>
        <translation>链接中没有任务</translation>
    </message>
    <message>
        <source>the job id is longer than %1 characters</source>
        <translation>任务 ID 超过 %1 个字符</translation>
    </message>
    <message>
        <source>the job id may hold only letters, digits, &apos;.&apos;, &apos;-&apos; and &apos;_&apos;</source>
        <translation>任务 ID 只能包含字母、数字、&apos;.&apos;、&apos;-&apos; 和 &apos;_&apos;</translation>
    </message>
    <message>
        <source>paste an invite link</source>
        <translation>请粘贴邀请链接</translation>
    </message>
    <message>
        <source>the link is longer than %1 characters</source>
        <translation>链接超过 %1 个字符</translation>
    </message>
    <message>
        <source>an invite link starts with rookery://join?</source>
        <translation>邀请链接以 rookery://join? 开头</translation>
    </message>
    <message>
        <source>“%1” in the link is not a name=value pair (is the key percent-encoded?)</source>
        <translation>链接中的“%1”不是 name=value 形式（密钥是否已进行百分号编码？）</translation>
    </message>
    <message>
        <source>the link has an unknown part “%1” (is the key percent-encoded?)</source>
        <translation>链接中有未知部分“%1”（密钥是否已进行百分号编码？）</translation>
    </message>
    <message>
        <source>the link gives “%1” twice</source>
        <translation>链接中“%1”出现了两次</translation>
    </message>
    <message>
        <source>the invite token is longer than %1 characters</source>
        <translation>邀请令牌超过 %1 个字符</translation>
    </message>
    <message>
        <source>the invite token may hold only visible ASCII characters</source>
        <translation>邀请令牌只能包含可见的 ASCII 字符</translation>
    </message>
    <message>
        <source>the link has an empty invite token</source>
        <translation>链接中的邀请令牌为空</translation>
    </message>
</context>
<context>
    <name>rookery::ui::LanguageChooser</name>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>The system&apos;s (%1)</source>
        <translation>跟随系统（%1）</translation>
    </message>
    <message>
        <source>Applies when Rookery starts again.</source>
        <translation>下次启动 Rookery 时生效。</translation>
    </message>
</context>
<context>
    <name>rookery::ui::MainWindow</name>
    <message>
        <source>Rookery</source>
        <translation>Rookery</translation>
    </message>
    <message>
        <source>Rookery logo</source>
        <translation>Rookery 标志</translation>
    </message>
    <message>
        <source>Lend this PC to a swarm of volunteers training a neural network together.</source>
        <translation>把这台电脑借给一群共同训练神经网络的志愿者。</translation>
    </message>
    <message>
        <source>Starts or pauses this PC&apos;s contribution to the training</source>
        <translation>开始或暂停这台电脑对训练的贡献</translation>
    </message>
    <message>
        <source>rookery-node refused: %1</source>
        <translation>rookery-node 拒绝了：%1</translation>
    </message>
    <message>
        <source>Started rookery-node (process %1)</source>
        <translation>已启动 rookery-node（进程 %1）</translation>
    </message>
    <message>
        <source>rookery-node %1 · process %2 · data in %3</source>
        <translation>rookery-node %1 · 进程 %2 · 数据位于 %3</translation>
    </message>
    <message>
        <source>rookery-node stopped</source>
        <translation>rookery-node 已停止</translation>
    </message>
    <message>
        <source>Starting rookery-node…</source>
        <translation>正在启动 rookery-node…</translation>
    </message>
    <message>
        <source>Connecting to rookery-node…</source>
        <translation>正在连接 rookery-node…</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Contribute</source>
        <translation>贡献算力</translation>
    </message>
    <message>
        <source>Rookery is still running</source>
        <translation>Rookery 仍在运行</translation>
    </message>
    <message>
        <source>Rookery keeps working in the tray. Use its menu to pause or quit.</source>
        <translation>Rookery 在系统托盘中继续工作。可通过其菜单暂停或退出。</translation>
    </message>
    <message>
        <source>Rookery keeps contributing</source>
        <translation>Rookery 继续贡献中</translation>
    </message>
    <message>
        <source>This PC goes on contributing in the background. Open Rookery again to pause it or to quit.</source>
        <translation>这台电脑将在后台继续贡献。再次打开 Rookery 可暂停或退出。</translation>
    </message>
    <message>
        <source>Stopping rookery-node: it finishes its current work unit and saves…</source>
        <translation>正在停止 rookery-node：它会完成当前工作单元并保存…</translation>
    </message>
    <message>
        <source>Close Now</source>
        <translation>立即关闭</translation>
    </message>
    <message>
        <source>Quitting Rookery</source>
        <translation>正在退出 Rookery</translation>
    </message>
    <message>
        <source>Notice</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <source>How much of this PC Rookery may use, while you use it and while it is idle</source>
        <translation>Rookery 在你使用电脑时和电脑空闲时可以使用多少资源</translation>
    </message>
    <message>
        <source>Settings are kept by rookery-node, which does not answer: %1</source>
        <translation>设置由 rookery-node 保存，但它没有应答：%1</translation>
    </message>
    <message>
        <source>Restarting rookery-node with its data in %1…</source>
        <translation>正在以 %1 中的数据重新启动 rookery-node…</translation>
    </message>
    <message>
        <source>This PC left the job. Open an invite link to join a swarm again.</source>
        <translation>这台电脑已退出该任务。打开邀请链接即可再次加入蜂群。</translation>
    </message>
    <message>
        <source>Restarting rookery-node to find out how it is reached…</source>
        <translation>正在重启 rookery-node 以确定其可达方式…</translation>
    </message>
    <message>
        <source>Restarting rookery-node to be reached at %1…</source>
        <translation>正在重启 rookery-node，使其可通过 %1 访问…</translation>
    </message>
</context>
<context>
    <name>rookery::ui::NodeConnection</name>
    <message>
        <source>rookery-node stopped</source>
        <translation>rookery-node 已停止</translation>
    </message>
    <message>
        <source>rookery-node does not answer</source>
        <translation>rookery-node 没有应答</translation>
    </message>
    <message>
        <source>rookery-node is not running</source>
        <translation>rookery-node 未运行</translation>
    </message>
</context>
<context>
    <name>rookery::ui::NodeLauncher</name>
    <message>
        <source>rookery-node (process %1) is running but does not answer</source>
        <translation>rookery-node（进程 %1）正在运行但没有应答</translation>
    </message>
    <message>
        <source>rookery-node was not found; set ROOKERY_NODE_BIN or install it beside rookery</source>
        <translation>找不到 rookery-node；请设置 ROOKERY_NODE_BIN，或把它安装在 rookery 旁边</translation>
    </message>
    <message>
        <source>rookery-node did not start after %1 attempts; see its log</source>
        <translation>rookery-node 尝试 %1 次后仍未启动；请查看其日志</translation>
    </message>
    <message>
        <source>could not start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>rookery-node (process %1) does not answer</source>
        <translation>rookery-node（进程 %1）没有应答</translation>
    </message>
    <message>
        <source>rookery-node stopped right after starting; see its log</source>
        <translation>rookery-node 启动后立即停止；请查看其日志</translation>
    </message>
</context>
<context>
    <name>rookery::ui::NodeStateCard</name>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Node state</source>
        <translation>节点状态</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Work units</source>
        <translation>工作单元</translation>
    </message>
    <message>
        <source>Work done</source>
        <translation>已完成工作量</translation>
    </message>
    <message>
        <source>Current speed</source>
        <translation>当前速度</translation>
    </message>
    <message>
        <source>Running for</source>
        <translation>已运行</translation>
    </message>
    <message>
        <source>Coordinator</source>
        <translation>协调器</translation>
    </message>
    <message>
        <source>Connecting to rookery-node…</source>
        <translation>正在连接 rookery-node…</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>none: computing a local benchmark workload</source>
        <translation>无：正在运行本地基准测试负载</translation>
    </message>
    <message>
        <source>%1 (%2 ms)</source>
        <translation>%1 (%2 ms)</translation>
    </message>
    <message>
        <source>none: training a stage of a fixed pipeline plan</source>
        <translation>无：正在训练固定流水线计划中的一个阶段</translation>
    </message>
    <message>
        <source>Allowed</source>
        <translation>允许</translation>
    </message>
    <message>
        <source>Sensors</source>
        <translation>传感器</translation>
    </message>
    <message numerus="yes">
        <source>%n thread(s)</source>
        <translation>
            <numerusform>%n 个线程</numerusform>
        </translation>
    </message>
    <message>
        <source>, %1% CPU time</source>
        <translation>，%1% CPU 时间</translation>
    </message>
    <message>
        <source>, upload %1 KiB/s</source>
        <translation>，上传 %1 KiB/s</translation>
    </message>
    <message>
        <source>, download %1 KiB/s</source>
        <translation>，下载 %1 KiB/s</translation>
    </message>
    <message>
        <source> (in use)</source>
        <translation>（使用中）</translation>
    </message>
    <message>
        <source> (idle)</source>
        <translation>（空闲）</translation>
    </message>
    <message>
        <source>; not available: %1</source>
        <translation>；不可用：%1</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>rookery::ui::PipelineDiagram</name>
    <message>
        <source>Pipeline diagram</source>
        <translation>流水线示意图</translation>
    </message>
    <message>
        <source>This PC is not in a pipeline</source>
        <translation>这台电脑不在任何流水线中</translation>
    </message>
    <message numerus="yes">
        <source>A pipeline of %n stage(s), from the data to the loss.</source>
        <translation>
            <numerusform>一条有 %n 个阶段的流水线，从数据到损失。</numerusform>
        </translation>
    </message>
    <message>
        <source>This PC is stage %1 and holds %2.</source>
        <translation>这台电脑是第 %1 阶段，持有 %2。</translation>
    </message>
    <message>
        <source>data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Stage %1 · this PC</source>
        <translation>第 %1 阶段 · 这台电脑</translation>
    </message>
    <message numerus="yes">
        <source>The swarm: %n pipeline(s).</source>
        <translation>
            <numerusform>集群：%n 条流水线。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pipeline %1, this PC&apos;s: %n stage(s), %2 samples/s.</source>
        <translation>
            <numerusform>流水线 %1（本机所在）：%n 个阶段，每秒 %2 个样本。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pipeline %1: %n stage(s), %2 samples/s.</source>
        <translation>
            <numerusform>流水线 %1：%n 个阶段，每秒 %2 个样本。</numerusform>
        </translation>
    </message>
    <message>
        <source>P%1</source>
        <translation>P%1</translation>
    </message>
    <message>
        <source>this PC · %1/s</source>
        <translation>本机 · %1/秒</translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation>%1/秒</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>第 %1 阶段</translation>
    </message>
</context>
<context>
    <name>rookery::ui::PresenceReporter</name>
    <message>
        <source>this window&apos;s input only</source>
        <translation>仅本窗口的输入</translation>
    </message>
    <message>
        <source>needs the X11 screensaver extension (libXss)</source>
        <translation>需要 X11 屏幕保护程序扩展（libXss）</translation>
    </message>
    <message>
        <source>X11 screensaver extension</source>
        <translation>X11 屏幕保护程序扩展</translation>
    </message>
    <message>
        <source>the active window&apos;s _NET_WM_STATE</source>
        <translation>活动窗口的 _NET_WM_STATE</translation>
    </message>
    <message>
        <source>the window manager does not report the active window</source>
        <translation>窗口管理器不报告活动窗口</translation>
    </message>
    <message>
        <source>not an X11 session</source>
        <translation>不是 X11 会话</translation>
    </message>
</context>
<context>
    <name>rookery::ui::SettingsDialog</name>
    <message>
        <source>Rookery settings</source>
        <translation>Rookery 设置</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>这台电脑</translation>
    </message>
    <message>
        <source>Start with my session</source>
        <translation>随我的会话启动</translation>
    </message>
    <message>
        <source>Open Rookery in the tray when you log in (%1)</source>
        <translation>登录时在系统托盘中打开 Rookery（%1）</translation>
    </message>
    <message>
        <source>Snooze for an hour</source>
        <translation>暂停一小时</translation>
    </message>
    <message>
        <source>While I use my PC</source>
        <translation>我使用电脑时</translation>
    </message>
    <message>
        <source>While the PC is idle</source>
        <translation>电脑空闲时</translation>
    </message>
    <message>
        <source>Always</source>
        <translation>始终</translation>
    </message>
    <message>
        <source>any time; e.g. mon-fri 18:00-08:00; weekends 00:00-24:00</source>
        <translation>任何时间；例如 mon-fri 18:00-08:00; weekends 00:00-24:00</translation>
    </message>
    <message>
        <source>none; e.g. steam, blender</source>
        <translation>无；例如 steam, blender</translation>
    </message>
    <message>
        <source>Default: %1</source>
        <translation>默认：%1</translation>
    </message>
    <message>
        <source>The node took your settings, but starting with your session could not be changed: %1</source>
        <translation>节点已接受你的设置，但无法更改随会话启动：%1</translation>
    </message>
    <message>
        <source>Starting with your session could not be changed: %1</source>
        <translation>无法更改随会话启动：%1</translation>
    </message>
    <message>
        <source>&amp;Data folder:</source>
        <translation>数据文件夹(&amp;D)：</translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation>数据文件夹</translation>
    </message>
    <message>
        <source>Where rookery-node keeps this PC&apos;s keys, its settings, the contribution ledger and checkpoints. Another folder starts afresh (a new identity, an empty ledger) unless you copy the old one there; the node restarts to use it.</source>
        <translation>rookery-node 在此保存这台电脑的密钥、设置、贡献账本和检查点。换一个文件夹会从头开始（新的身份、空的账本），除非你把旧文件夹复制过去；节点会重新启动以使用它。</translation>
    </message>
    <message>
        <source>C&amp;hoose…</source>
        <translation>选择(&amp;H)…</translation>
    </message>
    <message>
        <source>Choose the data folder</source>
        <translation>选择数据文件夹</translation>
    </message>
    <message>
        <source>The swarm</source>
        <translation>蜂群</translation>
    </message>
    <message>
        <source>&amp;Leave this job…</source>
        <translation>退出此任务(&amp;L)…</translation>
    </message>
    <message>
        <source>This PC stops training for the job for good: the coordinator plans without it at once</source>
        <translation>这台电脑将永久停止为该任务训练：协调器会立即在没有它的情况下规划</translation>
    </message>
    <message>
        <source>This PC volunteers for job “%1” at coordinator %2.</source>
        <translation>这台电脑在协调器 %2 上为任务“%1”贡献算力。</translation>
    </message>
    <message>
        <source>This PC talks to coordinator %1 but has joined none of its jobs.</source>
        <translation>这台电脑与协调器 %1 通信，但没有加入它的任何任务。</translation>
    </message>
    <message>
        <source>This PC trains a stage of a fixed pipeline plan, without a coordinator.</source>
        <translation>这台电脑在没有协调器的情况下训练固定流水线计划中的一个阶段。</translation>
    </message>
    <message>
        <source>This PC has joined no swarm: open an invite link to join one.</source>
        <translation>这台电脑没有加入任何蜂群：打开邀请链接即可加入。</translation>
    </message>
    <message>
        <source>The data folder must be a full path, such as %1.</source>
        <translation>数据文件夹必须是完整路径，例如 %1。</translation>
    </message>
    <message>
        <source>Rookery&apos;s data folder</source>
        <translation>Rookery 的数据文件夹</translation>
    </message>
    <message>
        <source>Leave this job?</source>
        <translation>退出此任务？</translation>
    </message>
    <message>
        <source>This PC stops training for the job for good; its contribution so far stays counted. Rookery then joins no swarm until you open an invite link.</source>
        <translation>这台电脑将永久停止为该任务训练；到目前为止的贡献仍然计入。在你打开邀请链接之前，Rookery 不会加入任何蜂群。</translation>
    </message>
    <message>
        <source>The node cannot leave the job: %1</source>
        <translation>节点无法退出该任务：%1</translation>
    </message>
    <message>
        <source>Leaving the job: the node finishes its work in progress, tells the coordinator and stops.</source>
        <translation>正在退出任务：节点会完成进行中的工作，通知协调器，然后停止。</translation>
    </message>
    <message>
        <source>Reached at (e&amp;xperts):</source>
        <translation>可达地址（专家）(&amp;X)：</translation>
    </message>
    <message>
        <source>Address other PCs reach this one at</source>
        <translation>其他电脑访问此电脑所用的地址</translation>
    </message>
    <message>
        <source>found out by Rookery</source>
        <translation>由 Rookery 自动确定</translation>
    </message>
    <message>
        <source>Leave empty: Rookery finds out how other PCs reach this one (through the home router, or a relay). An address here (a public IP address or host name of this PC) is used as it is, and the node listens only there; the node restarts to use it.</source>
        <translation>留空：Rookery 会自行确定其他电脑如何访问此电脑（通过家用路由器或中继）。在此填写的地址（此电脑的公网 IP 地址或主机名）将按原样使用，节点只在该地址监听；节点会重启以使用它。</translation>
    </message>
    <message>
        <source>“%1” is not an address: give an IP address (such as 203.0.113.7 or 2001:db8::7) or a host name, or leave it empty.</source>
        <translation>“%1”不是地址：请填写 IP 地址（如 203.0.113.7 或 2001:db8::7）或主机名，或留空。</translation>
    </message>
</context>
<context>
    <name>rookery::ui::SingleInstance</name>
    <message>
        <source>cannot create %1</source>
        <translation>无法创建 %1</translation>
    </message>
    <message>
        <source>Rookery is already running (process %1) but does not answer</source>
        <translation>Rookery 已在运行（进程 %1），但没有应答</translation>
    </message>
    <message>
        <source>Rookery is already running but does not answer</source>
        <translation>Rookery 已在运行，但没有应答</translation>
    </message>
    <message>
        <source>cannot listen on %1: %2</source>
        <translation>无法在 %1 上监听：%2</translation>
    </message>
</context>
<context>
    <name>rookery::ui::SwarmCard</name>
    <message>
        <source>Your place in the swarm</source>
        <translation>你在蜂群中的位置</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Place in the pipeline</source>
        <translation>在流水线中的位置</translation>
    </message>
    <message>
        <source>Receives from</source>
        <translation>接收自</translation>
    </message>
    <message>
        <source>Sends to</source>
        <translation>发送至</translation>
    </message>
    <message>
        <source>In flight</source>
        <translation>传输中</translation>
    </message>
    <message>
        <source>Weight versions</source>
        <translation>权重版本</translation>
    </message>
    <message>
        <source>Dropped · rejected</source>
        <translation>丢弃 · 拒收</translation>
    </message>
    <message>
        <source>Sent to peers</source>
        <translation>已发送给对等节点</translation>
    </message>
    <message>
        <source>Ring partners</source>
        <translation>环上的伙伴</translation>
    </message>
    <message>
        <source>none: no other pipeline averages with this one</source>
        <translation>无：没有其他流水线与本流水线求平均</translation>
    </message>
    <message>
        <source>pipeline %1 · %2 · %3 values shared</source>
        <translation>流水线 %1 · %2 · 共享 %3 个值</translation>
    </message>
    <message>
        <source>%1 · excluded</source>
        <translation>%1 · 已排除</translation>
    </message>
    <message>
        <source>Not in a pipeline yet</source>
        <translation>尚未加入流水线</translation>
    </message>
    <message>
        <source>Contributing benchmark work</source>
        <translation>正在贡献基准测试工作</translation>
    </message>
    <message>
        <source>Benchmark work only</source>
        <translation>仅基准测试工作</translation>
    </message>
    <message>
        <source>This PC computes a benchmark workload until a coordinator places it in a pipeline.</source>
        <translation>在协调器把这台电脑分配到流水线之前，它会运行基准测试负载。</translation>
    </message>
    <message>
        <source>When you contribute, this PC computes a benchmark workload until a coordinator places it in a pipeline.</source>
        <translation>开始贡献后，在协调器把这台电脑分配到流水线之前，它会运行基准测试负载。</translation>
    </message>
    <message>
        <source>Job %1</source>
        <translation>任务 %1</translation>
    </message>
    <message>
        <source>Pipeline %1 · stage %2 of %3 · %4</source>
        <translation>流水线 %1 · 第 %2 阶段（共 %3 个）· %4</translation>
    </message>
    <message>
        <source>the dataset (first stage)</source>
        <translation>数据集（第一阶段）</translation>
    </message>
    <message>
        <source>nobody: computes the loss (last stage)</source>
        <translation>无：计算损失（最后阶段）</translation>
    </message>
    <message numerus="yes">
        <source>%n micro-batch(es)</source>
        <translation>
            <numerusform>%n 个微批次</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 stashed · %2</source>
        <translation>已暂存 %1 个 · %2</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Dropped: micro-batches whose gradient did not come back in time. Rejected: messages that did not match what this stage expected.</source>
        <translation>丢弃：梯度未能及时返回的微批次。拒收：与本阶段预期不符的消息。</translation>
    </message>
    <message>
        <source>Fed every micro-batch it was asked to; none is in flight.</source>
        <translation>已送入所有要求的微批次；没有正在传输的微批次。</translation>
    </message>
    <message>
        <source>Waiting for rookery-node</source>
        <translation>正在等待 rookery-node</translation>
    </message>
    <message>
        <source>The swarm is shown once rookery-node answers.</source>
        <translation>rookery-node 应答后将显示蜂群信息。</translation>
    </message>
    <message>
        <source>The swarm</source>
        <translation>蜂群</translation>
    </message>
    <message>
        <source>Your rank</source>
        <translation>你的排名</translation>
    </message>
    <message>
        <source>The run&apos;s loss</source>
        <translation>本次训练的损失</translation>
    </message>
    <message numerus="yes">
        <source>%n volunteer(s) in %1 · %2 samples/s</source>
        <translation>
            <numerusform>%n 名志愿者分布在 %1 · %2 样本/秒</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n pipeline(s)</source>
        <translation>
            <numerusform>%n 条流水线</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Plan %1 from the coordinator; it has re-planned %n time(s) as volunteers came and went.</source>
        <translation>
            <numerusform>协调器的第 %1 版计划；随着志愿者加入和离开，它已重新规划 %n 次。</numerusform>
        </translation>
    </message>
    <message>
        <source>not ranked yet</source>
        <translation>尚未排名</translation>
    </message>
    <message>
        <source>#%1 of %2 by confirmed samples (%3)</source>
        <translation>按已确认样本数排第 %1 名，共 %2 名（%3）</translation>
    </message>
    <message>
        <source>The stages that received this PC&apos;s work confirmed %1 of the %2 samples it did; the run credits only confirmed work.</source>
        <translation>接收本机工作的阶段确认了它完成的 %2 个样本中的 %1 个；训练只计入已确认的工作。</translation>
    </message>
    <message>
        <source>%1 (from %2)</source>
        <translation>%1（起始 %2）</translation>
    </message>
    <message>
        <source>no loss reported yet</source>
        <translation>尚未报告损失</translation>
    </message>
    <message>
        <source>minutes</source>
        <translation>分钟</translation>
    </message>
    <message>
        <source>The run&apos;s loss curve</source>
        <translation>本次训练的损失曲线</translation>
    </message>
    <message>
        <source>The run&apos;s loss went from %1 to %2 in %3</source>
        <translation>本次训练的损失在 %3 内从 %1 变为 %2</translation>
    </message>
    <message>
        <source>How peers reach this PC</source>
        <translation>其他节点如何访问本机</translation>
    </message>
    <message>
        <source>Model archive</source>
        <translation>模型存档</translation>
    </message>
    <message>
        <source>Held-out loss</source>
        <translation>留出集损失</translation>
    </message>
    <message>
        <source>its held-out loss is %1</source>
        <translation>其留出集损失为 %1</translation>
    </message>
    <message>
        <source>held-out %1</source>
        <translation>留出集 %1</translation>
    </message>
    <message>
        <source>no snapshot yet</source>
        <translation>尚无快照</translation>
    </message>
    <message>
        <source>The coordinator keeps snapshots of the whole model, collected from the volunteers who train it.</source>
        <translation>协调器保存整个模型的快照，从训练它的志愿者处收集。</translation>
    </message>
    <message>
        <source>snapshot %1, %2 ago</source>
        <translation>快照 %1，%2 前</translation>
    </message>
    <message>
        <source>Blocks %1–%2 came back from snapshot %3, %4 ago: no volunteer held them.</source>
        <translation>块 %1–%2 于 %4 前从快照 %3 恢复：没有志愿者持有它们。</translation>
    </message>
    <message>
        <source>blocks %1–%2 restored from snapshot %3</source>
        <translation>块 %1–%2 已从快照 %3 恢复</translation>
    </message>
</context>
<context>
    <name>rookery::ui::TrainingCard</name>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Moving average</source>
        <translation>移动平均</translation>
    </message>
    <message>
        <source>micro-batches</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>Loss chart</source>
        <translation>损失图表</translation>
    </message>
    <message>
        <source>Loss of each micro-batch this stage completed (faint) and its moving average</source>
        <translation>本阶段完成的每个微批次的损失（浅色）及其移动平均</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>样本</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <source>Optimizer steps</source>
        <translation>优化器步数</translation>
    </message>
    <message>
        <source>No model to train yet: the loss curve appears here once this PC trains a stage of a pipeline.</source>
        <translation>尚无可训练的模型：这台电脑开始训练流水线的某个阶段后，损失曲线将显示在这里。</translation>
    </message>
    <message>
        <source>Waiting for the first micro-batch to come back through the pipeline…</source>
        <translation>正在等待第一个微批次从流水线返回…</translation>
    </message>
    <message>
        <source>Press Contribute to train: the loss curve appears here.</source>
        <translation>点击“贡献算力”开始训练：损失曲线将显示在这里。</translation>
    </message>
    <message>
        <source>%1 · average %2</source>
        <translation>%1 · 平均 %2</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>暂无</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>The training is shown once rookery-node answers.</source>
        <translation>rookery-node 应答后将显示训练信息。</translation>
    </message>
    <message>
        <source>No loss yet</source>
        <translation>暂无损失值</translation>
    </message>
    <message>
        <source>Loss %1 after %2 micro-batches; %3 at micro-batch %4</source>
        <translation>%2 个微批次后损失为 %1；第 %4 个微批次时为 %3</translation>
    </message>
    <message>
        <source>What the run&apos;s model writes</source>
        <translation>本次训练的模型所写的内容</translation>
    </message>
    <message>
        <source>What the run&apos;s model predicts (snapshot %1, held-out loss %2, accuracy %3)</source>
        <translation>本次训练的模型的预测（快照 %1，留出集损失 %2，准确率 %3）</translation>
    </message>
    <message>
        <source>%1 as %2</source>
        <translation>%1 判为 %2</translation>
    </message>
    <message>
        <source>%1 of %2 held-out images right: %3</source>
        <translation>%2 张留出图像中 %1 张正确：%3</translation>
    </message>
    <message>
        <source>What the run&apos;s model writes (snapshot %1, held-out loss %2)</source>
        <translation>本次训练的模型所写的内容（快照 %1，留出集损失 %2）</translation>
    </message>
</context>
<context>
    <name>rookery::ui::TrayIcon</name>
    <message>
        <source>Rookery tray menu</source>
        <translation>Rookery 托盘菜单</translation>
    </message>
    <message>
        <source>Contribute</source>
        <translation>贡献算力</translation>
    </message>
    <message>
        <source>Open Rookery</source>
        <translation>打开 Rookery</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Stop contributing, stop rookery-node and close Rookery</source>
        <translation>停止贡献，停止 rookery-node 并关闭 Rookery</translation>
    </message>
    <message>
        <source>Rookery</source>
        <translation>Rookery</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Rookery: %1</source>
        <translation>Rookery：%1</translation>
    </message>
    <message>
        <source>Rookery: the disk is full</source>
        <translation>Rookery：磁盘已满</translation>
    </message>
    <message>
        <source>rookery-node cannot save its work: %1. Free some disk space on this PC, then start Rookery again.</source>
        <translation>rookery-node 无法保存其工作：%1。请在这台电脑上释放一些磁盘空间，然后重新启动 Rookery。</translation>
    </message>
    <message>
        <source>Rookery stopped contributing</source>
        <translation>Rookery 已停止贡献</translation>
    </message>
    <message>
        <source>rookery-node reports an error: %1</source>
        <translation>rookery-node 报告了一个错误：%1</translation>
    </message>
    <message>
        <source>The coordinator refused this PC</source>
        <translation>协调器拒绝了这台电脑</translation>
    </message>
    <message>
        <source>The training job ended</source>
        <translation>训练任务已结束</translation>
    </message>
    <message>
        <source>This PC has nothing more to do for its job. Thank you for contributing!</source>
        <translation>这台电脑已没有该任务的工作可做。感谢你的贡献！</translation>
    </message>
    <message>
        <source>“%1” has ended: this PC has nothing more to do for it. Thank you for contributing!</source>
        <translation>“%1”已结束：这台电脑已没有它的工作可做。感谢你的贡献！</translation>
    </message>
    <message>
        <source>rookery-node cannot record your contribution: %1. Free some disk space on this PC; the work done meanwhile is written once there is room.</source>
        <translation>rookery-node 无法记录你的贡献：%1。请在这台电脑上释放一些磁盘空间；在此期间完成的工作会在有空间后写入。</translation>
    </message>
    <message>
        <source>Snooze for an hour</source>
        <translation>暂停一小时</translation>
    </message>
    <message>
        <source>End the snooze</source>
        <translation>结束暂停</translation>
    </message>
    <message>
        <source>The coordinator banned this PC</source>
        <translation>协调器禁止了这台电脑</translation>
    </message>
    <message>
        <source>Banned from the job: %1. This PC no longer trains with the swarm; open Rookery for details.</source>
        <translation>已被禁止参与该任务：%1。这台电脑不再与蜂群一起训练；打开 Rookery 查看详情。</translation>
    </message>
    <message>
        <source>Refused: %1. This PC no longer trains with the swarm; open Rookery for details.</source>
        <translation>已被拒绝：%1。这台电脑不再与蜂群一起训练；打开 Rookery 查看详情。</translation>
    </message>
</context>
</TS>
