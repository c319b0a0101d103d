"""The referee: ``FrameState + Shot (+ operator inputs) -> Decision + next FrameState``.

Pure: no OpenCV, no ultralytics, no I/O (``tests/test_purity.py`` keeps it so).
"""
