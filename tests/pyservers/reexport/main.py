"""Imports the server under another name, to run it."""
from .server import mcp as app

if __name__ == "__main__":
    app.run()
