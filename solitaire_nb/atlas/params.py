"""Which study a study file's header describes: the player's fields (`player_params`), a file
made by another player refused (`check_same_player`), and two headers that name games playing
alike (`same_game`: ``custom("citadel")`` resumes a Citadel study)."""

from __future__ import annotations

from pathlib import Path

from ..core.checks import shown


def player_params(player: str | None) -> dict:
    """What a study file's header says about the player (nothing for the solver)."""
    if player is None:
        return {}
    from ..players.player import PLAYER_VERSION

    return {"player": player, "player_version": PLAYER_VERSION}


def check_same_player(path: Path, old: dict, player: str | None) -> None:
    """Refuse the study file at `path`, whose header is `old`, if another player made it (or
    the solver, or the other way round)."""
    mine = player_params(player)
    theirs = {k: old[k] for k in ("player", "player_version") if k in old}
    if theirs != mine:
        def who(p: dict) -> str:
            return f"del jugador {shown(p['player'])} (versión {shown(p.get('player_version'))})" if p else "del resolvedor"

        raise ValueError(
            f"El archivo {shown(str(path), raw=True)} es de otro estudio: {who(theirs)}; este es {who(mine)}. "
            "Usa otro archivo."
        )


_GAME_KEYS = ("game", "variant", "spec")


def same_game(old: dict, new: dict) -> bool:
    """Whether two study headers that differ only in how they name the game name games that
    play alike: the same base game and equal rules (``custom("citadel")`` is Citadel)."""
    if any(old.get(k) != v for k, v in new.items() if k not in _GAME_KEYS):
        return False
    if any(k not in _GAME_KEYS and k != "version" and k not in new for k in old):
        return False
    try:
        a, b = (_header_game(h) for h in (old, new))
    except (ValueError, TypeError, AttributeError, KeyError):
        return False
    return a == b


def _header_game(header: dict) -> tuple:
    """(base game, rules) of the game a study header names."""
    from ..engine import game_definition
    from ..games.custom import from_spec

    spec = header.get("spec")
    definition = from_spec(spec) if spec is not None else game_definition(header["game"])
    variant = header.get("variant")
    rules = definition.configure(definition.resolve_variant(variant if isinstance(variant, dict) else {}))
    base = definition.spec["like"] if definition.spec is not None else definition.name
    return base, definition.decks, rules
