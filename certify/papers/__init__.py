"""Layer: paper reproductions, above the general players — the papers' own programs.

The T3DT bot (`t3dt`), TD learning (`td`), the search players' audit (`search_audit`), the
first player's plan under the open rules of Ultimate tic-tac-toe (`bertholon`), and Patashnik's
strategic moves for Qubic (`patashnik`, its dictionary in `data/`).
"""
