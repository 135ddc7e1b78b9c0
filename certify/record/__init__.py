"""Layer: what a certificate is, above the solver — its format, schema, writing and reading.

Read and written by everything above: `format` (constants, packed arrays), `schema` (pydantic
models), `certificate` (build, write, read back), `positions` (a table read as labels and move
values), `budget` (the checker's limits for one proof). Building the published record is
certify/publish/.
"""
