"""One epoch of the tutorial CNN on pk beside PyTorch running the same model, in the same run.

    PYTHONPATH=<build>/python python3 bench/python/cnn_epoch.py [--steps 300] [--batch 32]

Both train examples/python/train_fashion.py's model (the TensorFlow tutorial's CNN) with Adam on
the same random 28x28 images for --steps batches, after 20 warm-up steps; PyTorch with TF32 off, its
default NCHW layout, cuDNN's choice of algorithms (benchmark mode). Reports ms per step and the
time of a 60000-image epoch at that rate, and pk's speed over PyTorch's.
"""
import argparse
import os
import sys
import time

import numpy as np

import portable_kernels as pk

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python"))
import train_fashion  # noqa: E402  (the pk model)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--batch", type=int, default=32)
    args = ap.parse_args()
    import torch
    import torch.nn as nn

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cudnn.benchmark = True
    B, steps = args.batch, args.steps
    rng = np.random.default_rng(1)
    x = rng.random((B * (steps + 20), 28, 28, 1), dtype=np.float32)
    y = rng.integers(0, 10, B * (steps + 20)).astype(np.int32)

    model = train_fashion.Model(rng, "cuda")
    xd, yd = pk.to_device(x), pk.to_device(y)

    def pk_steps(first, count):
        for i in range(first, first + count):
            model.train_step(xd[i * B:(i + 1) * B], yd[i * B:(i + 1) * B])

    net = nn.Sequential(nn.Conv2d(1, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(32, 64, 3), nn.ReLU(),
                        nn.MaxPool2d(2), nn.Conv2d(64, 64, 3), nn.ReLU(), nn.Flatten(), nn.Linear(576, 64),
                        nn.ReLU(), nn.Linear(64, 10)).cuda()
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, eps=1e-7)
    loss_fn = nn.CrossEntropyLoss()
    xt = torch.from_numpy(x.transpose(0, 3, 1, 2).copy()).cuda()
    yt = torch.from_numpy(y.astype(np.int64)).cuda()

    def torch_steps(first, count):
        for i in range(first, first + count):
            opt.zero_grad(set_to_none=True)
            loss = loss_fn(net(xt[i * B:(i + 1) * B]), yt[i * B:(i + 1) * B])
            loss.backward()
            opt.step()

    def timed(run):
        run(0, 20)
        torch.cuda.synchronize()
        pk.synchronize()
        t = time.perf_counter()
        run(20, steps)
        torch.cuda.synchronize()
        pk.synchronize()
        return (time.perf_counter() - t) / steps

    t_torch = timed(torch_steps)
    t_pk = timed(pk_steps)
    t_torch2 = timed(torch_steps)  # again after pk: the first may have warmed the GPU's clocks
    t_torch = min(t_torch, t_torch2)
    epoch = 60000 // B
    print(f"device: {pk.devices('cuda')[0]['name']}, batch {B}, {steps} steps each, PyTorch {torch.__version__}")
    print(f"pk:      {t_pk * 1e3:7.3f} ms/step, epoch {t_pk * epoch:6.2f} s")
    print(f"PyTorch: {t_torch * 1e3:7.3f} ms/step, epoch {t_torch * epoch:6.2f} s")
    print(f"pk speed / PyTorch speed: {t_torch / t_pk:.3f}")
    with pk.profile(print=False) as prof:
        pk_steps(20, 20)
    print(prof.table())
    layers(torch)


def layers(torch, batch=256, calls=20):
    """The model's three convolutions at batch 256: pk against PyTorch's (cuDNN, TF32 off), forward
    and both gradients, each timed over `calls` calls between synchronizations."""
    import torch.nn.functional as F
    from torch.nn.grad import conv2d_input, conv2d_weight

    def timed(f):
        f()
        torch.cuda.synchronize()
        pk.synchronize()
        t = time.perf_counter()
        for _ in range(calls):
            f()
        torch.cuda.synchronize()
        pk.synchronize()
        return (time.perf_counter() - t) / calls

    print(f"conv2d layers at batch {batch}: ms per call, pk / cuDNN speed")
    for (h, c, f) in [(28, 1, 32), (13, 32, 64), (5, 64, 64)]:
        x = torch.randn(batch, h, h, c, device="cuda")  # NHWC for pk
        w = torch.randn(f, 3, 3, c, device="cuda")
        xt = x.permute(0, 3, 1, 2).contiguous()  # NCHW for cuDNN
        wt = w.permute(0, 3, 1, 2).contiguous()
        y = pk.conv2d(x, w)
        dy = torch.randn(y.shape, device="cuda")
        dyt = dy.permute(0, 3, 1, 2).contiguous()
        ref = F.conv2d(xt, wt).permute(0, 2, 3, 1)
        err = (torch.from_dlpack(y) - ref).abs().max().item()
        rows = [("forward", lambda: pk.conv2d(x, w, out=y), lambda: F.conv2d(xt, wt)),
                ("input gradient", lambda: pk.conv2d_backward_input(dy, w),
                 lambda: conv2d_input(xt.shape, wt, dyt)),
                ("weight gradient", lambda: pk.conv2d_backward_weights(x, dy, (3, 3)),
                 lambda: conv2d_weight(xt, wt.shape, dyt))]
        for name, mine, theirs in rows:
            t_pk, t_cudnn = timed(mine), timed(theirs)
            print(f"  {h}x{h}x{c} -> {f}, {name:15s}: pk {t_pk * 1e3:7.3f}  cuDNN {t_cudnn * 1e3:7.3f}  "
                  f"pk/cuDNN {t_cudnn / t_pk:5.2f}   (forward max |diff| {err:.1e})")


if __name__ == "__main__":
    main()
