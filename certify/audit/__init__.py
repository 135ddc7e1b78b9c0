"""Claims audits: claims files read, each claim evaluated against its solved, checked game (docs/claims-format.md)."""
