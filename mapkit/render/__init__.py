"""Drawing sheets: SVG from the print geometry, PDF and PNG through cairosvg."""
