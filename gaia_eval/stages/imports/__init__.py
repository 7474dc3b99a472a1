"""Imports of a user's own data: ground truth (import-groundtruth) and systems' outputs (import-outputs)."""
