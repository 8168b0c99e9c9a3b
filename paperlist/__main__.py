"""`python -m paperlist`: the command line."""

from .cli import main

main()
