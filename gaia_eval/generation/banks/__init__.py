"""Phrase banks and name pools the offline generator draws from: data only, no logic."""
