"""Developer tools (not installed): the translation catalogs (catalogs.py)."""
