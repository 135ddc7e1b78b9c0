"""Layer: the package's version, the one place it is written (pyproject.toml and certificates read it)."""

__version__ = "0.1.0"
