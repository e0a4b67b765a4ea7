"""The write side: commands -> engine -> events -> store; CLI root, HTTP API and pages."""

from handlog.engine import HANDLOG_VERSION as __version__

__all__ = ["__version__"]
