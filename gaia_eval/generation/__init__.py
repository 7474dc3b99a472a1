"""Offline synthetic documents with planted facts (`offline.generate_offline`) and the ground truth derived
from those facts (`facts_to_groundtruth`)."""
