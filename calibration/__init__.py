"""Table geometry and the camera model (pure numpy/shapely here; OpenCV only in the fitting
modules). This package knows nothing of :mod:`tracker`."""
