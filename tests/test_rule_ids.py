"""The rule ids the games declare are exactly those of the rules document (docs/reglas.md),
that document is the one tools/write_rules_doc.py generates, and every rule id is tested."""

from __future__ import annotations

import re
import subprocess
import sys
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


def test_declared_ids_are_exactly_those_of_the_rules_document(rules_md):
    in_rules = set(ID_RE.findall(rules_md))
    assert in_rules, "no rule ids found in docs/reglas.md"
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


REPO = Path(__file__).resolve().parents[1]


def test_rules_document_is_the_generated_one():
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import write_rules_doc
    finally:
        sys.path.pop(0)
    committed = (REPO / "docs" / "reglas.md").read_text(encoding="utf-8")
    assert committed == write_rules_doc.document(), "run: python tools/write_rules_doc.py"
    for definition in sn.GAMES.values():
        for rule_id, text in definition.rules.items():
            assert f"**[{rule_id}]** {text}" in committed, rule_id


def test_nothing_needs_a_directory_beside_the_repository():
    """A user who clones the project has only the project: no file may point at
    a "shared" directory beside it."""
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    needle = "../" + "shared"
    offenders = []
    for name in tracked:
        path = REPO / name
        if not name or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if needle in text:
            offenders.append(name)
    assert not offenders, f"files that mention {needle}: {offenders}"
