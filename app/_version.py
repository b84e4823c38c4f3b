# Kept in step with pyproject.toml's version by tests/test_version.py (the frozen app reads this).
VERSION = "0.1.0"
