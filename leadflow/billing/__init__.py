"""Per-page extraction credits."""
