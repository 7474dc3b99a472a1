"""Pydantic models of every artifact, canonical JSON, fingerprints, and the code that reads and writes them."""
