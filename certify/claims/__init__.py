"""Layer: claims audits, above the players — each claim of a claims file judged against its game.

`load` reads a claims file (docs/claims-format.md), `run` evaluates each claim against its solved,
checked game, `report` writes the audit page. The policy audit is certify/policy/audit.py.
"""
