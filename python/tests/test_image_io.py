# load_image / save_image: a real photograph (Debian's python-matplotlib-data), PNG round trips that
# must be exact, JPEG within its loss, and errors for missing files, bad extensions and dtypes.
import os

import numpy as np
import pytest

import portable_kernels as pk

if not hasattr(pk, "load_image"):
    pytest.skip("built without image I/O (PK_WITH_IMAGE_IO=OFF)", allow_module_level=True)

PHOTO = os.environ.get("PK_SAMPLE_PHOTO", "/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg")


@pytest.mark.skipif(not os.path.exists(PHOTO), reason=f"no sample photograph at {PHOTO}")
def test_loads_a_real_photograph():
    photo = pk.load_image(PHOTO)
    assert photo.dtype == np.uint8 and photo.ndim == 3 and photo.shape[2] == 3
    assert photo.shape[0] > 100 and photo.shape[1] > 100
    assert photo.flags.c_contiguous and photo.flags.writeable
    assert 20 < photo.mean() < 235 and photo.std() > 10  # a picture, not a blank


@pytest.mark.parametrize("shape", [(7, 5), (6, 9, 2), (4, 3, 3), (5, 8, 4)])
def test_png_round_trip_is_exact(tmp_path, rng, shape):
    image = rng.integers(0, 256, shape, dtype=np.uint8)
    path = tmp_path / "image.png"
    pk.save_image(path, image)  # os.PathLike works
    back = pk.load_image(str(path))
    np.testing.assert_array_equal(back, image)


def test_jpeg_round_trip_is_close(tmp_path):
    y, x = np.mgrid[0:64, 0:80]
    image = np.stack([x * 3, y * 3, (x + y) * 2], axis=-1).astype(np.uint8)  # smooth: JPEG keeps it
    pk.save_image(tmp_path / "image.jpg", image, jpeg_quality=95)
    back = pk.load_image(tmp_path / "image.jpg")
    assert back.shape == image.shape
    assert np.abs(back.astype(int) - image).mean() < 3


def test_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"load_image: no such file: '.*missing.png'"):
        pk.load_image(tmp_path / "missing.png")
    not_an_image = tmp_path / "text.png"
    not_an_image.write_text("hello")
    with pytest.raises(ValueError, match=r"pk::load_image"):
        pk.load_image(not_an_image)
    with pytest.raises(ValueError, match=r"\.bmp"):
        pk.save_image(tmp_path / "out.bmp", np.zeros((4, 4), np.uint8))
    with pytest.raises(TypeError, match=r"image has dtype float32, expected uint8"):
        pk.save_image(tmp_path / "out.png", np.zeros((4, 4), np.float32))
    with pytest.raises(ValueError, match=r"image has shape \(4, 4, 5\)"):
        pk.save_image(tmp_path / "out.png", np.zeros((4, 4, 5), np.uint8))
    assert not (tmp_path / "out.png").exists()
