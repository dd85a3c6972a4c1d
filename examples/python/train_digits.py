"""Example 4 (Python): a neural network that reads handwritten digits, trained on pk's kernels.

The machine-learning tutorial's classic (TensorFlow's "beginner" MNIST network, at a smaller
scale): a multilayer perceptron with one hidden layer,

    x (64 pixels) -> h = relu(x W1 + b1) (64 units) -> p = softmax(h W2 + b2) (10 classes),

trained by minibatch SGD with momentum on the cross-entropy loss. Every matrix product of the
forward and the backward pass, every bias sum and every weight update runs on portable_kernels
(pk.matmul, pk.axpby, pk.add); only relu and softmax, which are one line each, are numpy.

Data: the 1797 8x8 digits of UCI's optdigits set (13 writers for training and 30 others for tests
in the original; here a fixed random 80/20 split) as scikit-learn ships them inside its package
(sklearn.datasets.load_digits reads a file installed with it: nothing is downloaded).

    PYTHONPATH=build/host/python python3 examples/python/train_digits.py [--backend NAME] [--epochs N]

Checks the backpropagation against numpy float64 gradients first, then trains and prints the test
accuracy and the wall time. Exit status 1 if a gradient is wrong or the test accuracy is below 90%.
"""
import argparse
import sys
import time

import numpy as np

import portable_kernels as pk

SKIP = 77  # ctest's "skipped": scikit-learn (its digits) is not installed


def load_digits_split(rng):
    """Pixels scaled to 0..1 as float32 rows, labels, split 80/20 at random (fixed seed)."""
    from sklearn.datasets import load_digits
    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int64)
    order = rng.permutation(len(y))
    cut = int(0.8 * len(y))
    return x[order[:cut]], y[order[:cut]], x[order[cut:]], y[order[cut:]]


def relu(z):
    return np.maximum(z, 0)


def softmax(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


class MLP:
    """Weights as float32 numpy arrays; every product and update through pk."""

    def __init__(self, inputs, hidden, classes, rng, backend):
        # He initialization: relu halves the variance, so weights ~ N(0, 2/fan_in).
        self.params = {
            "W1": (rng.standard_normal((inputs, hidden)) * np.sqrt(2 / inputs)).astype(np.float32),
            "b1": np.zeros((1, hidden), np.float32),
            "W2": (rng.standard_normal((hidden, classes)) * np.sqrt(2 / hidden)).astype(np.float32),
            "b2": np.zeros((1, classes), np.float32),
        }
        self.velocity = {name: np.zeros_like(p) for name, p in self.params.items()}
        self.backend = backend

    def affine(self, x, w, b):
        """x @ w + b: out starts as b on every row, then GEMM adds x @ w to it (beta = 1)."""
        out = np.empty((x.shape[0], w.shape[1]), np.float32)
        out[:] = b
        return pk.matmul(x, w, out=out, beta=1.0, backend=self.backend)

    def forward(self, x):
        p = self.params
        z1 = self.affine(x, p["W1"], p["b1"])
        h = relu(z1)
        return z1, h, softmax(self.affine(h, p["W2"], p["b2"]))

    def gradients(self, x, onehot):
        """Backpropagation of the mean cross-entropy over the batch."""
        p, n, on = self.params, x.shape[0], self.backend
        z1, h, probs = self.forward(x)
        ones = np.ones((1, n), np.float32)
        # d loss / d logits = (softmax - onehot) / n, one element-wise kernel
        dz2 = pk.axpby(1.0 / n, probs, -1.0 / n, onehot, backend=on)
        # The transposes are views (h.T, W2.T, x.T): pk.matmul reads them in place, no copies.
        grads = {"W2": pk.matmul(h.T, dz2, backend=on),
                 "b2": pk.matmul(ones, dz2, backend=on)}  # a sum over the batch is a product with ones
        dh = pk.matmul(dz2, p["W2"].T, backend=on)
        dz1 = dh * (z1 > 0)  # relu's derivative
        grads["W1"] = pk.matmul(x.T, dz1, backend=on)
        grads["b1"] = pk.matmul(ones, dz1, backend=on)
        return grads

    def sgd_step(self, grads, learning_rate, momentum):
        """v = momentum*v - lr*grad; w = w + v: two element-wise kernels, in place."""
        for name, w in self.params.items():
            v = self.velocity[name]
            pk.axpby(momentum, v, -learning_rate, grads[name], out=v, backend=self.backend)
            pk.add(w, v, out=w, backend=self.backend)

    def predict(self, x):
        return self.forward(x)[2].argmax(axis=1)


def numpy_gradients(params, x, onehot):
    """The same backpropagation in float64 numpy: the reference for the check."""
    w1, b1, w2, b2 = (params[k].astype(np.float64) for k in ("W1", "b1", "W2", "b2"))
    x = x.astype(np.float64)
    z1 = x @ w1 + b1
    h = np.maximum(z1, 0)
    dz2 = (softmax(h @ w2 + b2) - onehot) / len(x)
    dz1 = (dz2 @ w2.T) * (z1 > 0)
    return {"W1": x.T @ dz1, "b1": dz1.sum(axis=0, keepdims=True), "W2": h.T @ dz2,
            "b2": dz2.sum(axis=0, keepdims=True)}


def gradients_match(model, x, onehot):
    want = numpy_gradients(model.params, x, onehot)
    got = model.gradients(x, onehot)
    ok = True
    for name in want:
        error = np.abs(got[name] - want[name]).max() / max(np.abs(want[name]).max(), 1e-12)
        ok &= bool(error < 1e-4)  # float32 products of length <= 64 against float64
        print(f"train_digits: gradient of {name}: largest difference {error:.1e} of its largest entry")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default=None, help=f"one of {pk.backends()} (default {pk.default_backend()})")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    try:
        import sklearn  # noqa: F401  (only its bundled data file is used)
    except ImportError:
        print("train_digits: scikit-learn is not installed (Debian: apt-get install python3-sklearn): skipped")
        return SKIP

    start = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    x_train, y_train, x_test, y_test = load_digits_split(rng)
    onehot_train = np.eye(10, dtype=np.float32)[y_train]
    backend = args.backend or pk.default_backend()
    print(f"train_digits: {len(y_train)} training and {len(y_test)} test images of 8x8 pixels; "
          f"MLP 64-{args.hidden}-10 on {backend}")

    model = MLP(64, args.hidden, 10, rng, backend)
    gradients_ok = gradients_match(model, x_train[:100], onehot_train[:100])

    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(len(y_train))
        x, onehot = x_train[order], onehot_train[order]  # shuffled once per epoch: batches are slices
        for first in range(0, len(order), args.batch):
            batch = slice(first, first + args.batch)
            model.sgd_step(model.gradients(x[batch], onehot[batch]), learning_rate=0.1, momentum=0.9)
        if epoch % 5 == 0 or epoch == args.epochs:
            probs = model.forward(x_train)[2]
            loss = -np.mean(np.log(probs[np.arange(len(y_train)), y_train] + 1e-12))
            print(f"train_digits: epoch {epoch:3d}: training loss {loss:.4f}, "
                  f"training accuracy {np.mean(probs.argmax(axis=1) == y_train):.4f}")

    accuracy = float(np.mean(model.predict(x_test) == y_test))
    seconds = time.perf_counter() - start
    print(f"train_digits: test accuracy {accuracy:.4f} ({int(round(accuracy * len(y_test)))} of {len(y_test)}), "
          f"{seconds:.1f} s in all")
    ok = gradients_ok and accuracy >= 0.90
    print(f"train_digits: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
