"""gaia-eval: a file-based pipeline that measures which LLM or agent is better at a task."""

__version__ = "0.1.0"
