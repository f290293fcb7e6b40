"""Cutline: a self-hostable media analysis service."""

__version__ = "0.1.0"
