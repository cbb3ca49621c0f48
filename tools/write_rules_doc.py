"""Write docs/reglas.md, the project's rules document, generated from the games' declared rules.

    python tools/write_rules_doc.py           # rewrite docs/reglas.md
    python tools/write_rules_doc.py --check   # exit 1 if the committed document is out of date

Every rule appears with its id (`[CH-3]`) and the sentence its GameDef declares, so the
document and the engine cannot drift apart; tests/test_rule_ids.py checks the ids in the
document are exactly the ids the games declare, and that each one is tested.  The decisions
below are the places where the original rule pages are ambiguous and the project chose.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from solitaire_nb.games import GAMES

OUT = Path(__file__).resolve().parents[1] / "docs" / "reglas.md"

INTRO = """\
# Las reglas de solitaire_nb

Este documento es el contrato de reglas del proyecto. Se genera a partir de las reglas que
declara cada juego (`solitaire_nb/games/*.py`) con `python tools/write_rules_doc.py`; no lo
edites a mano: cambia el juego y vuelve a generarlo (un test comprueba que coincide).

Cada regla lleva un identificador (`CH-3`, `CB-7`…). Los tests que comprueban una regla lo
nombran con `@pytest.mark.rule("CH-3")`, y un test exige que todas las reglas estén probadas.
Por defecto se juega lo que dicen las páginas originales de cada juego; lo que otras
implementaciones juegan distinto es una variante con nombre (al final de cada juego).

En este documento, como en la API de Python, los montones se cuentan desde 0 (`T3>F0`); el
tablero y los cuadernos los numeran desde 1 («T4 B1»).
"""

# Where the original pages are ambiguous in prose: what the project plays, and why.
DECISIONS = """\
## Decisiones donde las páginas originales no son claras

- **Dos copias de la misma carta** (juegos de dos barajas): son iguales para todas las reglas;
  da lo mismo cuál de las dos se mueva.
- **Repartos numerados**: una partida con número sale siempre igual, en cualquier máquina y
  versión de Python (baraja nueva ♠ A…K, ♥, ♦, ♣, dos veces si hay dos barajas; generador
  SplitMix64 sembrado con el número; Fisher–Yates desde el final). Los juegos de una baraja
  reciben el mismo orden de 52 cartas con el mismo número, así que se comparan reparto a
  reparto (Citadel y Beleaguered Castle reparten igual: regla CB-1).
- **Lo automático** (poner boca arriba, rellenar desde la reserva, el juego automático a la
  base) forma parte del movimiento que lo provoca: un solo Deshacer lo anula todo (GEN-2).
- **Citadel y Beleaguered Castle**: un As también es la carta de arriba de su base; si se
  permite devolver cartas, puede volver al juego (sobre cualquier 2 o a un hueco), y la base
  que queda vacía conserva su palo: solo vuelve a admitir ese As.
- **Moving Left con `shift_left=True`**: si la pila a la derecha de un hueco también está
  vacía, no se desplaza nada y la cadena se detiene ahí.

### De dónde vienen las variantes

| juego | variante | de dónde viene |
|---|---|---|
| Chequers | `wrap=False` (sin vuelta Rey–As), `reserve_playable=False` | variantes de la regla |
| Moving Left | `shift_left=True` | PySolFC (`MovingLeft.fillStack`) |
| Baker's Dozen | `any_suit=True` | PySolFC y Aisleriot (sin importar el palo) |
| Baker's Dozen | `kings_to_bottom=False` | la «variante más común» de la página original |
| Citadel / Beleaguered Castle | `deal_to_foundations`, `autoplay` | las dos reglas que los separan |
| Citadel / Beleaguered Castle | `takeback=False` | PySolFC y la mayoría de los resolvedores |
"""


def _key(rule_id: str) -> tuple[str, int]:
    prefix, number = rule_id.split("-")
    return prefix, int(number)


def _rule_lines(rules: dict[str, str]) -> list[str]:
    return [f"- **[{i}]** {rules[i]}" for i in sorted(rules, key=_key)]


def document() -> str:
    """The whole rules document, from the games' declarations."""
    first = next(iter(GAMES.values()))
    common = {i: t for i, t in first.rules.items() if i.startswith("GEN-")}
    out = [INTRO, "## Reglas comunes a todos los juegos", "", *_rule_lines(common), ""]
    # Games that declare the same rules (Citadel and Beleaguered Castle) share one section.
    sections: dict[tuple[str, ...], list] = {}
    for definition in GAMES.values():
        own = {i: t for i, t in definition.rules.items() if not i.startswith("GEN-")}
        key = tuple(sorted(own.items()))
        sections.setdefault(key, []).append((definition, own))
    for group in sections.values():
        names = " y ".join(d.display_name for d, _ in group)
        out += [f"## {names}", ""]
        if len(group) == 1 and group[0][0].summary:
            out += [group[0][0].summary.strip(), ""]
        else:
            out += [f"- **{d.display_name}**: {d.summary.strip()}" for d, _ in group if d.summary]
            out += ["", "Comparten estas reglas; lo que los separa es qué variantes se juegan por defecto.", ""]
        out += [*_rule_lines(group[0][1]), ""]
        for definition, _ in group:
            if definition.variants:
                label = f"Variantes de {definition.display_name}"
                out += [f"### {label}", ""]
                for flag, variant in definition.variants.items():
                    # Each description says what switching the flag away from its default plays.
                    out.append(f"- `{flag}={not variant.default}`: {variant.descripcion}")
                out.append("")
    out.append(DECISIONS)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if docs/reglas.md is out of date")
    args = parser.parse_args(argv)
    text = document()
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} está desactualizado: ejecuta python tools/write_rules_doc.py")
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"escrito {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
