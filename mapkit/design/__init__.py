"""Design analysis of a map: is it skilful, tense and fair (report), how to make it so (tune),
and how two versions differ (compare). Built on the public simulate API; see docs/design.md."""
