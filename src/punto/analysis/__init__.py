"""Exact analysis: every coup a shoe can deal, enumerated, and what each bet is worth.

A :class:`Composition` is what a shoe holds (a count per rank). :func:`enumerate_coups`
counts, for that composition, every ordered way the coup's cards can come out, grouped
by the facts any bet may look at (:class:`~punto.bets.CoupFacts`): the totals, the
number of cards, and the pairs. Like the published combinatorial tables, a coup is
counted as an ordered draw of six cards (the cards a short coup leaves unused are
counted too), so a fresh 8-deck shoe has 416·415·414·413·412·411 ordered draws and
every count is an integer.

Bets are never restated here: each group of facts is classified once by
:func:`punto.bets.classify` and priced by the table's paytable, so
:func:`analyze` gives, for every bet the rules offer, the exact probability of each
payout class, the house edge, RTP, variance and hit frequency as
:class:`~fractions.Fraction`, with float views for display.

>>> from punto.bets import Bet
>>> from punto.rules import preset
>>> result = analyze(preset("macau"))
>>> result.total, result.outcomes.banker * result.total
(4998398275503360, Fraction(2292252566437888, 1))
>>> round(float(result.bets[Bet.BANKER].house_edge), 6)
0.010579

Two paths share one compiled kernel: the exact path (integer counts, ``Fraction``
results) and a fast float path (:func:`house_edges`) for tracking a shoe hand by hand
(:func:`track`).

A composition must hold at least six cards (:data:`MIN_CARDS`); a card removed that the
shoe does not hold raises :class:`~punto.errors.CardNotInShoeError`.

The package, a module per concept:

- :mod:`punto.analysis.cells` — the groups of coups no bet can tell apart;
- :mod:`punto.analysis.composition` — what a shoe holds;
- :mod:`punto.analysis.enumeration` — the compiled kernel and the tableau's lookup arrays;
- :mod:`punto.analysis.pricing` — bets priced by their paytables, the exact figures;
- :mod:`punto.analysis.tracking` — the effect of removal and a shoe tracked hand by hand;
- :mod:`punto.analysis.reference` — the plain pure-Python enumeration the kernel is
  checked against.
"""

from __future__ import annotations

from punto.analysis.cells import CELLS, cell_facts, cell_index
from punto.analysis.composition import MAX_RANK_COUNT, MIN_CARDS, Composition
from punto.analysis.enumeration import (
    Enumeration,
    draw_arrays,
    enumerate_coups,
    tableau_arrays,
)
from punto.analysis.pricing import (
    COUP_EVENTS,
    Analysis,
    BetAnalysis,
    BetTable,
    OutcomeProbabilities,
    PayoutClassResult,
    analyze,
    analyze_bet,
    bet_table,
    event_holds,
    event_probabilities,
    house_edges,
)
from punto.analysis.reference import reference_enumeration
from punto.analysis.tracking import (
    EffectOfRemoval,
    TrackPoint,
    effect_of_removal,
    track,
    track_events,
)

__all__ = [
    "CELLS",
    "COUP_EVENTS",
    "MAX_RANK_COUNT",
    "MIN_CARDS",
    "Analysis",
    "BetAnalysis",
    "BetTable",
    "Composition",
    "EffectOfRemoval",
    "Enumeration",
    "OutcomeProbabilities",
    "PayoutClassResult",
    "TrackPoint",
    "analyze",
    "analyze_bet",
    "bet_table",
    "cell_facts",
    "cell_index",
    "draw_arrays",
    "effect_of_removal",
    "enumerate_coups",
    "event_holds",
    "event_probabilities",
    "house_edges",
    "reference_enumeration",
    "tableau_arrays",
    "track",
    "track_events",
]
