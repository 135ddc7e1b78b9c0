"""Layer: searches, above the game families and workers — solving and proving any family's game.

Searches over any family's engine: retrograde solving, proof-number search, the parallel
driver, proof trees, strategy extraction and analysis."""
