"""Example 4 (Python): a neural network that reads handwritten digits, trained on pk's kernels.

The machine-learning tutorial's classic (TensorFlow's "beginner" MNIST network, at a smaller
scale): a multilayer perceptron with one hidden layer,

    x (64 pixels) -> h = relu(x W1 + b1) (64 units) -> p = softmax(h W2 + b2) (10 classes),

trained by minibatch SGD with momentum on the cross-entropy loss. Every matrix product of the
forward and the backward pass (biases included, as an extra row of weights), the gradient of the
loss and every weight update run on portable_kernels (pk.matmul, pk.axpby, pk.add); only relu
and softmax, one line each, are numpy.

Data: the 1797 8x8 digits that scikit-learn ships inside its package (a copy of the test part of
UCI's optdigits set; sklearn.datasets.load_digits reads a file installed with it: nothing is
downloaded), split here 80/20 at random with a fixed seed.

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
    """Pixels scaled to 0..1 as float32 rows with a constant 1 appended (for the bias), labels,
    split 80/20 at random (fixed seed)."""
    from sklearn.datasets import load_digits
    digits = load_digits()
    x = np.hstack([digits.data / 16.0, np.ones((len(digits.data), 1))]).astype(np.float32)
    y = digits.target.astype(np.int64)
    order = rng.permutation(len(y))
    cut = int(0.8 * len(y))
    return x[order[:cut]], y[order[:cut]], x[order[cut:]], y[order[cut:]]


def softmax(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


class MLP:
    """Two layers of weights, each with its bias as an extra last row (the "bias trick": the layer's
    input carries a constant 1 as its last column, so input @ W is x @ W[:-1] + W[-1]).

    All weights live in one flat float32 array, W1 and W2 being views of it, and so do their
    gradients: one SGD step is then two element-wise kernel calls however many layers there are.
    Few, large kernel calls matter: on CPUs each launch costs tens of microseconds or more."""

    def __init__(self, inputs, hidden, classes, rng, backend):
        shapes = [(inputs + 1, hidden), (hidden + 1, classes)]
        self.weights = np.zeros(sum(r * c for r, c in shapes), np.float32)
        self.velocity = np.zeros_like(self.weights)
        self.gradient = np.zeros_like(self.weights)
        self.W1, self.W2 = self.layers(self.weights, shapes)
        self.dW1, self.dW2 = self.layers(self.gradient, shapes)
        # He initialization: relu halves the variance, so weights ~ N(0, 2/fan_in); biases 0.
        for w in (self.W1, self.W2):
            w[:-1] = rng.standard_normal((w.shape[0] - 1, w.shape[1])) * np.sqrt(2 / (w.shape[0] - 1))
        self.backend = backend

    @staticmethod
    def layers(flat, shapes):
        """Consecutive pieces of `flat` as matrices: C-contiguous views, not copies."""
        views, at = [], 0
        for rows, cols in shapes:
            views.append(flat[at:at + rows * cols].reshape(rows, cols))
            at += rows * cols
        return views

    def forward(self, x):
        """x: n x (inputs+1), last column 1. Returns z1, h (with its column of ones), probabilities."""
        z1 = pk.matmul(x, self.W1, backend=self.backend)
        h = np.empty((len(x), z1.shape[1] + 1), np.float32)
        np.maximum(z1, 0, out=h[:, :-1])  # relu
        h[:, -1] = 1
        return z1, h, softmax(pk.matmul(h, self.W2, backend=self.backend))

    def backward(self, x, onehot):
        """Backpropagation of the mean cross-entropy over the batch into self.dW1, self.dW2."""
        on, n = self.backend, len(x)
        z1, h, probs = self.forward(x)
        # d loss / d logits = (softmax - onehot) / n: one element-wise kernel
        dz2 = pk.axpby(1.0 / n, probs, -1.0 / n, onehot, backend=on)
        # The transposes are views (h.T, W2[:-1].T, x.T): pk.matmul reads them in place, no copies;
        # out= writes each gradient straight into its piece of the flat gradient array.
        pk.matmul(h.T, dz2, out=self.dW2, backend=on)
        dh = pk.matmul(dz2, self.W2[:-1].T, backend=on)  # the bias row feeds no hidden unit
        dz1 = dh * (z1 > 0)  # relu's derivative
        pk.matmul(x.T, dz1, out=self.dW1, backend=on)

    def sgd_step(self, learning_rate, momentum):
        """v = momentum*v - lr*gradient; w = w + v: two element-wise kernels, in place."""
        pk.axpby(momentum, self.velocity, -learning_rate, self.gradient, out=self.velocity, backend=self.backend)
        pk.add(self.weights, self.velocity, out=self.weights, backend=self.backend)

    def predict(self, x):
        return self.forward(x)[2].argmax(axis=1)


def numpy_gradients(w1, w2, x, onehot):
    """The same backpropagation in float64 numpy: the reference for the check."""
    w1, w2, x = w1.astype(np.float64), w2.astype(np.float64), x.astype(np.float64)
    z1 = x @ w1
    h = np.hstack([np.maximum(z1, 0), np.ones((len(x), 1))])
    dz2 = (softmax(h @ w2) - onehot) / len(x)
    dz1 = (dz2 @ w2[:-1].T) * (z1 > 0)
    return x.T @ dz1, h.T @ dz2


def gradients_match(model, x, onehot):
    want = numpy_gradients(model.W1, model.W2, x, onehot)
    model.backward(x, onehot)
    ok = True
    for name, got, ref in zip(("W1", "W2"), (model.dW1, model.dW2), want):
        error = np.abs(got - ref).max() / max(np.abs(ref).max(), 1e-12)
        ok &= bool(error < 1e-4)  # float32 products of length <= 100 against float64
        print(f"train_digits: gradient of {name} (and its bias): largest difference {error:.1e} of its largest entry")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default=None, help=f"one of {pk.backends()} (default {pk.default_backend()})")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--learning-rate", type=float, default=0.1)
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
            model.backward(x[batch], onehot[batch])
            model.sgd_step(learning_rate=args.learning_rate, momentum=0.9)
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
