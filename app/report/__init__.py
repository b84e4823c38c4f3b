"""PDF report built from engine Results."""
