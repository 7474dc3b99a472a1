"""The deterministic rubric: per-criterion checks of summaries and qa answers, the grade and rating bands."""
