"""Compose a game of the one-deck open family from the rules of Scotch, Baker's Dozen,
Citadel or Beleaguered Castle: `custom(like, **changes)` returns a `GameDef`.

Every change sets one field of the `like` game's `Rules` (with its default variant flags) and
nothing else, so changes combine freely; `custom`'s docstring lists them.  The deal is the
data-driven one (`games.layout.deal_layout`).

The result has a readable `name` ("beleaguered_castle+columns=10+empty=king": the like game,
then each real change in `custom`'s order), a Spanish `display_name`, a JSON `spec` (only the
real changes) and no variant flags.  Its rules are the like game's sentences with each rule a
change touches rewritten from the composed rules under an id ``LAB-<aspect>`` (`changed_rules`),
and its `rule_ids` point each refusal at one of them, so a refused move always cites a rule of
the composed game.  The engine takes the result (or its name) wherever it takes a game's name;
`to_json` writes the spec and `load_game` rebuilds it (`from_spec`).  With no change,
`custom(x)` deals and plays exactly like `x` and keeps x's name.
"""

from __future__ import annotations

import dataclasses
import functools
import sys
import types
import weakref
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from ..core.checks import check_int, shown
from ..core.rules import GameDef, RuleIds, Rules
from . import GAMES
from . import custom_texts as words
from .layout import deal_layout

LIKES = ("scotch", "bakers_dozen", "citadel", "beleaguered_castle")
MIN_COLUMNS, MAX_COLUMNS = 4, 20
CHOICES: dict[str, tuple[str, ...]] = {
    "build": ("down", "updown"),
    "suits": ("any", "same", "alt", "different"),
    "empty": ("any", "king", "none"),
    "foundation": ("same", "alt"),
}
FLAGS = ("runs", "aces_out", "kings_to_bottom", "deal_to_foundations", "autoplay", "takeback")
CHANGES = (
    "columns", "build", "suits", "runs", "empty", "foundation",
    "aces_out", "kings_to_bottom", "deal_to_foundations", "autoplay", "takeback",
)  # fmt: skip
"""Every change, in the order names, display names and specs list them."""

# The rule aspects a change touches: each gets a sentence written from the composed rules.
ASPECTS_OF: dict[str, tuple[str, ...]] = {
    "columns": ("deal",),
    "build": ("tableau",),
    "suits": ("tableau",),
    "runs": ("tableau", "empty"),
    "empty": ("empty", "takeback"),
    "foundation": ("foundation",),
    "aces_out": ("deal", "foundation"),
    "kings_to_bottom": ("deal",),
    "deal_to_foundations": ("deal_to_foundations",),
    "autoplay": ("autoplay",),
    "takeback": ("takeback",),
}
ASPECTS = ("deal", "deal_to_foundations", "foundation", "tableau", "empty", "takeback", "autoplay")

# The like game's rule ids (docs/reglas.md) each aspect's sentence replaces.
_CASTLE_IDS = {
    "deal": ("CB-1",),
    "deal_to_foundations": ("CB-2", "CB-8"),
    "foundation": ("CB-3",),
    "tableau": ("CB-4",),
    "empty": ("CB-5",),
    "takeback": ("CB-6",),
    "autoplay": ("CB-7", "CB-8"),
}
BASE_RULE_IDS: dict[str, dict[str, tuple[str, ...]]] = {
    "scotch": {
        "deal": ("SC-1",),
        "foundation": ("SC-2",),
        "tableau": ("SC-3",),
        "empty": ("SC-4",),
        "takeback": ("SC-5",),
    },
    "bakers_dozen": {
        "deal": ("BD-1", "BD-2"),
        "foundation": ("BD-3",),
        "tableau": ("BD-4",),
        "empty": ("BD-5",),
        "takeback": ("BD-6",),
    },
    "citadel": _CASTLE_IDS,
    "beleaguered_castle": _CASTLE_IDS,
}

# Which refusals (the engine's `RuleIds` fields) cite each aspect's sentence.
REFUSALS_OF = {
    "tableau": ("tableau", "one_card", "runs"),
    "empty": ("empty_none", "empty_king"),
    "foundation": ("foundation",),
    "takeback": ("takeback",),
}

CACHE_SIZE = 256
"""How many composed games `custom` keeps (least recently used dropped first): a notebook
uses a handful, and the whole space of changes (about 209,000 games, some 4 KB each) would
not fit.  A game dropped from the cache but still held elsewhere is found again through
`_LIVE`, so ``custom(x, **c) is custom(x, **c)`` whenever the first is alive."""
_CACHE: OrderedDict[str, GameDef] = OrderedDict()
_LIVE: weakref.WeakValueDictionary[str, GameDef] = weakref.WeakValueDictionary()


def custom(like: str | GameDef, /, **changes: Any) -> GameDef:
    """A game composed from `like`'s rules with `changes`, e.g.
    ``custom("beleaguered_castle", columns=10, empty="king")``.  A bad name or value is a
    Spanish ValueError naming the parameter and its allowed values.  The changes, in the
    order the name lists them:

    - ``columns`` (4–20): `tableau_count`.  With the like game's own count the game keeps its
      deal pattern (`deal_rows`, Scotch's 17, 17, 18); with another count the cards go row by row.
    - ``build`` ("down"/"updown"), ``suits`` ("any"/"same"/"alt"/"different"), ``runs``,
      ``empty`` ("any"/"king"/"none"): the `TableauRule`.
    - ``foundation`` ("same"/"alt"): how the four foundations build up from the Ace.
    - ``aces_out``: the Aces start on the foundations.  Without it the Aces are dealt like the
      other cards, and every foundation then starts with any Ace (the castles' foundations are
      tied to a suit only because their Aces are put there before the deal).
    - ``kings_to_bottom``, ``deal_to_foundations``, ``autoplay``, ``takeback``: the `Rules`
      flags (``true``/``false`` in the name).
    """
    base = _like(like)
    real = _real_changes(base, changes)
    name = base.name + "".join(f"+{k}={_value_text(v)}" for k, v in real.items())
    game = _CACHE.get(name) or _LIVE.get(name)
    if game is None:
        game = _LIVE[name] = _compose(base, real, name)
    _CACHE[name] = game
    _CACHE.move_to_end(name)
    if len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return game


def from_spec(spec: Mapping[str, Any]) -> GameDef:
    """The game a `GameDef.spec` describes ({"like": …, "changes": {…}})."""
    if not isinstance(spec, Mapping) or set(spec) != {"like", "changes"} or not isinstance(spec["changes"], Mapping):
        raise ValueError(
            'La descripción de un juego compuesto debe ser {"like": juego, "changes": {cambio: valor}}, '
            f"no {shown(spec)}"
        )
    changes = spec["changes"]
    if not all(isinstance(k, str) for k in changes):
        raise ValueError(f"Los cambios de un juego compuesto se nombran con texto, no {shown(dict(changes))}")
    return custom(spec["like"], **changes)


def custom_from_name(name: str) -> GameDef:
    """The game a composed name describes ("beleaguered_castle+columns=10+empty=king")."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"El nombre de un juego debe ser un texto, no {shown(name)}")
    like, *parts = name.split("+")
    changes: dict[str, Any] = {}
    for part in parts:
        key, eq, text = part.partition("=")
        if not eq or not key or not text:
            raise ValueError(
                f"No se entiende {shown(part)} en el nombre {shown(name)}: cada cambio se escribe "
                "cambio=valor, como columns=10 o empty=king"
            )
        if key in changes:
            raise ValueError(f"El cambio {shown(key)} aparece dos veces en el nombre {shown(name)}")
        changes[key] = _parse_value(text)
    return custom(like, **changes)


def changed_rules(definition: GameDef) -> dict[str, str]:
    """For a composed game, each change -> the sentence of the rule it changed (for the lab
    and for refusals); {} for a built-in game."""
    if definition.spec is None:
        return {}
    return {change: definition.rules[f"LAB-{ASPECTS_OF[change][0]}"] for change in definition.spec["changes"]}


def refusal_rule_ids(definition: GameDef) -> dict[str, str]:
    """The refusal kinds (`RuleIds` fields) whose rule a change replaced -> the new rule's id."""
    out = {}
    for aspect, kinds in REFUSALS_OF.items():
        if f"LAB-{aspect}" in definition.rules:
            out.update(dict.fromkeys(kinds, f"LAB-{aspect}"))
    return out


def composed_rules(like: str | GameDef, /, **changes: Any) -> Rules:
    """The `Rules` of `custom(like, **changes)`."""
    base = _like(like)
    return _rules(base, _real_changes(base, changes))


def current(rules: Rules) -> dict[str, Any]:
    """Every change's value in `rules` (the like game's defaults when `rules` are its own)."""
    return {
        "columns": rules.tableau_count,
        "build": rules.tableau.build,
        "suits": rules.tableau.suits,
        "runs": rules.tableau.runs,
        "empty": rules.tableau.empty,
        "foundation": rules.foundations[0].suits,
        "aces_out": rules.aces_out,
        "kings_to_bottom": rules.kings_to_bottom,
        "deal_to_foundations": rules.deal_to_foundations,
        "autoplay": rules.autoplay,
        "takeback": rules.takeback,
    }


# ---------------------------------------------------------------- checks


def _like(like: object) -> GameDef:
    if isinstance(like, GameDef) and like.spec is None and like.name in LIKES and GAMES[like.name] is like:
        return like
    if isinstance(like, str) and like in LIKES:
        return GAMES[like]
    raise ValueError(f"like debe ser uno de estos juegos: {', '.join(LIKES)}; no {shown(like)}")


def _real_changes(base: GameDef, changes: Mapping[str, Any]) -> dict[str, Any]:
    """The changes checked, in `CHANGES` order, without those equal to the like game's rule."""
    unknown = [k for k in changes if k not in CHANGES]
    if unknown:
        raise ValueError(f"custom no tiene el cambio {shown(unknown[0])} (cambios: {', '.join(CHANGES)})")
    have = current(base.rules_for())
    out = {}
    for key in CHANGES:
        if key not in changes:
            continue
        value = _checked(key, changes[key])
        if value != have[key]:
            out[key] = value
    return out


def _checked(key: str, value: Any) -> Any:
    if key == "columns":
        try:
            return check_int(value, "columns", MIN_COLUMNS, MAX_COLUMNS)
        except ValueError:  # say the range whatever the value was
            raise ValueError(
                f"columns debe ser un entero entre {MIN_COLUMNS} y {MAX_COLUMNS}, no {shown(value)}"
            ) from None
    if key in FLAGS:
        if not isinstance(value, bool):
            raise ValueError(f"{key} debe ser True o False, no {shown(value)}")
        return value
    allowed = CHOICES[key]
    if not isinstance(value, str) or value not in allowed:
        listed = ", ".join(repr(a) for a in allowed[:-1]) + f" o {allowed[-1]!r}"
        raise ValueError(f"{key} debe ser {listed}, no {shown(value)}")
    return value


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _parse_value(text: str) -> Any:
    if text in ("true", "false"):
        return text == "true"
    if text.isdigit() and text.isascii() and len(text) <= 9:  # longer: refused as text, never parsed
        return int(text)
    return text


# ---------------------------------------------------------------- composing


def _rules(base: GameDef, real: Mapping[str, Any]) -> Rules:
    r = base.rules_for()
    tableau = dataclasses.replace(r.tableau, **{k: real[k] for k in ("build", "suits", "runs", "empty") if k in real})
    aces_out = real.get("aces_out", r.aces_out)
    suits = real.get("foundation", r.foundations[0].suits)
    # A foundation stays tied to a suit only while that suit's Ace is put on it before the deal.
    foundations = tuple(
        dataclasses.replace(f, suits=suits, start=f.start if aces_out else "any") for f in r.foundations
    )
    fields: dict[str, Any] = {
        k: real[k] for k in ("kings_to_bottom", "deal_to_foundations", "autoplay", "takeback") if k in real
    }
    if "columns" in real:
        fields.update(tableau_count=real["columns"], deal_rows=None)
    return dataclasses.replace(r, tableau=tableau, foundations=foundations, aces_out=aces_out, **fields)


def _configured(rules: Rules, flags: Mapping[str, bool]) -> Rules:
    """A composed game's `configure`: it has no variant flags, its rules are fixed."""
    return rules


def _compose(base: GameDef, real: dict[str, Any], name: str) -> GameDef:
    rules = _rules(base, real)
    label = base.tableau_label
    phrases = [words.change_phrase(k, v, label) for k, v in real.items()]
    aspects = {a for k in real for a in ASPECTS_OF[k]}
    ids = BASE_RULE_IDS[base.name]
    dropped = {rid for a in aspects for rid in ids.get(a, ())}
    aspects |= {a for a, rids in ids.items() if dropped & set(rids)}  # a shared sentence goes: rewrite both
    sentences = {a: words.ASPECT_SENTENCES[a](rules, label) for a in ASPECTS if a in aspects}
    texts: dict[str, str] = {}
    for rid, text in base.rules.items():
        if rid not in dropped:
            texts[rid] = text
            continue
        for a, sentence in sentences.items():
            if rid in ids.get(a, ()) and f"LAB-{a}" not in texts:
                texts[f"LAB-{a}"] = sentence
    for a, sentence in sentences.items():
        texts.setdefault(f"LAB-{a}", sentence)
    touched = set(real)
    display_name = words.with_phrases(base.display_name, phrases)
    return dataclasses.replace(
        base,
        name=name,
        rule_ids=_rule_ids(base.rule_ids, texts, ids),
        display_name=display_name,
        variants={},
        configure=functools.partial(_configured, rules),
        deal=deal_layout,
        rules=texts,
        tableau_builds=words.tableau_builds(rules) if touched & {"build", "suits", "runs"} else base.tableau_builds,
        empty_pile=words.empty_pile(rules) if "empty" in touched else base.empty_pile,
        automatic=(
            words.automatic(rules)
            if touched & {"deal_to_foundations", "autoplay", "kings_to_bottom"}
            else base.automatic
        ),
        summary=f"Juego compuesto: {display_name}." if phrases else base.summary,
        spec={"like": base.name, "changes": dict(real)},
    )


def _rule_ids(base: RuleIds, texts: Mapping[str, str], ids: Mapping[str, tuple[str, ...]]) -> RuleIds:
    """The like game's refusal ids with each one whose rule a change rewrote pointing at the
    new sentence (``LAB-<aspect>``), so every refusal cites one of the composed game's rules."""
    lab = {f"LAB-{a}" for a in REFUSALS_OF if f"LAB-{a}" in texts}
    out: dict[str, str] = {}
    for field in dataclasses.fields(base):
        rid = getattr(base, field.name)
        aspect = next((a for a, kinds in REFUSALS_OF.items() if field.name in kinds), None)
        if aspect is not None and f"LAB-{aspect}" in lab:
            out[field.name] = f"LAB-{aspect}"
        elif rid not in texts:  # a rule a change dropped for a sentence of another aspect
            out[field.name] = next((f"LAB-{a}" for a, rids in ids.items() if rid in rids and f"LAB-{a}" in texts), rid)
    return dataclasses.replace(base, **out)


class _CallableModule(types.ModuleType):
    """This module, callable as `custom`: ``sn.custom("citadel", columns=10)`` composes a game
    while ``from solitaire_nb import custom`` still gives the module (its names, `LIKES`, …)."""

    def __call__(self, like: str | GameDef, /, **changes: Any) -> GameDef:
        return custom(like, **changes)


sys.modules[__name__].__class__ = _CallableModule
