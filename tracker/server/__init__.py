"""The live server: scoreboard, broadcast overlay, referee console, review pages (ASGI)."""
