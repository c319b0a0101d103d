"""The referee's error for records it cannot accept."""

from __future__ import annotations


class RuleError(ValueError):
    """A shot or input the referee cannot accept (impossible record); says what is wrong."""
