"""Perception: ball detection, tracking and events, from frames to shot records."""
