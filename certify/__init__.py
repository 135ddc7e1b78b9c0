"""certify: settle claims about small finite games with machine-checkable proof."""


def __getattr__(name: str) -> str:
    """`certify.__version__`, read from the installed metadata only when asked (it costs startup time)."""
    if name != "__version__":
        raise AttributeError(name)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("certify")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0.1.0"
