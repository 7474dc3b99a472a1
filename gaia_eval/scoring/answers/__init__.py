"""GAIA-style answer matching: does a free-text answer say the expected short answer? (`match_answer`)."""
