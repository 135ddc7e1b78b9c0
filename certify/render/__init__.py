"""Drawing boards for people: text and rich renderables, Ultimate tic-tac-toe grids, SVG."""
