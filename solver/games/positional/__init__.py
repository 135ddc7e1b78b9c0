"""The positional family (m,n,k and its variants): rules, the engine over state codes, the
proof-search hooks."""
