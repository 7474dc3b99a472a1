"""LLM-written documents: briefs from the offline scenario, prompts, validation checks, sessions, PDF rendering."""
