"""Ground truth, computed two independent ways, per family."""
