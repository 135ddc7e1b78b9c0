"""Layer: drawing, above the certificate — boards and positions drawn for people.

Drawing boards for people: text and rich renderables, Ultimate tic-tac-toe grids, SVG."""
