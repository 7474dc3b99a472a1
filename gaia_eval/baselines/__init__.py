"""Offline (non-LLM) baselines that read only a document's text, served as the `baseline` provider by
baselines/provider.py (registered by entry.py through pyproject.toml, so providers/ never imports this package).

summarize.py: summarizers `lead` and `textrank`; qa.py: answerers `lead` and `retrieval`. They share
document.py (structure, people, turns; cached), textrank.py, decisions.py, actions.py, extract.py,
spans.py and text.py.
"""
