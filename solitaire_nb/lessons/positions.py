"""The positions and deals the exercises ask about, and the answers the engine gives on them.

Each position is a function returning a new `Game`, so that an exercise (and the board that
plays it) always starts from the same place.  Where an exercise's answer is a number or a set
of cards particular to its position, the helper here computes it with the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cards import CARDS, Card
from ..core.texts import capitalize, joined
from ..engine import Game, new_game


def chequers_bases() -> Game:
    """Chequers, exercise 2: both heart foundations started, one going up and one going down."""
    up = ["AH", "2H", "3H", "4H", "5H", "6H"]
    down = ["KH", "QH", "JH", "TH", "9H", "8H", "7H"]
    return Game.from_position("chequers", {"F0": up, "F4": down, "T0": ["5S"], "R": ["JD", "3C"]})


def chequers_reserva() -> Game:
    """Chequers, exercise 3: no 7 or 9 of clubs is in sight, so the reserve's 8 of clubs reaches the
    tableau only by filling a hole.  Four moves are legal, all among the hearts from 3 to 6; only
    the 3 onto the 4 keeps a hole possible (the 6 it uncovers then goes onto the 5); each of the
    other three leaves the position where no pile can be emptied."""
    return Game.from_position(
        "chequers",
        {"T0": ["QH", "4H"], "T1": ["JH", "8H"], "T2": ["6H", "3H"], "T3": ["7C", "QH", "5H"], "T4": ["7S"],
         "R": ["6D", "8C"]},  # fmt: skip
    )


def moving_left_secuencia() -> Game:
    """Moving Left, exercise 2: part of a run in the Tableau 3 fits on the Jack of spades."""
    return Game.from_position(
        "moving_left",
        {"T0": ["JS"], "T1": ["2D", "KH"], "T2": ["4S", "QC", "JD", "TH", "9C", "8H"], "T3": ["9D"]},
        face_down={"T1": 1, "T2": 1},
    )


def moving_left_hueco() -> Game:
    """Moving Left, exercise 3: uncover the Tableau 3's face-down card; its King-headed run needs a
    hole, which the 7 of hearts leaves when it goes onto the 8 of clubs. Tableaux 5-10 each hold a
    face-down card under one that has nowhere to go, so no other pile can be emptied."""
    fillers = {"T4": ["5H", "2S"], "T5": ["6D", "9S"], "T6": ["9H", "QD"], "T7": ["2H", "5C"], "T8": ["JC", "3S"],
               "T9": ["4D", "7S"]}  # fmt: skip
    return Game.from_position(
        "moving_left",
        {"T0": ["7H"], "T1": ["8C"], "T2": ["2C", "KD", "QC", "JH"], "T3": ["3H", "TS"], **fillers, "S": ["4C"],
         "W": ["6S"]},  # fmt: skip
        face_down={"T2": 1, "T3": 1, **dict.fromkeys(fillers, 1)},
    )


def scotch_reto() -> Game:
    """Scotch, exercise 3: ten cards to win; sending the 3 of spades home at once loses (it is
    the only card the 2 of spades can wait on while the 4 of hearts is freed)."""
    return Game.from_position(
        "scotch",
        {"F0": ["AC", "2D"], "T0": ["4H", "3D", "2S"], "T1": ["4C"], "T2": ["3S"], "T3": ["AH", "6D", "5C"]},
    )


def bakers_dozen_reto() -> Game:
    """Baker's Dozen, exercise 3: eight cards to win; the 3 of clubs on the 4 of hearts buries
    the 2 of clubs under a card that waits for it, and the game is lost."""
    return Game.from_position(
        "bakers_dozen",
        {"F0": ["AH"], "F1": ["AC"], "T0": ["5H", "4C"], "T1": ["3H", "3C"], "T2": ["5C", "2H"], "T3": ["2C", "4H"]},
    )


def citadel_rescate() -> Game:
    """Citadel, exercise 3: the 7 of diamonds lies under the 9 of hearts, and no tableau top
    takes the 9 and there is no hole; taking the 10 of spades back from its foundation onto the
    Jack of diamonds gives the 9 a place, and the autoplay then sends the 7 home."""
    return Game.from_position(
        "citadel",
        {
            "F0": ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"],
            "F1": ["AH"],
            "F2": ["AD", "2D", "3D", "4D", "5D", "6D"],
            "F3": ["AC"],
            "T0": ["7D", "9H"],
            "T1": ["JD"],
            "T2": ["KD"],
            "T3": ["KC"],
            "T4": ["3H"],
            "T5": ["5H"],
            "T6": ["7C"],
            "T7": ["7H"],
        },
    )


def citadel_libera() -> Game:
    """Citadel, exercise 4: the 6 of hearts is on top but its base waits for the 5, under the 9 of
    clubs; the one move of the 9 (onto the 10 of diamonds) uncovers the 5, and the autoplay sends
    the 5 and the 6 home.  Five other moves are legal, moving the 6 onto the 7 of clubs among them."""
    return Game.from_position(
        "citadel",
        {
            "F0": ["AS"],
            "F1": ["AH", "2H", "3H", "4H"],
            "F2": ["AD"],
            "F3": ["AC"],
            "T0": ["6H"],
            "T1": ["7C"],
            "T2": ["5H", "9C"],
            "T3": ["TD"],
            "T4": ["KS"],
            "T5": ["QH"],
            "T6": ["JS"],
            "T7": ["KD"],
        },
    )


CITADEL_CLUBS = ("2C", "4C", "3C", "5C", "6C")
"""Citadel, exercise 2: the order in which the clubs from 2 to 6 are dealt."""


def citadel_deck(clubs: Sequence[str] = CITADEL_CLUBS) -> list[str]:
    """A deck (first dealt first) in which `clubs` come in that order, the other clubs after them
    and every other card before, in new-deck order."""
    first = [c.code for c in CARDS if c.suit != "C"]
    rest = [c.code for c in CARDS if c.suit == "C" and c.code not in clubs]
    return first + list(clubs) + rest


def clubs_home_cards() -> list[str]:
    """The clubs `citadel_deck()` sends home during Citadel's deal (the engine deals it)."""
    report = new_game("citadel", deck=citadel_deck(), autoplay=False).deal_report
    assert report is not None
    return [c.code for c in report.to_foundations if c.suit == "C"]


def clubs_home_in_deal() -> int:
    """How many clubs `citadel_deck()` sends home during Citadel's deal."""
    return len(clubs_home_cards())


def clubs_home_why() -> str:
    """Why `clubs_home_in_deal` is what it is, for a right answer: which clubs went home and which
    waited (the engine's deal report)."""
    report = new_game("citadel", deck=citadel_deck(), autoplay=False).deal_report
    assert report is not None
    went = [c for c in report.to_foundations if c.suit == "C"]
    stayed = [Card.parse(code) for code in CITADEL_CLUBS if Card.parse(code) not in went]
    went_names, stayed_names = _and([c.articulo for c in went]), _and([c.articulo for c in stayed])
    return (f"Van {went_names}: cuando sale cada uno, su base ya tiene el trébol anterior. Cuando salen "
            f"{stayed_names}, no lo tiene: durante el reparto no van a la base y se quedan en su pila.")


def _and(names: Sequence[str]) -> str:
    return joined(names)


def on_tableau(g: Game, code: str) -> bool:
    card = Card.parse(code)
    return any(card in g.piles[p] for p in g.pile_ids if p.startswith("T"))


def on_foundation(g: Game, code: str) -> bool:
    card = Card.parse(code)
    return any(card in g.piles[p] for p in g.pile_ids if p.startswith("F"))


def hearts_home() -> list[str]:
    """The hearts that may still go to a foundation in `chequers_bases` (the engine decides)."""
    out = []
    for code in (c.code for c in CARDS if c.suit == "H"):
        g = chequers_bases()
        g = Game.from_position("chequers", {**g.position()["piles"], "T1": [code]})
        if any(g.can_move("T1", f) for f in g.pile_ids if f.startswith("F")):
            out.append(code)
    return out


def why_not_home(card: Card) -> str | None:
    if card.suit != "H":
        return "Solo se pregunta por las cartas de corazones."
    g = chequers_bases()
    g = Game.from_position("chequers", {**g.position()["piles"], "T1": [card.code]})
    # The base whose rule the card really breaks: an Ace or a King would need a second heart
    # base of its kind (Bases 2 and 6 are empty); the others are already passed by Base 1
    # (up to the 6) or Base 5 (down to the 7).
    target = {1: "F1", 13: "F5"}.get(card.rank, "F0" if card.rank < 6 else "F4")
    return g.why_not("T1", target, fits=False)


def run_onto_js() -> int:
    g = moving_left_secuencia()
    counts = [m.n_cards for m in g.legal_moves() if m.src == "T2" and m.dst == "T0"]
    return counts[0] if counts else 0


def run_onto_js_cards() -> list[str]:
    """The cards `run_onto_js` counts: the run that moves from the Tableau 3 onto the Jack."""
    return [c.code for c in moving_left_secuencia().piles["T2"][-run_onto_js():]] if run_onto_js() else []


def run_onto_js_why() -> str:
    """Why `run_onto_js` is what it is, for a right answer: the cards that move, named."""
    g = moving_left_secuencia()
    moved = g.piles["T2"][-run_onto_js():]
    above = [c.articulo for c in moved[1:]]
    return (f"{capitalize(moved[0].articulo)} encaja sobre {g.piles['T0'][-1].articulo}, y con {'ella' if moved[0].rank > 10 else 'él'} "
            f"van {'las cartas' if len(above) > 1 else 'la carta'} que tiene encima: {_and(above)}.")


def citadel_needed(game: str = "citadel") -> Game:
    """Notebook 07's position, in Citadel or in Beleaguered Castle: the 2 of hearts lies under the
    4 of diamonds, whose only place would be the 5 of spades, under the 7 of clubs.  The one move
    (the 7 onto the 8 of hearts) uncovers the 5; Citadel's automatic play sends it home at once,
    and the 4 has nowhere left to go (Kings and Jacks fill the other columns); Beleaguered Castle
    keeps it, and the 2 of hearts goes home.  The 2 of diamonds and the 2 of clubs, under two
    Kings, would fit their foundations too: which card the automatic play lifts is seen by
    playing, not by looking for the one card that fits a foundation."""
    return Game.from_position(game, {
        "F0": ["AS", "2S", "3S", "4S"], "F1": ["AH"], "F2": ["AD"], "F3": ["AC"],
        "T0": ["2H", "4D"], "T1": ["JC", "5S", "7C"], "T2": ["8H"],
        "T3": ["2D", "KS"], "T4": ["2C", "KH"], "T5": ["KD"], "T6": ["KC"], "T7": ["JD"],
    })


def lifted_after_first_move() -> list[str]:
    """The cards Citadel's automatic play sends home after the only move of `citadel_needed`."""
    g = citadel_needed()
    before = {c for p in g.pile_ids if p.startswith("F") for c in g.piles[p]}
    (move,) = g.legal_moves()  # the position has one move: the question is about it
    g.move(move)
    return sorted(c.code for p in g.pile_ids if p.startswith("F") for c in g.piles[p] if c not in before)
