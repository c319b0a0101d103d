"""snooker-tracker: a camera referee for snooker."""

__version__ = "0.1.0"
