"""The shot-record format (the boundary between perception and the referee)."""
