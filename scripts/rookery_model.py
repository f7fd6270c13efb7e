#!/usr/bin/env python3
"""A GPT that Rookery trained, in plain PyTorch: no Rookery needed to use it.

`rookery-coordinator export` writes a folder with model.safetensors (every parameter, f32,
by Rookery's names) and config.json (the architecture). This file defines the same model as
torch.nn modules whose paths are those names, so the weights load with strict=True:

    from rookery_model import load
    model = load("exported/")                      # eval mode, on the CPU
    logits = model(torch.tensor([[72, 105, 33]]))  # [batch, tokens, vocab]

It reads safetensors with Hugging Face's `safetensors` package when it is installed and with
its own twenty lines otherwise (the format is a JSON header and raw little-endian bytes).

    python3 rookery_model.py DIR --tokens 1,2,3 [--logits OUT.f32]
prints the logits' shape and first values, and writes them raw (f32) for a comparison.
"""
import argparse
import array
import json
import math
import os
import struct
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F


class Embedding(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.tok = nn.Embedding(c["vocab"], c["width"])
        self.pos = nn.Embedding(c["context"], c["width"])

    def forward(self, ids):
        positions = torch.arange(ids.shape[1], device=ids.device)
        return self.tok(ids) + self.pos(positions)


class Attention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.heads, self.width = c["heads"], c["width"]
        self.qkv = nn.Linear(self.width, 3 * self.width)
        self.proj = nn.Linear(self.width, self.width)

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, self.width // self.heads).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(y.transpose(1, 2).reshape(b, t, self.width))


class FeedForward(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.fc = nn.Linear(c["width"], c["mlp_ratio"] * c["width"])
        self.proj = nn.Linear(c["mlp_ratio"] * c["width"], c["width"])

    def forward(self, x):
        return self.proj(F.gelu(self.fc(x)))


class Layer(nn.Module):
    def __init__(self, c):
        super().__init__()
        eps = c.get("layer_norm_eps", 1e-5)
        self.ln1 = nn.LayerNorm(c["width"], eps=eps)
        self.attn = Attention(c)
        self.ln2 = nn.LayerNorm(c["width"], eps=eps)
        self.mlp = FeedForward(c)

    def forward(self, x):
        h = x + self.attn(self.ln1(x))
        return h + self.mlp(self.ln2(h))


class Head(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.ln = nn.LayerNorm(c["width"], eps=c.get("layer_norm_eps", 1e-5))
        self.head = nn.Linear(c["width"], c["vocab"], bias=False)

    def forward(self, x):
        return self.head(self.ln(x))


class RookeryGPT(nn.Module):
    """Blocks block0 (embedding), block1..blockN (layers), blockN+1 (head): Rookery's chain."""

    def __init__(self, config):
        super().__init__()
        if config.get("architecture") != "gpt":
            raise ValueError(f"not a GPT export: architecture {config.get('architecture')!r}")
        self.config = config
        self.block0 = Embedding(config)
        for i in range(1, config["depth"] + 1):
            setattr(self, f"block{i}", Layer(config))
        setattr(self, f"block{config['depth'] + 1}", Head(config))

    def forward(self, ids):
        x = ids
        for i in range(self.config["depth"] + 2):
            x = getattr(self, f"block{i}")(x)
        return x


_DTYPES = {"F32": (torch.float32, 4), "F16": (torch.float16, 2), "BF16": (torch.bfloat16, 2)}


def read_safetensors(path):
    """The tensors of a safetensors file, by name (f32)."""
    try:
        from safetensors.torch import load_file
        return {k: v.float() for k, v in load_file(path).items()}
    except ImportError:
        pass
    with open(path, "rb") as f:
        data = f.read()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + length])
    base = 8 + length
    tensors = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        dtype, width = _DTYPES[entry["dtype"]]
        begin, end = entry["data_offsets"]
        count = math.prod(entry["shape"])
        if end - begin != count * width:
            raise ValueError(f"{path}: {name}: {end - begin} bytes for {count} values")
        raw = bytearray(data[base + begin:base + end])
        tensors[name] = torch.frombuffer(raw, dtype=dtype).reshape(entry["shape"]).float()
    return tensors


def load(folder):
    with open(os.path.join(folder, "config.json")) as f:
        config = json.load(f)
    model = RookeryGPT(config)
    model.load_state_dict(read_safetensors(os.path.join(folder, "model.safetensors")), strict=True)
    return model.eval()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--tokens", required=True, help="comma-separated token ids, one sequence")
    parser.add_argument("--logits", help="write the logits here, raw little-endian f32")
    args = parser.parse_args()
    model = load(args.folder)
    ids = torch.tensor([[int(t) for t in args.tokens.split(",")]])
    with torch.no_grad():
        logits = model(ids)
    print(f"torch {torch.__version__}: logits {list(logits.shape)}, first "
          f"{[round(v, 5) for v in logits[0, 0, :4].tolist()]}")
    if args.logits:
        values = array.array("f", logits.flatten().tolist())
        if sys.byteorder != "little":
            values.byteswap()
        with open(args.logits, "wb") as f:
            f.write(values.tobytes())
    return 0


if __name__ == "__main__":
    sys.exit(main())
