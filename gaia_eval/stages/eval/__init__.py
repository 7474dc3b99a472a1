"""Eval stage: score experiments against the ground truth (rubric, answer matching, judge) and keep the index."""
