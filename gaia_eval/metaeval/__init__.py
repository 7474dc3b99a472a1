"""Meta-evaluation: how well each gaia-eval scorer agrees with human ratings of the same outputs (loading the
ratings, scoring every output, correlation statistics, the markdown table)."""
