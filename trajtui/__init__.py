"""trajtui: a terminal inspector for AI-agent trajectories and eval results."""

__version__ = "0.1.0"
