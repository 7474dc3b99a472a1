"""Entry point for `python -m gaia_eval`."""

from gaia_eval.cli import main

if __name__ == "__main__":
    main()
