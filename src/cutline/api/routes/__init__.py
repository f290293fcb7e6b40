"""Routers, one per contract resource."""
