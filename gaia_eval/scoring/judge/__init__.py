"""The LLM judge: prompts, criteria, the judging run over experiments, its summary and agreement statistics."""
