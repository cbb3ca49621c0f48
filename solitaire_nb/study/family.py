"""A vectorised dealer for the family of one-deck open games (Scotch, Baker's Dozen, Citadel,
Beleaguered Castle and every game composed from their rules): many decks dealt at once.

The deal is read from `Rules` data only, never from a game's name, in the order
`games.layout` describes (``aces_out``, the rounds of ``deal_rows`` with
``deal_to_foundations``, ``kings_to_bottom``), then ``autoplay`` (CB-7): tops a foundation
accepts go home, piles left to right, pass after pass until a pass moves nothing (the engine's
order, which matters with alternating colours).

Foundations.  Every foundation of the family builds up from the Ace, all "same" (by suit) or
all "alt" (alternating colours), all starting with any Ace or each tied to a suit of its own.
Their state per deal is a small count table: how many foundations show each (suit or colour,
rank) top, plus, for "alt", how many are still empty.  A card goes home iff the entry it needs
is positive; two foundations with the same entry are interchangeable, so the counts follow the
engine exactly whichever foundation it picks (and with four foundations an Ace always fits).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.cards import SUIT_CODES
from ..core.checks import check_int
from ..core.rules import Rules
from .family_rules import MAX_COLUMNS, MIN_COLUMNS, check_family, family_problem  # noqa: F401 (re-exported)

NO_CARD = 255
"""Card id marking an empty slot in `FamilyDeal.cards`."""
RANKS = 13
CHUNK = 50_000  # decks dealt at once: bounds the temporary arrays (about 1 kB per deck)

_RED = np.array([s in "HD" for s in SUIT_CODES])
_EMPTY_KEY = 2 * 14  # "alt": the count of empty foundations
_ZERO_KEY = 4 * 14  # never counted: what an empty pile's "top" (NO_CARD) asks for
_KEYS = _ZERO_KEY + 1


def deal_targets(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """For each dealt position (the Aces left out with `aces_out`): the pile it is meant for and
    its slot in that pile (how many cards were meant for the pile before it)."""
    cards = 48 if rules.aces_out else 52
    rows = rules.deal_rows or ()
    piles: list[int] = []
    count = [0] * rules.tableau_count
    k = 0
    while len(piles) < cards:
        reach = rows[k] if k < len(rows) else rules.tableau_count
        for p in range(min(reach, cards - len(piles))):
            piles.append(p)
        k += 1
    slots = []
    for p in piles:
        slots.append(count[p])
        count[p] += 1
    return np.array(piles, dtype=np.intp), np.array(slots, dtype=np.intp)


def _keys(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The foundation count table: for each card id (and NO_CARD), the entry it needs (`src`)
    and the entry it makes (`dst`), and the table before the deal."""
    src = np.full(256, _ZERO_KEY, dtype=np.intp)
    dst = np.full(256, _ZERO_KEY, dtype=np.intp)
    start = np.zeros(_KEYS, dtype=np.int16)
    for cid in range(52):
        suit, rank = divmod(cid, RANKS)
        rank += 1
        if rules.foundations[0].suits == "same":
            src[cid], dst[cid] = suit * 14 + rank - 1, suit * 14 + rank
        else:
            colour = int(_RED[suit])
            src[cid] = _EMPTY_KEY if rank == 1 else (1 - colour) * 14 + rank - 1
            dst[cid] = colour * 14 + rank
    for suit in range(4):
        if rules.aces_out:
            start[dst[suit * RANKS]] += 1  # the Ace is on its foundation
        elif rules.foundations[0].suits == "same":
            start[suit * 14] = 1  # the suit's foundation is empty
    if not rules.aces_out and rules.foundations[0].suits == "alt":
        start[_EMPTY_KEY] = 4
    return src, dst, start


@dataclass(frozen=True)
class FamilyDeal:
    """Many deals of one game of the family, one row per deal (same order as the decks)."""

    rules: Rules
    cards: np.ndarray
    """(n, columns, slots) card ids of each pile, bottom first, as the deal left it (Kings
    moved); `NO_CARD` past the pile's end.  The autoplay only takes tops off, so a pile's cards
    at the start of play are its first `lengths[d, c]`."""
    after_deal: np.ndarray
    """(n, columns) pile lengths right after the deal, before the autoplay."""
    lengths: np.ndarray
    """(n, columns) pile lengths after the autoplay: the position play starts from."""
    home_in_deal: np.ndarray
    """Cards the deal sent to the foundations (CB-2), per deal."""
    autoplay_moved: np.ndarray
    """Cards the autoplay right after the deal sent home (CB-7), per deal."""

    @property
    def n(self) -> int:
        return len(self.home_in_deal)

    @property
    def columns(self) -> int:
        return self.rules.tableau_count

    @property
    def aces_out(self) -> int:
        """Cards on the foundations before the deal (the four Aces, or none)."""
        return 4 if self.rules.aces_out else 0

    @property
    def on_table_after_deal(self) -> np.ndarray:
        return _add_columns(self.after_deal)

    @property
    def on_table(self) -> np.ndarray:
        """Cards on the table once the autoplay stops, per deal."""
        return _add_columns(self.lengths)

    @property
    def foundation_cards(self) -> np.ndarray:
        """Cards on the foundations once the autoplay stops, per deal."""
        return (52 - self.on_table).astype(np.int16)

    @property
    def longest(self) -> np.ndarray:
        return self.lengths.max(axis=1)

    @property
    def shortest(self) -> np.ndarray:
        return self.lengths.min(axis=1)

    @property
    def empty_columns(self) -> np.ndarray:
        """Piles left empty once the autoplay stops, per deal."""
        return _add_columns((self.lengths == 0).view(np.uint8))

    @property
    def under_king(self) -> np.ndarray:
        """Cards with a King somewhere above them in their pile once the autoplay stops, per deal
        (Baker's Dozen moves the Kings to the bottom so that none is): in each pile, the cards
        below its highest King."""
        below = np.zeros(self.lengths.shape, dtype=np.uint8)  # cards under the highest King so far
        for j in range(1, self.cards.shape[2]):  # slot by slot: NumPy is slow along a short last axis
            king = (self.cards[:, :, j] % RANKS == RANKS - 1) & (self.lengths > j)
            np.maximum(below, king.view(np.uint8) * np.uint8(j), out=below)
        return _add_columns(below)

    def layout(self) -> Any:
        """The piles' lengths after the automatic moves as a `deal.Layout` (for `column_gap`)."""
        from .deal import Layout

        return Layout(self.lengths)

    def length_counts(self) -> np.ndarray:
        """(n, longest + 1): how many piles have 0, 1, 2, … cards once the autoplay stops."""
        top = int(self.lengths.max(initial=0))
        return np.stack([(self.lengths == k).sum(axis=1, dtype=np.int16) for k in range(top + 1)], axis=1)

    def piles(self, deal: int, after_autoplay: bool = True) -> dict[str, list[int]]:
        """The tableau of one deal as the engine names it: {"T0": [card ids, bottom first], …}."""
        lengths = self.lengths if after_autoplay else self.after_deal
        return {f"T{c}": self.cards[deal, c, : lengths[deal, c]].tolist() for c in range(self.columns)}


def _add_columns(values: np.ndarray) -> np.ndarray:
    """Per deal, the sum over the piles of an (n, columns) uint8 array, as int16 (adding the
    columns one by one: NumPy is slow along a short last axis)."""
    out = values[:, 0].astype(np.int16)
    for c in range(1, values.shape[1]):
        out += values[:, c]
    return out


def deal_family(decks: np.ndarray, rules: Rules, *, chunk: int = CHUNK) -> FamilyDeal:
    """Deal every deck (rows of 52 card ids, first dealt first) under `rules`, all at once.

    A Spanish ValueError if the rules are not a one-deck open game of the family or the decks
    are not rows of the 52 card ids."""
    chunk = check_int(chunk, "chunk", 1)
    return _deal(deck_rows(decks), check_family(rules), chunk)


def _deal(decks: np.ndarray, rules: Rules, chunk: int = CHUNK) -> FamilyDeal:
    """`deal_family` for decks and rules already checked (`study.draw_decks`' decks are)."""
    n = len(decks)
    piles, slots = deal_targets(rules)
    width = int(slots.max()) + 2  # slot 0 of every pile stays NO_CARD: the "top" of an empty pile
    cols = rules.tableau_count
    cards = np.full((n, cols, width), NO_CARD, dtype=np.uint8)
    after = np.zeros((n, cols), dtype=np.uint8)
    lengths = np.zeros((n, cols), dtype=np.uint8)
    home = np.zeros(n, dtype=np.uint8)
    moved = np.zeros(n, dtype=np.uint8)
    tables = _keys(rules)
    for lo in range(0, n, chunk):
        hi = min(n, lo + chunk)
        _deal_chunk(decks[lo:hi], rules, piles, slots, tables, cards[lo:hi], after[lo:hi],
                    lengths[lo:hi], home[lo:hi], moved[lo:hi])
    return FamilyDeal(rules, cards[:, :, 1:], after, lengths, home, moved)


def deck_rows(decks: object) -> np.ndarray:
    """Decks as an (n, 52) uint8 array, each row an order of the 52 card ids, else a Spanish
    ValueError."""
    try:
        raw = np.asarray(decks)
        ok = raw.ndim == 2 and raw.shape[1] == 52 and raw.dtype.kind in "iu"
        if ok and raw.size:
            ok = bool(((raw >= 0) & (raw < 52)).all())
            # 52 ids whose bits OR to 52 ones are the 52 ids once each
            bits = np.left_shift(np.uint64(1), raw.astype(np.uint64))
            ok = ok and bool((np.bitwise_or.reduce(bits, axis=1) == np.uint64((1 << 52) - 1)).all())
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError("Los repartos deben ser filas de 52 números de carta, cada fila los números 0 a 51 una vez")
    return raw.astype(np.uint8, copy=False)


def _pile_positions(piles: np.ndarray, slots: np.ndarray, cols: int, width: int) -> np.ndarray:
    """(cols, width) deal position meant for each slot of each pile; len(piles) (a NO_CARD
    column appended to the dealt cards) where the pile gets fewer cards."""
    out = np.full((cols, width), len(piles), dtype=np.intp)
    out[piles, slots] = np.arange(len(piles))
    return out


def _deal_chunk(decks, rules, piles, slots, tables, cards, after, lengths, home, moved) -> None:
    """Fill the output rows of one chunk of decks (the arrays are views into the results)."""
    n, cols, width = cards.shape
    src, dst, start = tables
    dealt = decks[decks % RANKS != 0].reshape(n, 48) if rules.aces_out else decks
    if not rules.deal_to_foundations:
        count = np.tile(start, n)  # (deal, entry) flattened: 1-D fancy indexing is the fast kind
    elif rules.foundations[0].suits == "same":
        sent, count = _home_by_suit(dealt, rules.aces_out)
    else:
        sent, count = _home_in_order(dealt, src, dst, start)
    if rules.deal_to_foundations:
        home[:] = sent.sum(axis=1)
        dealt = np.where(sent, np.uint8(NO_CARD), dealt)
    padded = np.concatenate([dealt, np.full((n, 1), NO_CARD, dtype=np.uint8)], axis=1)
    grid = padded[:, _pile_positions(piles, slots, cols, width - 1)]  # (n, cols, slots) as meant
    if rules.deal_to_foundations or rules.kings_to_bottom:
        after[:] = _close_up(grid, rules.kings_to_bottom, cards)
    else:
        cards[:, :, 1:] = grid
        after[:] = np.bincount(piles, minlength=cols)
    lengths[:] = after
    if rules.autoplay:
        moved[:] = _autoplay(cards, lengths, count, src, dst)


def _home_by_suit(dealt: np.ndarray, aces_out: bool) -> tuple[np.ndarray, np.ndarray]:
    """CB-2 with foundations by suit, with no loop over the deal: a card goes home iff the
    ranks from its suit's first one to it come in increasing order (the study's argument, see
    `study.exact`).  Returns which dealt cards went and the foundations' count table."""
    n, m = dealt.shape
    rows = np.arange(n, dtype=np.intp)[:, None] * 52
    flat = (rows + dealt).ravel()
    pos = np.full(n * 52, -1, dtype=np.int8)  # the Aces out come before everything
    pos[flat] = np.tile(np.arange(m, dtype=np.int8), n)
    by_suit = pos.reshape(n, 4, RANKS)
    first = 1 if aces_out else 0
    home_by_id = np.zeros((n, 4, RANKS), dtype=bool)
    home_by_id[:, :, first] = True  # the first card a foundation needs always goes
    np.logical_and.accumulate(
        by_suit[:, :, first + 1 :] > by_suit[:, :, first:-1], axis=2, out=home_by_id[:, :, first + 1 :]
    )
    top = home_by_id.sum(axis=2) + first  # each suit's top rank (0: its foundation is empty)
    count = np.zeros(n * _KEYS, dtype=np.int16)
    count[(np.arange(n)[:, None] * _KEYS + np.arange(4) * 14 + top).ravel()] = 1
    return home_by_id.ravel()[flat].reshape(n, m), count


def _home_in_order(dealt: np.ndarray, src, dst, start) -> tuple[np.ndarray, np.ndarray]:
    """CB-2 for any foundations: card by card in deal order, each seeing the ones before it."""
    n, m = dealt.shape
    count = np.tile(start, n)
    base = np.arange(n, dtype=np.intp) * _KEYS
    need = (base[:, None] + src[dealt]).T.copy()  # one contiguous row per deal position
    make = (base[:, None] + dst[dealt]).T.copy()
    sent = np.zeros((m, n), dtype=bool)
    for i in range(m):  # explicit get and set: several times faster than ``count[idx] -= ok``
        have = count[need[i]]
        ok = have > 0
        sent[i] = ok
        count[need[i]] = have - ok
        count[make[i]] = count[make[i]] + ok
    return sent.T, count


def _running(mask: np.ndarray) -> np.ndarray:
    """Running count of a slot-major (slots, n, cols) mask along its first axis, as int8."""
    out = np.empty(mask.shape, dtype=np.int8)
    out[0] = mask[0]
    for j in range(1, len(mask)):
        np.add(out[j - 1], mask[j], out=out[j])
    return out


def _close_up(grid: np.ndarray, kings_to_bottom: bool, cards: np.ndarray) -> np.ndarray:
    """Write `grid`'s piles into `cards` (after its NO_CARD slot 0) without the holes the deal
    left and, with `kings_to_bottom`, with the Kings at the bottom, the order otherwise kept
    (a stable partition); return the piles' lengths.  One dense scatter: a hole "goes" to
    slot 0, which stays NO_CARD.

    The work is done slot-major, (slots, n, cols): NumPy is slow along a short last axis."""
    slots = np.ascontiguousarray(np.moveaxis(grid, 2, 0))
    present = slots != NO_CARD
    if kings_to_bottom:
        king = present & (slots % RANKS == RANKS - 1)
        below = _running(king)
        others = _running(present & ~king)
        others += below[-1]  # the other cards go above all the pile's Kings
        dest = np.where(king, below, others)
    else:
        dest = _running(present)
    lengths = dest[-1].copy() if not kings_to_bottom else others[-1].copy()
    dest[~present] = 0
    n, cols, width = cards.shape
    start = (np.arange(n * cols, dtype=np.intp) * width).reshape(n, cols)
    cards.reshape(-1)[start + dest] = slots
    return lengths.view(np.uint8)


def _autoplay(cards: np.ndarray, lengths: np.ndarray, count: np.ndarray, src, dst) -> np.ndarray:
    """CB-7 on every deal at once, in the engine's order: passes over the piles left to right,
    each pile's top going home if a foundation takes it, until a pass moves nothing.  Updates
    `lengths` and `count`; returns the cards moved per deal.

    Within a pass each pile is looked at once and only its own move changes its top, so the
    tops are read once per pass; the foundations' counts change pile after pile."""
    n, cols, width = cards.shape
    flat_cards, flat_len = cards.reshape(-1), lengths.reshape(-1)
    moved = np.zeros(n, dtype=np.uint8)
    active = np.arange(n, dtype=np.intp)
    while active.size:
        at_len = (active * cols)[:, None] + np.arange(cols)
        length = flat_len[at_len]
        tops = flat_cards[at_len * width + length]  # (active, cols); NO_CARD for an empty pile
        at_key = active * _KEYS
        went = np.zeros((active.size, cols), dtype=bool)
        for c in range(cols):
            need = at_key + src[tops[:, c]]
            have = count[need]
            ok = have > 0
            if not ok.any():
                continue
            went[:, c] = ok
            count[need] = have - ok
            make = at_key[ok] + dst[tops[ok, c]]
            count[make] = count[make] + 1
        flat_len[at_len] = length - went
        moved[active] += went.sum(axis=1, dtype=np.uint8)
        active = active[went.any(axis=1)]
    return moved
