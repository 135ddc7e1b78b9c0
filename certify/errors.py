"""Layer: the one exception type of the certify API, below every module that raises it."""


class CertifyError(ValueError):
    """Bad input to the certify API (an unknown game, an illegal move, a file that is not a
    certificate, ...): the message is one line saying what is wrong, as the command line says it."""

    __module__ = "certify"  # its public name, as tracebacks and docs/api.md show it: certify.CertifyError
