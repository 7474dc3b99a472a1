"""The report's data model and charts: what the report stage writes and the viewer shows (below both)."""
