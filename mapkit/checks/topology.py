"""Topology layer of validate: stations no line reaches, and split networks.

Stations are nodes, consecutive stops are edges. Stations without a line are
reported once each (TOP001/TOP003) and left out of the connectivity test, so
that an orphan station is not also reported as its own network.

A union-find over the lines answers "connected?" in microseconds; networkx,
whose import alone costs about 110 ms (a fifth of the budget of a whole
``mapkit validate maps/*.json`` process), is loaded only to take a split
network apart into its components.
"""

from __future__ import annotations

import itertools

from mapkit.checks.context import CheckContext


def _fmt_lines(ids: list[str]) -> str:
    return "{" + ",".join(ids) + "}"


def _connected(city) -> bool:
    """Whether every line reaches every other through shared stations."""
    parent = {ln.id: ln.id for ln in city.lines}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    first_line: dict[str, str] = {}
    for ln in city.lines:
        for stop in ln.stops:
            other = first_line.setdefault(stop, ln.id)
            parent[find(ln.id)] = find(other)
    return len({find(ln.id) for ln in city.lines}) == 1


def check(ctx: CheckContext) -> None:
    """TOP001, TOP002, TOP003."""
    city = ctx.city
    for st in city.stations:
        if city.lines_at(st.id):
            continue
        if st.special:
            ctx.emit(
                "TOP003",
                f"special station '{st.id}' is on no line: only a free ride could mark it, "
                "and a free ride never triggers a special station",
                ctx.station_ptr(st.id),
            )
        else:
            ctx.emit(
                "TOP001",
                f"station '{st.id}' is on no line: no line stops there",
                ctx.station_ptr(st.id),
            )

    if _connected(city):
        return
    import networkx as nx

    graph = nx.Graph()
    for ln in city.lines:
        graph.add_nodes_from(ln.stops)
        for path in ln.paths:
            graph.add_edges_from(itertools.pairwise(path))
        if ln.loop:
            graph.add_edge(ln.stops[-1], ln.stops[0])
    parts = list(nx.connected_components(graph))
    if len(parts) < 2:
        return
    line_parts = []
    for part in parts:
        ids = [ln.id for ln in city.lines if ln.stops[0] in part]
        line_parts.append(ids)
    line_parts.sort(key=lambda ids: city.line(ids[0]).index)
    shown = [_fmt_lines(ids) for ids in line_parts]
    listing = ", ".join(shown[:-1]) + " and " + shown[-1]
    smallest = min(line_parts, key=lambda ids: (len(ids), city.line(ids[0]).index))
    ctx.emit(
        "TOP002",
        f"{len(line_parts)} separate networks (by line): {listing}; "
        "no station links them, so interchanges never join them",
        ctx.line_ptr(smallest[0], "stops"),
    )
