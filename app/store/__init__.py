"""Persistence: preset catalog (TOML), project files (SQLite, JSON). No Qt."""
