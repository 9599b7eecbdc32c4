"""Importing real networks: GTFS feeds and line graphs, to a playable draft map."""

from mapkit.importers.draft import ImportConfig, ImportResult, network_to_map
from mapkit.importers.graph import read_graph
from mapkit.importers.gtfs import Selection, read_gtfs
from mapkit.importers.network import ImportFailure, Network, Place, Route

__all__ = [
    "ImportConfig", "ImportFailure", "ImportResult", "Network", "Place", "Route", "Selection",
    "network_to_map", "read_graph", "read_gtfs",
]  # fmt: skip
