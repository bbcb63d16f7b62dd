"""Reusable widgets of the wizard's screens."""
