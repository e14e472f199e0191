"""The one call to networkx's maximum-weight matching, shared by the arena and the Swiss.

The systems build the graph (which pairs are allowed, and how good each is) and this
module only asks networkx (Edmonds' blossom algorithm) for the best set of pairs.

>>> best_pairs([(1, 2, 5), (2, 3, 9), (3, 4, 5)])
[(1, 2), (3, 4)]
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx


def best_pairs(edges: Iterable[tuple[int, int, int]]) -> list[tuple[int, int]]:
    """The pairs of a maximum-cardinality matching of greatest total weight over
    ``edges`` (``(a, b, weight)``, weight an integer, larger better), each pair as
    ``(smaller, larger)``, sorted.

    Cardinality comes first: as many pairs as the edges allow, and among those the
    heaviest, so a weight only ever chooses between full pairings. Raises nothing; players
    the edges cannot pair are simply absent.
    """
    graph: nx.Graph[int] = nx.Graph()
    graph.add_weighted_edges_from(edges)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(a, b), max(a, b)) for a, b in matched)
