"""The write side: commands -> engine -> events -> store; CLI root, HTTP API and pages."""

__version__ = "0.1.0"
