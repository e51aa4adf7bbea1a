"""A package's `python -m` entry point: importing it would start the program."""
import sys

from .server import main

sys.exit(main())
