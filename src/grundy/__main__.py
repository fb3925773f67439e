"""``python -m grundy`` runs the command line."""

from .cli import main

main()
