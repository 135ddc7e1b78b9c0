"""Layer: the published record — `certify publish` regenerates certificates/ (proofs, pairings, 4×4 results, audits, index)."""
