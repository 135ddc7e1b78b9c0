"""certify: settle claims about small finite games with machine-checkable proof."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("certify")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.1.0"
