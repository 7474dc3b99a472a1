"""Templates: answer templates to fill by hand and response templates read back as experiments."""
