"""PyTorch's own numbers for the training step bench_gpu_training measures, on the same GPU.

The same GPT (scripts/rookery_model.py: byte-level, width 1024, 28 layers, 16 heads, context
1024), micro-batch 8, AdamW fused, timed in plain PyTorch: eager with bf16 autocast (what
Rookery did first), eager with bf16 weights and fp32 master weights (what Rookery's compute
copies do), and torch.compile (Inductor's fused kernels, which LibTorch lacks), with the MFU of
each by PaLM's FLOP count. Then torch.profiler's table of where the GPU's time goes in the eager
autocast step, and the GPU's busy time against the step's wall time.

    python3 tests/gpu/torch_reference.py [--batch 8] [--no-compile]

run.sh runs it beside the C++ benchmark when ROOKERY_TORCH_REFERENCE=1.
"""
import argparse
import os
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from rookery_model import RookeryGPT  # noqa: E402

CONFIG = {"architecture": "gpt", "vocab": 256, "context": 1024, "width": 1024, "depth": 28,
          "heads": 16, "mlp_ratio": 4}


def palm_flops_per_sample(params):
    c = CONFIG
    return 6.0 * params * c["context"] + 12.0 * c["depth"] * c["context"] ** 2 * c["width"]


def timed_steps(step, warmup, steps):
    for _ in range(warmup):
        step()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(steps):
        step()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / steps


def make_step(model, batch, mode, master=None):
    x = torch.randint(0, CONFIG["vocab"], (batch, CONFIG["context"]), device="cuda")
    y = torch.randint(0, CONFIG["vocab"], (batch, CONFIG["context"]), device="cuda")
    if mode == "bf16-weights":
        # fp32 master weights step; the model's own bf16 weights are their copies.
        compute = list(model.parameters())
        opt = torch.optim.AdamW(master, lr=3e-4, weight_decay=0.1, fused=True)

        def step():
            with torch.no_grad():
                torch._foreach_copy_(compute, master)
            for p in compute:
                p.grad = None
            logits = model(x)
            loss = F.cross_entropy(logits.float().view(-1, logits.size(-1)), y.view(-1))
            loss.backward()
            for m, p in zip(master, compute):
                m.grad = p.grad.float()
            opt.step()
            return loss
        return step
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.1, fused=True)

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            logits = model(x)
        loss = F.cross_entropy(logits.float().view(-1, logits.size(-1)), y.view(-1))
        loss.backward()
        opt.step()
        return loss
    return step


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--no-compile", action="store_true")
    args = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = True
    dev_name = torch.cuda.get_device_name(0)
    params = sum(p.numel() for p in RookeryGPT(CONFIG).parameters())
    flops = palm_flops_per_sample(params) * args.batch
    peak = 989.4e12
    print(f"torch {torch.__version__} on {dev_name}: {params / 1e6:.1f}M parameters, "
          f"micro-batch {args.batch}")

    def report(label, seconds):
        print(f"  {label}: {seconds * 1e3:.1f} ms a step, {flops / seconds / 1e12:.1f} TFLOP/s, "
              f"MFU {100 * flops / seconds / peak:.1f}% of 989 TFLOP/s", flush=True)

    model = RookeryGPT(CONFIG).cuda()
    eager = make_step(model, args.batch, "autocast")
    report("eager, bf16 autocast", timed_steps(eager, 3, 10))

    bf16 = RookeryGPT(CONFIG).cuda()
    master = [p.detach().clone().requires_grad_(True) for p in bf16.parameters()]
    bf16 = bf16.to(torch.bfloat16)
    report("eager, bf16 weights + fp32 master", timed_steps(make_step(bf16, args.batch,
                                                                      "bf16-weights", master),
                                                            3, 10))
    del bf16, master

    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(3):
            eager()
        torch.cuda.synchronize()
    events = prof.key_averages()
    gpu_us = sum(e.self_device_time_total for e in events) / 3
    t = timed_steps(eager, 1, 3)
    print(f"  eager autocast: GPU busy {gpu_us / 1e3:.1f} ms of a {t * 1e3:.1f} ms step "
          f"({100 * gpu_us / 1e3 / (t * 1e3):.0f}%)")
    print(events.table(sort_by="self_device_time_total", row_limit=28, max_name_column_width=70))
    if os.environ.get("ROOKERY_BENCH_TRACE"):
        prof.export_chrome_trace(os.path.join(os.environ["ROOKERY_BENCH_TRACE"],
                                              "trace-torch-eager-autocast.json"))

    if not args.no_compile:
        del eager
        compiled_model = torch.compile(RookeryGPT(CONFIG).cuda())
        t0 = time.perf_counter()
        step = make_step(compiled_model, args.batch, "autocast")
        step()
        torch.cuda.synchronize()
        print(f"  (torch.compile took {time.perf_counter() - t0:.0f} s)")
        report("torch.compile, bf16 autocast", timed_steps(step, 2, 10))


if __name__ == "__main__":
    main()
