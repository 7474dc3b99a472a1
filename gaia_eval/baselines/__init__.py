"""Offline (non-LLM) baselines that read only a document's text, served by providers/baseline.py.

summarize.py: summarizers `lead` and `textrank`; qa.py: answerers `lead` and `retrieval`. They share
document.py (structure, people, turns; cached), textrank.py, decisions.py, actions.py, extract.py,
spans.py and text.py.
"""
