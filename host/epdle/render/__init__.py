"""Frames for the panel: planes <-> images, suggestion and status frame design."""
