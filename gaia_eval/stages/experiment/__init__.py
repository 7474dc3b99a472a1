"""Experiment stage: run each model over the work items (solvers, long documents, totals, output folders)."""
