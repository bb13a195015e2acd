"""``eights web``: a table in the browser (play against bots, watch stored games, see the
leaderboard), served by one process.

The page is plain HTML, CSS and JavaScript modules under ``static/`` (no build
step, nothing fetched from elsewhere) and talks JSON over one WebSocket to
:class:`~eights.web.server.WebServer`. The server only ever sends what a seat
may see: the views its engines build for that seat (:mod:`eights.web.tables`),
and the sentences ``eights play`` says (:mod:`eights.play.text`). docs/web.md
describes the three views and the keys.
"""

from .server import WebServer, running_web_server

__all__ = ["WebServer", "running_web_server"]
