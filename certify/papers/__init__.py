"""Layer: paper reproductions, above the general players — the papers' own programs.

The T3DT bot (`t3dt`), TD learning (`td`), the search players' audit (`search_audit`), and the
first player's plan under the open rules of Ultimate tic-tac-toe (`bertholon`).
"""
