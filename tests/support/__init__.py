"""Helpers the test folders share (tests/ is on pytest's pythonpath: `from support.x import y`)."""
