"""Roads (scoreboards) [O]: bead plate, Big Road, derived roads, Ask Banker / Ask Player.

The exact rules are restated in ``docs/roads.md`` (the roads of [O]); this module is their one copy.
A :class:`RoadBoard` is fed one :class:`RoadResult` at a time and updates every road in
constant work per hand: it keeps the Big Road's logical-column lengths and each grid's
occupancy as it goes and never rebuilds. It does no I/O; :mod:`punto.roads_render` draws it.

Columns and rows count from 0 here (docs/roads.md's rules count them from 1).

The worked example of the roads' rules (B B P P P B P B B):

>>> from dataclasses import astuple
>>> board = RoadBoard.replay(parse_results("BBPPPBPBB"))
>>> board.column_lengths
(2, 3, 1, 1, 2)
>>> board.big_eye_boy.marks, board.small_road.marks, board.cockroach_pig.marks
('RBBBRB', 'BBB', 'BR')
>>> [(c.col, c.row) for c in board.big_eye_boy.cells]
[(0, 0), (1, 0), (1, 1), (1, 2), (2, 0), (3, 0)]
>>> [c.letter if c else None for c in astuple(board.ask(Winner.BANKER))]
['R', 'R', 'R']
>>> [c.letter if c else None for c in astuple(board.ask(Winner.PLAYER))]
['B', 'B', 'B']
"""

from __future__ import annotations

import enum
from array import array
from collections.abc import Iterable
from dataclasses import KW_ONLY, dataclass

from punto.errors import RoadError
from punto.outcome import Outcome, Winner

__all__ = [
    "DEFAULT_HEIGHT",
    "AskRoads",
    "BeadCell",
    "BigRoadCell",
    "Colour",
    "DerivedCell",
    "DerivedRoad",
    "RoadBoard",
    "RoadKind",
    "RoadResult",
    "RoadStats",
    "RoadStreak",
    "RoadUpdate",
    "format_results",
    "parse_results",
]

DEFAULT_HEIGHT = 6
"""Rows of every road grid unless the board is told otherwise ([O]: a 6-row grid)."""

_WINNER_CODES = {"B": Winner.BANKER, "P": Winner.PLAYER, "T": Winner.TIE}
_CODE_OF_WINNER = {winner: code for code, winner in _WINNER_CODES.items()}
_WORDS = {Winner.BANKER: "Banker win", Winner.PLAYER: "Player win", Winner.TIE: "tie"}
_RESULTS_SYNTAX = (
    "expected B, P or T, each optionally followed by b (Banker pair) and/or p (Player pair)"
)


class Colour(enum.Enum):
    """A derived road's mark: red (the Big Road is orderly) or blue (choppy) [O]."""

    RED = "red"
    BLUE = "blue"

    @property
    def letter(self) -> str:
        """``R`` or ``B``, as in the ``marks`` strings.

        >>> Colour.RED.letter, Colour.BLUE.letter
        ('R', 'B')
        """
        return "R" if self is Colour.RED else "B"


class RoadKind(enum.Enum):
    """The three derived roads; the value is the road's key in ``punto roads --json``."""

    BIG_EYE_BOY = "big_eye_boy"
    """大眼仔, compares with the column 1 back (k = 1)."""
    SMALL_ROAD = "small_road"
    """小路, compares with the column 2 back (k = 2)."""
    COCKROACH_PIG = "cockroach_pig"
    """曱甴路 / 小强路, compares with the column 3 back (k = 3)."""

    @property
    def k(self) -> int:
        """How many Big Road columns back the road compares with.

        >>> [kind.k for kind in RoadKind]
        [1, 2, 3]
        """
        return _K[self]

    @property
    def title(self) -> str:
        """The road's English name.

        >>> RoadKind.COCKROACH_PIG.title
        'Cockroach Pig'
        """
        return self.value.replace("_", " ").title()


_K = {RoadKind.BIG_EYE_BOY: 1, RoadKind.SMALL_ROAD: 2, RoadKind.COCKROACH_PIG: 3}


@dataclass(frozen=True, slots=True)
class RoadResult:
    """One hand as the roads see it: the winner, the pairs, the natural and the totals.

    Totals are optional (``punto roads`` input has none); when given they must be 0-9 and
    agree with the winner, and a natural needs a total of 8 or 9.

    >>> RoadResult(Winner.BANKER, banker_pair=True).code
    'Bb'
    >>> RoadResult(Winner.PLAYER, player_total=3, banker_total=5)
    Traceback (most recent call last):
    ...
    punto.errors.RoadError: totals Player 3, Banker 5 make a Banker win, not a Player win
    """

    winner: Winner
    _: KW_ONLY
    banker_pair: bool = False
    player_pair: bool = False
    natural: bool = False
    player_total: int | None = None
    banker_total: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.winner, Winner):
            raise RoadError(f"a road result needs a Winner, not {self.winner!r}")
        for name in ("banker_pair", "player_pair", "natural"):
            flag = getattr(self, name)
            if not isinstance(flag, bool):
                raise RoadError(f"{name} must be True or False, not {flag!r}")
        for side, total in (("Player", self.player_total), ("Banker", self.banker_total)):
            if total is None:
                continue
            if isinstance(total, bool) or not isinstance(total, int) or not 0 <= total <= 9:
                raise RoadError(f"{side} total {total!r} is not a baccarat total (0 to 9)")
        p, b = self.player_total, self.banker_total
        if p is None or b is None:
            return
        actual = Winner.PLAYER if p > b else Winner.BANKER if b > p else Winner.TIE
        if actual is not self.winner:
            raise RoadError(
                f"totals Player {p}, Banker {b} make a {_WORDS[actual]}, "
                f"not a {_WORDS[self.winner]}"
            )
        if self.natural and max(p, b) < 8:
            raise RoadError(f"a natural needs a total of 8 or 9, not Player {p} and Banker {b}")

    @classmethod
    def from_outcome(cls, outcome: Outcome) -> RoadResult:
        """The road result of a finished coup.

        >>> from punto.cards import parse_cards
        >>> RoadResult.from_outcome(Outcome.from_hands(parse_cards("9S KH"), parse_cards("8D 8C")))
        RoadResult(winner=<Winner.PLAYER: 'player'>, banker_pair=True, player_pair=False, \
natural=True, player_total=9, banker_total=6)
        """
        return cls(
            outcome.winner,
            banker_pair=outcome.banker_pair,
            player_pair=outcome.player_pair,
            natural=outcome.natural,
            player_total=outcome.player_total,
            banker_total=outcome.banker_total,
        )

    @property
    def code(self) -> str:
        """The hand in ``punto roads`` notation: ``B``, ``P`` or ``T``, then ``b`` and/or ``p``."""
        return (
            _CODE_OF_WINNER[self.winner]
            + ("b" if self.banker_pair else "")
            + ("p" if self.player_pair else "")
        )

    @property
    def winning_total(self) -> int | None:
        """The total shown inside a bead: the winner's (the common total on a tie), if known."""
        return self.player_total if self.winner is Winner.PLAYER else self.banker_total


def parse_results(text: str) -> tuple[RoadResult, ...]:
    """Read ``punto roads`` notation: one ``B``, ``P`` or ``T`` a hand, each optionally
    followed by ``b`` (Banker pair) and/or ``p`` (Player pair). Whitespace between hands is
    ignored.

    >>> [r.code for r in parse_results("BBpPT Bbp")]
    ['B', 'Bp', 'P', 'T', 'Bbp']
    >>> parse_results("BXP")
    Traceback (most recent call last):
    ...
    punto.errors.RoadError: bad result character 'X' at position 2: expected B, P or T, each \
optionally followed by b (Banker pair) and/or p (Player pair)
    """
    results: list[RoadResult] = []
    winner: Winner | None = None
    banker_pair = player_pair = False
    for index, char in enumerate(text, start=1):
        if char in "bp":
            if winner is None:
                raise RoadError(
                    f"pair flag {char!r} at position {index} does not follow a B, P or T"
                )
            if banker_pair if char == "b" else player_pair:
                raise RoadError(f"pair flag {char!r} at position {index} is given twice")
            banker_pair = banker_pair or char == "b"
            player_pair = player_pair or char == "p"
            continue
        if winner is not None:
            results.append(RoadResult(winner, banker_pair=banker_pair, player_pair=player_pair))
            winner = None
        if char in _WINNER_CODES:
            winner = _WINNER_CODES[char]
            banker_pair = player_pair = False
        elif not char.isspace():
            raise RoadError(f"bad result character {char!r} at position {index}: {_RESULTS_SYNTAX}")
    if winner is not None:
        results.append(RoadResult(winner, banker_pair=banker_pair, player_pair=player_pair))
    return tuple(results)


def format_results(results: Iterable[RoadResult]) -> str:
    """The inverse of :func:`parse_results` (totals and naturals are not written).

    >>> format_results(parse_results("BbPpT"))
    'BbPpT'
    """
    return "".join(r.code for r in results)


@dataclass(frozen=True, slots=True)
class BeadCell:
    """One hand on the bead plate: filled top to bottom in columns of the grid height [O]."""

    col: int
    row: int
    result: RoadResult


@dataclass(frozen=True, slots=True)
class BigRoadCell:
    """One Banker or Player result on the Big Road [O].

    ``ties`` counts the ties that followed it (the first cell also carries the ties that
    came before any Banker or Player result); ``col``/``row`` is its place on the grid,
    ``logical_col``/``logical_row`` its place in the streaks (unbounded column lengths).
    """

    col: int
    row: int
    result: RoadResult
    ties: int
    logical_col: int
    logical_row: int

    @property
    def winner(self) -> Winner:
        """Banker or Player: the winner of the hand that placed the cell."""
        return self.result.winner


@dataclass(frozen=True, slots=True)
class DerivedCell:
    """One mark of a derived road: its colour, grid place and place in its own streaks."""

    col: int
    row: int
    colour: Colour
    logical_col: int
    logical_row: int


@dataclass(frozen=True, slots=True)
class AskRoads:
    """Ask Banker / Ask Player [O]: the colour each derived road would add if the next hand
    were the one asked, or ``None`` if that road would not have started yet."""

    big_eye_boy: Colour | None
    small_road: Colour | None
    cockroach_pig: Colour | None

    def colour(self, kind: RoadKind) -> Colour | None:
        """The answer for one road.

        >>> AskRoads(Colour.RED, None, None).colour(RoadKind.BIG_EYE_BOY)
        <Colour.RED: 'red'>
        """
        answer: Colour | None = getattr(self, kind.value)
        return answer


@dataclass(frozen=True, slots=True)
class RoadStats:
    """The counts shown beside the roads [O]; ``hands`` is the hand number in the shoe."""

    hands: int
    banker: int
    player: int
    tie: int
    banker_pair: int
    player_pair: int
    natural: int


@dataclass(frozen=True, slots=True)
class RoadStreak:
    """What the end of the Big Road shows [O], for a lobby's "good road" alerts: the side
    of the current streak (``None`` before any Banker or Player result) and its ``length``
    (the last logical column; ties do not break it), and ``ping_pong``, how many hands the
    sides have alternated at the end (the trailing columns of one cell each; 0 when the
    current streak is longer than one).

    >>> RoadBoard.replay(parse_results("PBBBTB")).streak
    RoadStreak(side=<Winner.BANKER: 'banker'>, length=4, ping_pong=0)
    >>> RoadBoard.replay(parse_results("BBPBPB")).streak
    RoadStreak(side=<Winner.BANKER: 'banker'>, length=1, ping_pong=4)
    """

    side: Winner | None
    length: int
    ping_pong: int


@dataclass(frozen=True, slots=True)
class RoadUpdate:
    """What one hand changed, returned by :meth:`RoadBoard.add` (for incremental redraws).

    ``big_road`` is the cell placed, or for a tie the cell whose tie count went up (``None``
    for a tie before any Banker or Player result); a derived road's field is its new mark,
    or ``None`` if it added none.
    """

    hand: int
    bead: BeadCell
    big_road: BigRoadCell | None
    big_eye_boy: DerivedCell | None
    small_road: DerivedCell | None
    cockroach_pig: DerivedCell | None


class _StreakRoad:
    """Entries laid in streaks (logical columns) and on a grid of ``height`` rows with
    dragon tails, one entry at a time in constant work ([O], Big Road).

    An entry equal to the previous one (``key``) extends the streak, else starts a new one.
    A streak goes down while the next cell is inside the grid and empty, then turns right
    for good; a new streak starts at row 0 of the column after the previous streak's start,
    or further right past any tail lying on row 0. Each grid column is a bit mask of its
    occupied rows. Tails never collide with later cells: a tail runs along the row where
    its streak turned, and every earlier tail crossing that column lies lower down.

    Places are kept as flat arrays of numbers, not as cell objects: a long board then
    costs a few bytes an entry and gives the garbage collector nothing to walk.
    """

    __slots__ = (
        "_columns",
        "_in_tail",
        "_start",
        "col",
        "cols",
        "height",
        "last",
        "lengths",
        "row",
        "rows",
    )

    def __init__(self, height: int) -> None:
        self.height = height
        self.lengths: list[int] = []  # of each logical column so far
        self.last: object = None  # the key of the current streak
        self.cols = array("l")  # grid place of every entry
        self.rows = array("l")
        self._columns: list[int] = []
        self._start = -1
        self._in_tail = False
        self.col = -1
        self.row = 0

    def __len__(self) -> int:
        return len(self.cols)

    def add(self, key: object) -> None:
        """Place the next entry: it is now at ``col``, ``row`` on the grid and at the end of
        the last logical column."""
        lengths = self.lengths
        if key is self.last:
            lengths[-1] += 1
            self._extend_streak()
        else:
            lengths.append(1)
            self.last = key
            self._start_streak()
        self.cols.append(self.col)
        self.rows.append(self.row)

    def logical_places(self) -> list[tuple[int, int]]:
        """The logical column and row of every entry, from the column lengths."""
        return [(col, row) for col, length in enumerate(self.lengths) for row in range(length)]

    def _start_streak(self) -> None:
        columns = self._columns
        col = self._start + 1
        # Amortised constant: start columns only grow, so each row-0 tail cell is passed once.
        while col < len(columns) and columns[col] & 1:
            col += 1
        self._start = self.col = col
        self.row = 0
        self._in_tail = False
        if col == len(columns):
            columns.append(1)
        else:
            columns[col] |= 1

    def _extend_streak(self) -> None:
        columns = self._columns
        below = self.row + 1
        if not self._in_tail and below < self.height and not columns[self.col] >> below & 1:
            self.row = below
            columns[self.col] |= 1 << below
            return
        self._in_tail = True
        col = self.col = self.col + 1
        if col == len(columns):
            columns.append(1 << self.row)
        else:
            columns[col] |= 1 << self.row


def _derived_colour(lengths: list[int], k: int, col: int, row: int) -> Colour | None:
    """The mark road ``k`` adds for a Big Road entry at logical ``col``, ``row`` ([O]).

    Only the lengths of columns left of ``col`` are read: they are complete by then.
    """
    if col < k or (col == k and row == 0):
        return None  # before the road's start: column k+1 row 2, else column k+2 row 1
    if row == 0:
        return Colour.RED if lengths[col - 1] == lengths[col - 1 - k] else Colour.BLUE
    # Red if the column k back reaches this row, blue one past its end, red again beyond
    # (it had already stopped: "straight drop", 直落).
    return Colour.BLUE if row == lengths[col - k] else Colour.RED


class DerivedRoad:
    """A derived road (Big Eye Boy, Small Road or Cockroach Pig) and its own grid [O].

    Its marks form red and blue streaks laid on the grid like a Big Road, dragon tails
    included. :class:`RoadBoard` feeds it; read it through ``cells``, ``colours`` and
    ``marks``.
    """

    __slots__ = ("_colours", "_k", "_road", "kind")

    def __init__(self, kind: RoadKind, *, height: int) -> None:
        self.kind = kind
        self._k = kind.k
        self._road = _StreakRoad(height)
        self._colours: list[Colour] = []

    def __len__(self) -> int:
        return len(self._colours)

    @property
    def height(self) -> int:
        """Rows of the road's grid."""
        return self._road.height

    @property
    def cells(self) -> tuple[DerivedCell, ...]:
        """Every mark in the order added."""
        road = self._road
        places = zip(road.cols, road.rows, self._colours, road.logical_places(), strict=True)
        return tuple(
            DerivedCell(col, row, colour, logical_col, logical_row)
            for col, row, colour, (logical_col, logical_row) in places
        )

    @property
    def colours(self) -> tuple[Colour, ...]:
        """The colours in the order added."""
        return tuple(self._colours)

    @property
    def marks(self) -> str:
        """The colours as letters in the order added: ``R`` red, ``B`` blue."""
        return "".join(colour.letter for colour in self._colours)

    def _mark(self, big_lengths: list[int], col: int, row: int) -> DerivedCell | None:
        """Add the mark for a Big Road entry at logical ``col``, ``row``, if there is one."""
        colour = _derived_colour(big_lengths, self._k, col, row)
        if colour is None:
            return None
        road = self._road
        road.add(colour)
        self._colours.append(colour)
        return DerivedCell(road.col, road.row, colour, len(road.lengths) - 1, road.lengths[-1] - 1)


def _check_result(result: object) -> None:
    if not isinstance(result, RoadResult):
        raise RoadError(f"a road board is fed RoadResult values, not {result!r}")


class RoadBoard:
    """Every road of one shoe, fed one hand at a time [O].

    ``height`` is the number of rows of every grid (bead plate, Big Road, derived roads).

    >>> board = RoadBoard()
    >>> update = board.add(RoadResult(Winner.TIE))
    >>> update = board.add(RoadResult(Winner.BANKER, player_pair=True))
    >>> cell = board.big_road[0]
    >>> cell.winner, cell.ties, board.leading_ties
    (<Winner.BANKER: 'banker'>, 1, 1)
    >>> board.stats
    RoadStats(hands=2, banker=1, player=0, tie=1, banker_pair=0, player_pair=1, natural=0)
    """

    __slots__ = (
        "_banker",
        "_banker_pairs",
        "_big_hands",
        "_big_road",
        "_big_ties",
        "_derived",
        "_height",
        "_leading_ties",
        "_naturals",
        "_player_pairs",
        "_results",
    )

    def __init__(self, *, height: int = DEFAULT_HEIGHT) -> None:
        if isinstance(height, bool) or not isinstance(height, int) or height < 1:
            raise RoadError(
                f"road grid height must be a whole number of rows, 1 or more, not {height!r}"
            )
        self._height = height
        self._results: list[RoadResult] = []
        self._big_road = _StreakRoad(height)
        self._big_hands = array("l")  # index in _results of the hand that placed each cell
        self._big_ties = array("l")
        self._leading_ties = 0
        self._derived = tuple(DerivedRoad(kind, height=height) for kind in RoadKind)
        self._banker = 0  # Player and Tie counts follow from it and the Big Road's length
        self._banker_pairs = self._player_pairs = self._naturals = 0

    @classmethod
    def replay(cls, results: Iterable[RoadResult], *, height: int = DEFAULT_HEIGHT) -> RoadBoard:
        """A board fed a shoe's history in order (the same as adding each in turn)."""
        board = cls(height=height)
        board.extend(results)
        return board

    def extend(self, results: Iterable[RoadResult]) -> None:
        """Add several hands in order; if one is not a :class:`RoadResult`, none is added.

        >>> board = RoadBoard()
        >>> board.extend([RoadResult(Winner.BANKER), "P"])
        Traceback (most recent call last):
        ...
        punto.errors.RoadError: a road board is fed RoadResult values, not 'P'
        >>> len(board)
        0
        """
        batch = tuple(results)
        for result in batch:
            _check_result(result)
        for result in batch:
            self.add(result)

    def add(self, result: RoadResult) -> RoadUpdate:
        """Add the next hand to every road, in constant work; return what changed."""
        _check_result(result)
        results = self._results
        index = len(results)
        results.append(result)
        bead = BeadCell(index // self._height, index % self._height, result)
        self._banker_pairs += result.banker_pair
        self._player_pairs += result.player_pair
        self._naturals += result.natural
        winner = result.winner
        if winner is Winner.TIE:
            return RoadUpdate(index + 1, bead, self._add_tie(), None, None, None)
        self._banker += winner is Winner.BANKER
        big_road = self._big_road
        big_road.add(winner)
        self._big_hands.append(index)
        self._big_ties.append(self._leading_ties if len(big_road) == 1 else 0)
        lengths = big_road.lengths
        col, row = len(lengths) - 1, lengths[-1] - 1
        big_eye_boy, small_road, cockroach_pig = self._derived
        return RoadUpdate(
            index + 1,
            bead,
            self._big_road_cell(len(big_road) - 1, col, row),
            big_eye_boy._mark(lengths, col, row),
            small_road._mark(lengths, col, row),
            cockroach_pig._mark(lengths, col, row),
        )

    def _add_tie(self) -> BigRoadCell | None:
        if not self._big_road:
            self._leading_ties += 1
            return None
        self._big_ties[-1] += 1
        lengths = self._big_road.lengths
        return self._big_road_cell(len(self._big_road) - 1, len(lengths) - 1, lengths[-1] - 1)

    def _big_road_cell(self, index: int, logical_col: int, logical_row: int) -> BigRoadCell:
        road = self._big_road
        return BigRoadCell(
            road.cols[index],
            road.rows[index],
            self._results[self._big_hands[index]],
            self._big_ties[index],
            logical_col,
            logical_row,
        )

    def ask(self, winner: Winner) -> AskRoads:
        """Ask Banker / Ask Player [O]: what each derived road would add if the next hand
        were ``winner`` (Banker or Player). Constant work; the board is not changed.

        >>> board = RoadBoard.replay(parse_results("BBPPPBPBB"))
        >>> board.ask(Winner.BANKER)
        AskRoads(big_eye_boy=<Colour.RED: 'red'>, small_road=<Colour.RED: 'red'>, \
cockroach_pig=<Colour.RED: 'red'>)
        """
        if winner is Winner.TIE or not isinstance(winner, Winner):
            raise RoadError(f"the roads can only be asked about Banker or Player, not {winner!r}")
        lengths = self._big_road.lengths
        if not lengths:
            return AskRoads(None, None, None)
        if winner is self._big_road.last:
            col, row = len(lengths) - 1, lengths[-1]
        else:
            col, row = len(lengths), 0
        big_eye_boy, small_road, cockroach_pig = (
            _derived_colour(lengths, kind.k, col, row) for kind in RoadKind
        )
        return AskRoads(big_eye_boy, small_road, cockroach_pig)

    def __len__(self) -> int:
        return len(self._results)

    @property
    def height(self) -> int:
        """Rows of every grid."""
        return self._height

    @property
    def results(self) -> tuple[RoadResult, ...]:
        """Every hand added, in order (the shoe's history, as :meth:`replay` takes it)."""
        return tuple(self._results)

    @property
    def bead_plate(self) -> tuple[BeadCell, ...]:
        """One cell a hand, ties included, top to bottom in columns of ``height`` [O]."""
        height = self._height
        return tuple(
            BeadCell(index // height, index % height, result)
            for index, result in enumerate(self._results)
        )

    @property
    def big_road(self) -> tuple[BigRoadCell, ...]:
        """The Big Road's cells in the order placed (ties are counts on cells) [O]."""
        places = self._big_road.logical_places()
        return tuple(self._big_road_cell(i, col, row) for i, (col, row) in enumerate(places))

    @property
    def leading_ties(self) -> int:
        """Ties before the first Banker or Player result (also counted on the first cell)."""
        return self._leading_ties

    @property
    def column_lengths(self) -> tuple[int, ...]:
        """The length of each logical column (streak) of the Big Road."""
        return tuple(self._big_road.lengths)

    @property
    def big_eye_boy(self) -> DerivedRoad:
        """Big Eye Boy (大眼仔, k = 1)."""
        return self._derived[0]

    @property
    def small_road(self) -> DerivedRoad:
        """Small Road (小路, k = 2)."""
        return self._derived[1]

    @property
    def cockroach_pig(self) -> DerivedRoad:
        """Cockroach Pig (曱甴路 / 小强路, k = 3)."""
        return self._derived[2]

    @property
    def derived_roads(self) -> tuple[DerivedRoad, DerivedRoad, DerivedRoad]:
        """Big Eye Boy, Small Road and Cockroach Pig, in that order."""
        big_eye_boy, small_road, cockroach_pig = self._derived
        return big_eye_boy, small_road, cockroach_pig

    @property
    def streak(self) -> RoadStreak:
        """The Big Road's current streak and its ping-pong run (:class:`RoadStreak`)."""
        lengths = self._big_road.lengths
        if not lengths:
            return RoadStreak(None, 0, 0)
        singles = 0
        for length in reversed(lengths):  # walks back over the ping-pong run only
            if length != 1:
                break
            singles += 1
        last = self._big_road.last
        side = Winner.BANKER if last is Winner.BANKER else Winner.PLAYER
        return RoadStreak(side, lengths[-1], singles)

    @property
    def stats(self) -> RoadStats:
        """Counts of Banker, Player, Tie, pairs, naturals and the hand number [O]."""
        hands, placed = len(self._results), len(self._big_road)
        return RoadStats(
            hands=hands,
            banker=self._banker,
            player=placed - self._banker,
            tie=hands - placed,
            banker_pair=self._banker_pairs,
            player_pair=self._player_pairs,
            natural=self._naturals,
        )
