"""What a run produces for people and programs: files, store, overlay, live pages.

Each output is a :class:`tracker.listeners.RunListener`; the pipeline calls them as records,
frames and the end arrive.
"""
