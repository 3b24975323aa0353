"""Table configurations: what an administrator sets for a table, and the demo set.

A :class:`TableConfig` names a rules preset (the starting point), the administrator's
overrides of any rules setting (rules document keys, :mod:`punto.rules_document`) and
their version, a kind, where the cards come from and the limits;
:meth:`TableConfig.settings` turns it into the pure table's
:class:`~punto.table.TableSettings`.

>>> config = TableConfig(id="macau-1", name="Macau 1", rules="macau")
>>> config.settings(betting_seconds=None).rules.name
'macau'
>>> [t.id for t in DEMO_TABLES][:3]
['macau-1', 'nocomm-1', 'tiger-1']
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from punto.codec import tier_from_json, tier_json
from punto.errors import ProtocolError
from punto.limits import LimitTier
from punto.rules import Rules
from punto.rules_document import compose, rules_to_document
from punto.server.tables.video import TableVideo
from punto.table.kinds import Dealing, TableKind, TableSettings
from punto.table.squeeze import Reading

__all__ = [
    "DEMO_TABLES",
    "NAME_LANGUAGES",
    "NAME_MAX",
    "TableConfig",
    "names_from_json",
    "tiers_from_json",
    "tiers_to_json",
]

_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
NAME_LANGUAGES: tuple[str, ...] = ("en", "zh", "zh-Hant")
"""The languages a table may have a display name in (the web client's languages)."""
NAME_MAX = 100
"""The longest display name (characters), the ``server_tables.name`` column's width."""


def _check_name(name: object, what: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ProtocolError(f"{what} is a non-empty text, not {name!r}")
    if len(name) > NAME_MAX:
        raise ProtocolError(f"{what} is at most {NAME_MAX} characters, not {len(name)}")
    if _CONTROL.search(name):
        raise ProtocolError(f"{what} may not hold control characters: {name!r}")
    return name


def names_from_json(data: object) -> dict[str, str]:
    """Display names per language from an API body or stored JSON text
    (:class:`ProtocolError` if malformed).

    >>> names_from_json('{"zh": "澳门"}')
    {'zh': '澳门'}
    """
    if data is None:
        return {}
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except ValueError:
            raise ProtocolError("table names must be an object of language: name") from None
    if not isinstance(data, Mapping):
        raise ProtocolError(f"table names must be an object of language: name, not {data!r}")
    return {str(lang): name for lang, name in data.items()}


@dataclass(frozen=True, kw_only=True, slots=True)
class TableConfig:
    """A table as the administrator configured it."""

    id: str
    name: str
    rules: str
    kind: TableKind = TableKind.NORMAL
    dealing: Dealing = Dealing.RNG
    reading: Reading | None = None
    seats: int = 7
    betting_seconds: float = 15.0
    vip_min_balance: int = 0
    limits: tuple[LimitTier, ...] | None = None
    enabled: bool = True
    overrides: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    """Rules settings that differ from the preset (rules document keys and values)."""
    rules_version: int = 1
    """Counts the changes of the rules (preset or overrides); a change applies from the
    next shoe."""
    video: TableVideo = dataclasses.field(default_factory=TableVideo)
    """The table's live video (WHEP, HLS, other qualities), or none (:class:`TableVideo`)."""
    names: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """The display name per language (``en``, ``zh``, ``zh-Hant``); ``name`` is the default
    (English) one, shown where a language has none."""

    def __post_init__(self) -> None:
        if not _ID.match(self.id):
            raise ProtocolError(
                f"a table id is 1-40 characters of a-z 0-9 _ -, starting with a letter or "
                f"digit, not {self.id!r}"
            )
        object.__setattr__(self, "overrides", MappingProxyType(dict(self.overrides)))
        _check_name(self.name, "a table name")
        if not isinstance(self.names, Mapping):
            raise ProtocolError(
                f"table names must be an object of language: name, not {self.names!r}"
            )
        for lang, name in self.names.items():
            if lang not in NAME_LANGUAGES:
                raise ProtocolError(
                    f"a table name's language is one of {', '.join(NAME_LANGUAGES)}, not {lang!r}"
                )
            _check_name(name, f"the table's {lang} name")
        object.__setattr__(self, "names", MappingProxyType(dict(sorted(self.names.items()))))
        if isinstance(self.rules_version, bool) or not isinstance(self.rules_version, int):
            raise ProtocolError(f"a rules version is a whole number, not {self.rules_version!r}")
        self.settings(betting_seconds=None)  # validates the rest (RulesError)

    def table_rules(self) -> Rules:
        """The rules this configuration deals: the preset, its overrides, the limits."""
        rules = compose(self.rules, self.overrides)
        if self.limits is not None:
            rules = rules.replace(limit_tiers=self.limits)
        return rules

    def betting_time(self, override: float | None = None) -> float:
        """The table's betting time: a server's ``override`` (tests, load runs), else its
        rules' (a speed preset's), else its own.

        >>> TableConfig(id="s1", name="S", rules="speed").betting_time()
        10.0
        """
        return override or self.table_rules().betting_seconds or self.betting_seconds

    def settings(self, *, betting_seconds: float | None) -> TableSettings:
        """The pure table's settings (``betting_seconds``: a server's override of
        :meth:`betting_time`)."""
        rules = self.table_rules()
        return TableSettings(
            table_id=self.id,
            rules=rules,
            kind=self.kind,
            dealing=self.dealing,
            reading=self.reading,
            seats=self.seats,
            betting_seconds=self.betting_time(betting_seconds),
            vip_min_balance=self.vip_min_balance,
            rules_version=self.rules_version,
        )

    def replace(self, **changes: object) -> TableConfig:
        """A copy with some settings changed, validated again."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableConfig:
        """A configuration from :meth:`to_json`'s keys (an API body or a stored row, whose
        ``limits`` may be JSON text); :class:`~punto.errors.PuntoError` if it is invalid.

        >>> TableConfig.from_json({"id": "t1", "name": "T", "rules": "macau"}).kind.value
        'normal'
        """
        reading = data.get("reading")
        overrides = data.get("overrides") or {}
        if isinstance(overrides, str):
            overrides = json.loads(overrides)
        if not isinstance(overrides, Mapping):
            raise ProtocolError(f"rules overrides must be an object, not {overrides!r}")
        return cls(
            id=str(data["id"]),
            name=str(data["name"]),
            rules=str(data["rules"]),
            kind=TableKind(data.get("kind", TableKind.NORMAL.value)),
            dealing=Dealing(data.get("dealing", Dealing.RNG.value)),
            reading=None if reading is None else Reading(reading),
            seats=int(data.get("seats", 7)),
            betting_seconds=float(data.get("betting_seconds", 15.0)),
            vip_min_balance=int(data.get("vip_min_balance", 0)),
            limits=tiers_from_json(data.get("limits")),
            enabled=bool(data.get("enabled", True)),
            overrides=overrides,
            rules_version=int(data.get("rules_version") or 1),
            video=video_from_json(data),
            names=names_from_json(data.get("names")),
        )

    def to_json(self) -> dict[str, Any]:
        """The table config object of the admin API."""
        return {
            "id": self.id,
            "name": self.name,
            "rules": self.rules,
            "kind": self.kind.value,
            "dealing": self.dealing.value,
            "reading": None if self.reading is None else self.reading.value,
            "seats": self.seats,
            "betting_seconds": self.betting_time(),
            "vip_min_balance": self.vip_min_balance,
            "limits": None if self.limits is None else [tier_json(t) for t in self.limits],
            "enabled": self.enabled,
            "overrides": dict(self.overrides),
            "rules_version": self.rules_version,
            "video": self.video.to_json(),
            "names": dict(self.names),
            "document": rules_to_document(self.table_rules()),
        }


def video_from_json(data: Mapping[str, Any]) -> TableVideo:
    """A table's video from an API body (``video``; the older ``stream_url`` is its HLS
    URL) or a stored row (``whep_url``, ``hls_url``, ``video_qualities`` as JSON text,
    ``still_url``)."""
    if "video" in data:
        return TableVideo.from_json(data["video"])
    qualities = data.get("video_qualities") or []
    if isinstance(qualities, str):
        qualities = json.loads(qualities)
    hls = data.get("hls_url") or data.get("stream_url")
    return TableVideo.from_json(
        {
            "whep_url": data.get("whep_url"),
            "hls_url": hls,
            "qualities": qualities,
            "still_url": data.get("still_url"),
        }
    )


def tiers_to_json(tiers: Sequence[LimitTier] | None) -> str | None:
    """Limit tiers as stored text."""
    return None if tiers is None else json.dumps([tier_json(t) for t in tiers])


def tiers_from_json(data: str | Sequence[Mapping[str, Any]] | None) -> tuple[LimitTier, ...] | None:
    """Limit tiers from stored text or API data (:class:`ProtocolError` if malformed)."""
    if data is None:
        return None
    items = json.loads(data) if isinstance(data, str) else data
    try:
        return tuple(tier_from_json(t) for t in items)
    except (KeyError, TypeError, ValueError) as exc:
        raise ProtocolError(f"bad limit tiers: {exc}") from None


DEMO_TABLES: tuple[TableConfig, ...] = (
    TableConfig(id="macau-1", name="Macau", rules="macau", names={"zh": "澳门", "zh-Hant": "澳門"}),
    TableConfig(
        id="nocomm-1",
        name="No Commission",
        rules="no_commission",
        names={"zh": "免佣", "zh-Hant": "免佣"},
    ),
    TableConfig(
        id="tiger-1",
        name="Live Tiger (RNG)",
        rules="live_tiger",
        names={"zh": "老虎百家乐（电子）", "zh-Hant": "老虎百家樂（電子）"},
    ),
    TableConfig(
        id="online-1",
        name="Online 8 Decks",
        rules="online_8deck",
        names={"zh": "线上八副牌", "zh-Hant": "線上八副牌"},
    ),
    TableConfig(
        id="spb-1",
        name="Super Punto Banco",
        rules="super_punto_banco",
        reading=Reading.BUTTON,
        names={"zh": "超级百家乐", "zh-Hant": "超級百家樂"},
    ),
    TableConfig(
        id="vip-1",
        name="VIP Salon",
        rules="online_8deck",
        kind=TableKind.VIP,
        names={"zh": "贵宾厅", "zh-Hant": "貴賓廳"},
    ),
    TableConfig(
        id="bid-1",
        name="Bid Squeeze",
        rules="macau",
        kind=TableKind.BID_SQUEEZE,
        vip_min_balance=500_000,
        names={"zh": "竞咪厅", "zh-Hant": "競咪廳"},
    ),
    TableConfig(
        id="live-1",
        name="Live Dealer",
        rules="live_tiger",
        dealing=Dealing.LIVE,
        names={"zh": "真人荷官", "zh-Hant": "真人荷官"},
    ),
    TableConfig(
        id="ez-rng",
        name="EZ Baccarat",
        rules="ez",
        overrides={"close_below_edge": 0.0},  # [EZ-C] no side bet dealt at a player's edge
        names={"zh": "龙七熊猫百家乐", "zh-Hant": "龍七熊貓百家樂"},
    ),
    TableConfig(
        id="speed-rng",
        name="Speed Baccarat",
        rules="speed",
        names={"zh": "极速百家乐", "zh-Hant": "極速百家樂"},
    ),
    TableConfig(
        id="lightning-rng",
        name="Lightning Baccarat",
        rules="lightning",  # [LB] lightning cards drawn before each deal, a 20% fee
        names={"zh": "闪电百家乐", "zh-Hant": "閃電百家樂"},
    ),
)
"""The tables ``make run`` opens on first start."""
