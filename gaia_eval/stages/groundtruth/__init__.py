"""Ground-truth stage: reference summaries and Q&A from planted facts or written by a model."""
