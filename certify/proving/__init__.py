"""Layer: proving, above the certificate and pipeline — claims proved as strategy certificates.

Proving claims as strategy certificates: one claim serially (`single`), one claim on the
parallel driver (`parallel`), many positions in a batch (`batch`)."""
