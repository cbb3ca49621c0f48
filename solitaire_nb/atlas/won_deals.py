"""Deals the solver has decided, as the package ships them, and deals that can be won.

The atlas records (``data/atlas/*.csv``) are not in the wheel; ``data/won_deals.json`` is their
index (written by ``tools/won_deals.py``: a letter per deal, ``w`` won, ``l`` lost, ``u``
undecided, ``-`` not solved), and the rules lab's stored samples (``data/lab_samples.json``)
add the composed games notebook 08 shows.  On top of them:

- `stored_verdict` / `won_deals` / `nearest_won`: what the stored records say, nothing solved;
- `deal_verdict`: the stored verdict first, else a bounded solve (the same answer everywhere);
- `winnable_game`: «una partida con solución», a deal drawn from the won ones, or, for a game
  without stored wins (a composed one), found on the spot with a capped number of attempts.

A ``won`` verdict is proof (a winning line checked through the engine, or a player that won);
``lost`` comes only from a complete search; «sin decidir» is never counted as lost.
"""

from __future__ import annotations

import bisect
import functools
import json
import random
from pathlib import Path
from typing import Any, NamedTuple

from ..core.checks import SEED_MAX, check_int, integer, shown
from ..core.rules import GameDef
from ..engine import Game, game_definition, new_game

INDEX_FILE = "won_deals.json"
FORMAT = "solitaire_nb/veredictos_de_partidas/1"
LETTERS = {"won": "w", "lost": "l", "unknown": "u"}
_STATUS = {v: k for k, v in LETTERS.items()}

CHECK_STATES = 100_000
"""`deal_verdict`'s budget when nothing is stored (Citadel n.º 2026 is proved lost in 36.683)."""
ATTEMPT_STATES = 20_000
"""Budget of each deal `winnable_game` and `nearest_won` try on the spot (the lab's)."""
ATTEMPTS = 10
"""Deals `winnable_game` tries on the spot before saying it found none."""
RANDOM_MAX = 1_000_000
"""Deals drawn on the spot come from 1 … RANDOM_MAX, as «Nueva partida»'s random deals."""


class DealVerdict(NamedTuple):
    """A deal's verdict: ``status`` "won", "lost" or "unknown"; ``source`` "stored" (the atlas
    records or the lab's samples) or "solved" (a bounded solve just now)."""

    status: str
    source: str


class NoWinnableDeal(ValueError):
    """`winnable_game` tried its deals and proved none won (the message is Spanish)."""


def _key(definition: GameDef, variant: dict[str, bool]) -> tuple[str, str]:
    """The index key of a game and its full variant (defaults filled in by dealing deal 0)."""
    full = new_game(definition, seed=0, deck=None, **variant).variant
    return definition.name, json.dumps(dict(sorted(full.items())))


@functools.cache
def _index() -> dict[tuple[str, str], dict[int, str]]:
    """Every stored verdict: {(game, variant): {deal: status}} (empty if no file is there)."""
    data = Path(__file__).resolve().parent.parent / "data"
    out: dict[tuple[str, str], dict[int, str]] = {}
    path = data / INDEX_FILE
    if path.is_file():
        for e in json.loads(path.read_text(encoding="utf-8"))["entries"]:
            deals = out.setdefault((e["game"], json.dumps(dict(sorted(e["variant"].items())))), {})
            for k, letter in enumerate(e["verdicts"]):
                if letter in _STATUS:
                    deals[e["first"] + k] = _STATUS[letter]
    from .lab_sample import stored_samples

    for name, verdicts in stored_samples()["games"].items():
        try:
            key = _key(game_definition(name), {})
        except ValueError:
            continue
        deals = out.setdefault(key, {})
        for k, status in enumerate(verdicts, 1):
            if deals.get(k) in (None, "unknown"):
                deals[k] = status
    return out


@functools.cache
def _won_sorted(key: tuple[str, str]) -> tuple[int, ...]:
    return tuple(sorted(d for d, s in _index().get(key, {}).items() if s == "won"))


def _seed(seed: Any) -> int:
    n = integer(seed)
    if n is None or not 0 <= n <= SEED_MAX:
        raise ValueError(f"El número de partida debe ser un número entero entre 0 y {SEED_MAX}, no {shown(seed)}")
    return n


def stored_verdict(game: str | GameDef, seed: int, **variant: bool) -> str | None:
    """The stored verdict of deal `seed` ("won", "lost", "unknown"), None if none is stored."""
    definition = game_definition(game)
    return _index().get(_key(definition, variant), {}).get(_seed(seed))


def won_deals(game: str | GameDef, **variant: bool) -> tuple[int, ...]:
    """The deal numbers stored as won, in order (empty when the package stores none)."""
    return _won_sorted(_key(game_definition(game), variant))


def nearest_won(game: str | GameDef, seed: int, attempts: int = 6, **variant: bool) -> int | None:
    """The stored won deal nearest to `seed` (the lower one on a tie); when none is stored, the
    first of seed+1, seed−1, seed+2 … (up to `attempts` deals) a bounded solve proves won;
    None if that finds none either."""
    definition = game_definition(game)
    seed = _seed(seed)
    won = won_deals(definition, **variant)
    if won:
        i = bisect.bisect_left(won, seed)
        near = [d for d in won[max(i - 1, 0) : i + 1] if d != seed] or [d for d in won[i + 1 : i + 2]]
        return min(near, key=lambda d: (abs(d - seed), d)) if near else None
    from ..solver import solve

    for k in range(1, attempts + 1):
        candidate = seed + (k + 1) // 2 if k % 2 else seed - k // 2
        if 0 <= candidate <= SEED_MAX:
            g = new_game(definition, seed=candidate, deck=None, **variant)
            if solve(g, max_states=ATTEMPT_STATES).status == "won":
                return candidate
    return None


def deal_verdict(game: str | GameDef, seed: int, max_states: int = CHECK_STATES, **variant: bool) -> DealVerdict:
    """Deal `seed`'s verdict: the stored one when it is decided, else the solver's within
    `max_states` states (the same on every machine)."""
    definition = game_definition(game)
    stored = stored_verdict(definition, seed, **variant)
    if stored in ("won", "lost"):
        return DealVerdict(stored, "stored")
    from ..solver import solve

    max_states = check_int(max_states, "max_states", 1, SEED_MAX)
    result = solve(new_game(definition, seed=_seed(seed), deck=None, **variant), max_states=max_states)
    return DealVerdict(result.status, "solved")


def known_won(game: Game) -> bool:
    """Whether `game` starts from a numbered deal stored as won (its moves play no part)."""
    if game.seed is None or game.is_practice:
        return False
    try:
        return stored_verdict(game.definition, game.seed, **game.variant) == "won"
    except ValueError:
        return False


def winnable_game(
    game: str | GameDef,
    *,
    attempts: int = ATTEMPTS,
    max_states: int = ATTEMPT_STATES,
    rng: random.Random | int | None = None,
    **variant: bool,
) -> Game:
    """«Una partida con solución»: a new game of `game` whose deal the solver has proved won.

    The deal is drawn from the stored won deals of that game and variant; when none is stored
    (a composed game the package has not solved), up to `attempts` random deals are solved on
    the spot, each within `max_states` states, and the first proved won is dealt.  `rng` (a
    `random.Random` or a number) makes the choice repeatable.  If no attempt proves a win,
    `NoWinnableDeal` (a ValueError) says so in Spanish."""
    definition = game_definition(game)
    attempts = check_int(attempts, "attempts", 1, 1000)
    max_states = check_int(max_states, "max_states", 1, SEED_MAX)
    draw = rng if isinstance(rng, random.Random) else random.Random(rng)
    won = won_deals(definition, **variant)
    if won:
        return new_game(definition, seed=draw.choice(won), deck=None, **variant)
    from ..solver import solve

    for _ in range(attempts):
        g = new_game(definition, seed=draw.randint(1, RANDOM_MAX), deck=None, **variant)
        if solve(g.copy(), max_states=max_states).status == "won":
            return g
    word = "partida" if attempts == 1 else "partidas"
    raise NoWinnableDeal(
        f"No se ha encontrado ninguna partida con solución de {definition.display_name}: el resolvedor "
        f"ha probado {attempts} {word} al azar y no ha demostrado que ninguna se pueda ganar. "
        "Prueba otra vez o elige un número de partida."
    )
