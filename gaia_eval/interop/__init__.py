"""Results written by other evaluation tools (Inspect logs, promptfoo result files, lm-evaluation-harness sample
files), read into one neutral shape (`records`), and gaia-eval's evaluations written back out in shared formats."""
