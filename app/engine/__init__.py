"""Engine: Project + Scenario -> Result (pure Python + numpy; no Qt, no I/O)."""
