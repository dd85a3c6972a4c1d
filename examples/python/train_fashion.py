"""Example 5 (Python): the TensorFlow tutorial's CNN, trained on pk: Fashion-MNIST in 5 epochs.

The model of TensorFlow's "Convolutional Neural Network" tutorial, layer for layer:
    Conv2D(32, 3x3, relu) -> MaxPool 2x2 -> Conv2D(64, 3x3, relu) -> MaxPool 2x2
    -> Conv2D(64, 3x3, relu) -> Flatten -> Dense(64, relu) -> Dense(10)
trained with Adam (learning rate 0.001) on sparse categorical cross-entropy, batches of 32, on the
60000 Fashion-MNIST training images (28x28 gray clothes, 10 classes), tested on the 10000 others.
Every layer forward and backward is a pk kernel on arrays kept in the backend's memory (the GPU's
on cuda): pk.conv2d and its two gradients, pk.max_pool2x2, pk.matmul for the dense layers,
pk.bias_activation, pk.relu_backward, pk.softmax_cross_entropy, pk.adam_update. Python only
orders the calls. The data is Debian's dataset-fashion-mnist, read by pk.load_idx.

    PYTHONPATH=build/host/python python3 examples/python/train_fashion.py [--epochs 5] [--batch 32]
        [--train N] [--expect ACCURACY] [--backend openmp|serial|cuda]
    (PK_FASHION_MNIST=DIR reads the four idx files from DIR instead of Debian's folder)

Prints test accuracy and time per epoch; exits 1 when the last epoch's accuracy is below --expect,
77 (skipped) when the data package is not installed.
"""
import argparse
import os
import sys
import time

import numpy as np

import portable_kernels as pk

DATA = os.environ.get("PK_FASHION_MNIST", "/usr/share/datasets/fashion-mnist")  # where the idx files are
SKIP = 77


def glorot(rng, shape, fan_in, fan_out):
    """Keras' default kernel initializer (Glorot uniform)."""
    limit = np.sqrt(6.0 / (fan_in + fan_out))
    return rng.uniform(-limit, limit, shape).astype(np.float32)


class Model:
    """The parameters (in the backend's memory), Adam's moments, and one training step."""

    def __init__(self, rng, backend):
        shapes = {  # conv weights F x KH x KW x C, dense weights in x out
            "w1": (32, 3, 3, 1), "w2": (64, 3, 3, 32), "w3": (64, 3, 3, 64), "w4": (576, 64), "w5": (64, 10)}
        host = {}
        for name, s in shapes.items():
            fan_in, fan_out = (s[1] * s[2] * s[3], s[0] * s[1] * s[2]) if len(s) == 4 else s
            host[name] = glorot(rng, s, fan_in, fan_out)
            host["b" + name[1:]] = np.zeros(s[0] if len(s) == 4 else s[1], np.float32)
        self.p = {k: pk.to_device(v, backend=backend) for k, v in host.items()}
        self.m = {k: pk.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: pk.zeros_like(v) for k, v in self.p.items()}
        self.steps = 0

    def forward(self, x):
        p = self.p
        a1 = pk.conv2d(x, p["w1"], p["b1"], relu=True)   # B x 26 x 26 x 32
        p1 = pk.max_pool2x2(a1)                           # B x 13 x 13 x 32
        a2 = pk.conv2d(p1, p["w2"], p["b2"], relu=True)  # B x 11 x 11 x 64
        p2 = pk.max_pool2x2(a2)                           # B x 5 x 5 x 64
        a3 = pk.conv2d(p2, p["w3"], p["b3"], relu=True)  # B x 3 x 3 x 64
        f = a3.reshape(a3.shape[0], 576)                  # Flatten (channels last, as Keras)
        h = pk.bias_activation(pk.matmul(f, p["w4"]), p["b4"], relu=True)  # B x 64
        logits = pk.bias_activation(pk.matmul(h, p["w5"]), p["b5"])        # B x 10
        return logits, (x, a1, p1, a2, p2, a3, f, h)

    def train_step(self, x, labels):
        p = self.p
        logits, (x, a1, p1, a2, p2, a3, f, h) = self.forward(x)
        loss, g = pk.softmax_cross_entropy(logits, labels)  # g = d(mean loss)/d logits
        grads = {}
        grads["w5"], grads["b5"] = pk.matmul(h.T, g), pk.column_sums(g)
        dh = pk.relu_backward(h, pk.matmul(g, p["w5"].T))
        grads["w4"], grads["b4"] = pk.matmul(f.T, dh), pk.column_sums(dh)
        da3 = pk.relu_backward(a3, pk.matmul(dh, p["w4"].T).reshape(a3.shape))
        grads["w3"], grads["b3"] = pk.conv2d_backward_weights(p2, da3, (3, 3))
        da2 = pk.relu_backward(a2, pk.max_pool2x2_backward(a2, pk.conv2d_backward_input(da3, p["w3"])))
        grads["w2"], grads["b2"] = pk.conv2d_backward_weights(p1, da2, (3, 3))
        da1 = pk.relu_backward(a1, pk.max_pool2x2_backward(a1, pk.conv2d_backward_input(da2, p["w2"])))
        grads["w1"], grads["b1"] = pk.conv2d_backward_weights(x, da1, (3, 3))
        self.steps += 1
        for k in p:
            pk.adam_update(p[k], grads[k], self.m[k], self.v[k], step=self.steps, learning_rate=1e-3)
        return loss


def load(split, limit):
    images = pk.load_idx(os.path.join(DATA, f"{split}-images-idx3-ubyte.gz"))[:limit]
    labels = pk.load_idx(os.path.join(DATA, f"{split}-labels-idx1-ubyte.gz"))[:limit]
    return (images.astype(np.float32) / 255.0).reshape(-1, 28, 28, 1), labels.astype(np.int32)


def accuracy(model, x_dev, labels, backend, batch=1000):
    right = 0
    for i in range(0, len(labels), batch):
        logits, _ = model.forward(x_dev[i:i + batch])
        right += int(np.count_nonzero(logits.copy_to_host().argmax(axis=1) == labels[i:i + batch]))
    return right / len(labels)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--train", type=int, default=60000, help="train on the first N images")
    ap.add_argument("--test", type=int, default=10000, help="test on the first N images")
    ap.add_argument("--expect", type=float, default=0.90, help="exit 1 below this final test accuracy")
    ap.add_argument("--backend", default=None)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    if not hasattr(pk, "load_idx"):
        print("train_fashion: this build has no image I/O (pk.load_idx): skipped")
        return SKIP
    if not os.path.exists(os.path.join(DATA, "train-images-idx3-ubyte.gz")):
        print(f"train_fashion: no Fashion-MNIST at {DATA} (Debian: apt-get install dataset-fashion-mnist): skipped")
        return SKIP

    backend = args.backend or pk.default_backend()
    x_train, y_train = load("train", args.train)
    x_test, y_test = load("t10k", args.test)
    x_test_dev = pk.to_device(x_test, backend=backend)
    print(f"train_fashion: {len(y_train)} training and {len(y_test)} test images on {backend} "
          f"({pk.devices(backend)[0]['name']}), batches of {args.batch}")
    rng = np.random.default_rng(args.seed)
    model = Model(rng, backend)
    acc = 0.0
    for epoch in range(1, args.epochs + 1):
        start = time.perf_counter()
        order = rng.permutation(len(y_train))  # shuffled each epoch, as Keras' fit
        x_dev = pk.to_device(x_train[order], backend=backend)
        y_dev = pk.to_device(y_train[order], backend=backend)
        losses = []
        for i in range(0, len(y_train) - args.batch + 1, args.batch):  # whole batches
            losses.append(model.train_step(x_dev[i:i + args.batch], y_dev[i:i + args.batch]))
        mean_loss = float(np.mean([l.copy_to_host().mean() for l in losses[-50:]]))
        pk.synchronize()
        seconds = time.perf_counter() - start
        acc = accuracy(model, x_test_dev, y_test, backend)
        print(f"train_fashion: epoch {epoch}: loss {mean_loss:.4f} (last 50 batches), test accuracy {acc:.4f}, "
              f"{seconds:.1f} s", flush=True)
    ok = acc >= args.expect
    print(f"train_fashion: {'PASS' if ok else 'FAIL'} (test accuracy {acc:.4f}, expected >= {args.expect})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
