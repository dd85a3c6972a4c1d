"""Example 2 (Python): edge detection on a photograph -- blur, then the Sobel operator.

The classic image-processing tutorial (OpenCV's, and TensorFlow's tf.image.sobel_edges):
  1. read a photograph and turn it to gray (edges are changes of brightness, not of colour);
  2. smooth it with a small Gaussian, so that sensor noise and JPEG blocks do not look like edges;
  3. take the Sobel gradient magnitude sqrt(gx^2 + gy^2): large where brightness changes fast;
  4. write the magnitude as an image: bright lines on black.
Each output pixel depends on its small neighbourhood only, which is why filters suit GPUs.

    PYTHONPATH=build/host/python python3 examples/python/image_filter.py [PHOTO] [EDGES.png]

PHOTO defaults to the portrait of Grace Hopper that Debian's python-matplotlib-data ships. Every
pixel is checked against the same steps done in float64 with numpy (exit status 1 if one is off).
"""
import os
import sys
import tempfile

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

import portable_kernels as pk

DEFAULT_PHOTO = "/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg"
SKIP = 77  # ctest's "skipped": no photograph or no image I/O in this build


def correlate_reflect101(image, weights):
    """numpy's version of pk.filter(image, weights, "reflect101"), in float64 (2-D image)."""
    r = weights.shape[0] // 2
    padded = np.pad(image.astype(np.float64), r, mode="reflect")  # numpy's "reflect" is dcb|abcd|cba
    return np.einsum("yxij,ij->yx", sliding_window_view(padded, weights.shape), weights.astype(np.float64))


def main(photo_path, edges_path):
    if not hasattr(pk, "load_image"):
        print("image_filter: this build has no image I/O (PK_WITH_IMAGE_IO=OFF): skipped")
        return SKIP
    if not os.path.exists(photo_path):
        print(f"image_filter: no photograph at {photo_path} (Debian: apt-get install python-matplotlib-data): skipped")
        return SKIP

    # Step 1: a uint8 H x W x 3 array, then gray as ITU-R BT.601 luma, in float32 (0..255).
    photo = pk.load_image(photo_path)
    print(f"image_filter: {photo_path}: {photo.shape[1]} x {photo.shape[0]}, {photo.shape[2] if photo.ndim == 3 else 1} channels")
    gray = photo if photo.ndim == 2 else photo[..., :3] @ np.array([0.299, 0.587, 0.114], np.float32)
    gray = np.ascontiguousarray(gray, dtype=np.float32)

    # Step 2 and 3 on the default backend (the GPU when there is one), the image copied there once
    # and the intermediate kept there: filter() knows named kernels and OpenCV's border modes.
    d_gray = pk.to_device(gray)
    d_smooth = pk.filter(d_gray, "gaussian5", "reflect101")   # a device array, on the device
    d_edges = pk.sobel(d_smooth, "reflect101")
    smooth, edges = d_smooth.copy_to_host(), d_edges.copy_to_host()
    print(f"image_filter: edges on {d_edges.backend}: mean {edges.mean():.1f}, max {edges.max():.1f}")

    # Step 4: scale to 0..255 and save. Strong edges saturate: the picture shows where they are.
    pk.save_image(edges_path, np.clip(edges * (255.0 / np.percentile(edges, 99)), 0, 255).astype(np.uint8))
    print(f"image_filter: wrote {edges_path}")

    # The check: the same steps in float64. The Gaussian's weights come from pk.filter_kernel,
    # the Sobel kernels are written out; float32 sums of 25 and 9 terms of this size (up to a few
    # hundred) carry rounding errors of about 1e-4, far below the tolerance.
    smooth_want = correlate_reflect101(gray, pk.filter_kernel("gaussian5"))
    sobel_x = np.array([[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]], np.float64)
    gx = correlate_reflect101(smooth_want, sobel_x)
    gy = correlate_reflect101(smooth_want, sobel_x.T)
    edges_want = np.sqrt(gx * gx + gy * gy)
    worst = max(np.abs(smooth - smooth_want).max(), np.abs(edges - edges_want).max())
    print(f"image_filter: largest difference from float64 numpy: {worst:.2g} (tolerance 0.01)")

    # Colour images filter too: channels are interleaved, as numpy keeps an H x W x 3 array.
    # uint8 sums are rounded and saturated, so they may be one step off a float64 reference.
    blurred = pk.filter(photo, "box5", "clamp")
    colour_ok = True
    for c in range(photo.shape[2] if photo.ndim == 3 else 0):
        window_sums = sliding_window_view(np.pad(photo[..., c].astype(np.float64), 2, mode="edge"), (5, 5)).sum(axis=(2, 3))
        colour_ok &= bool(np.abs(blurred[..., c] - np.rint(window_sums / 25)).max() <= 1)
    print(f"image_filter: colour box5 blur of the uint8 photo: {'right' if colour_ok else 'WRONG'}")

    ok = worst <= 0.01 and colour_ok
    print(f"image_filter: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_PHOTO,
                  sys.argv[2] if len(sys.argv) > 2 else os.path.join(tempfile.gettempdir(), "pk_edges.png")))
