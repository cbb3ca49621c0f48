"""The rule ids the games declare are exactly RULES.md's, and every one of them is tested."""

from __future__ import annotations

import re
from pathlib import Path

import solitaire_nb as sn

SECTION_PREFIX = {
    "chequers": "CH",
    "moving_left": "ML",
    "scotch": "SC",
    "bakers_dozen": "BD",
    "citadel": "CB",
    "beleaguered_castle": "CB",
}
ID_RE = re.compile(r"\[([A-Z]{2,3}-\d+)\]")


def test_declared_ids_are_exactly_those_of_rules_md(rules_md):
    in_rules = set(ID_RE.findall(rules_md))
    assert in_rules, "no rule ids found in RULES.md"
    declared = set()
    for name, definition in sn.GAMES.items():
        ids = set(definition.rules)
        declared |= ids
        prefix = SECTION_PREFIX[name]
        own = {i for i in in_rules if i.startswith(prefix + "-")}
        gen = {i for i in in_rules if i.startswith("GEN-")}
        assert ids == own | gen, name
    assert declared == in_rules


def test_every_rule_sentence_is_one_spanish_sentence():
    for definition in sn.GAMES.values():
        for rule_id, text in definition.rules.items():
            assert text.endswith("."), rule_id
            assert text[0].isupper(), rule_id
            assert len(text) < 400, rule_id


def test_every_declared_rule_id_has_a_test_that_names_it():
    sources = "\n".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_*.py"))
    marked = set(re.findall(r'mark\.rule\("([A-Z]+-\d+)"\)', sources))
    named = {m.upper().replace("_", "-") for m in re.findall(r"def test_([a-z]{2,3}_\d+)_", sources)}
    declared = {i for d in sn.GAMES.values() for i in d.rules}
    missing = sorted(declared - (marked | named))
    assert not missing, f"rule ids with no test: {missing}"
