"""Reproductions of papers' own programs: the T3DT bot (`t3dt`), TD learning (`td`), the search
players (`search_audit`)."""
