"""Build the Spanish notebooks 00-05 from this single source, then execute them.

    python notebooks/_construir.py            # write the .ipynb files (no outputs)
    jupyter nbconvert --to notebook --execute --inplace notebooks/0[0-5]_*.ipynb

Keeping the notebooks as code here makes their structure reviewable in a diff; the saved
.ipynb files carry the executed outputs (static SVG of each key position) for GitHub/nbviewer.
Cell tags: ``regla:ID`` marks the cell that demonstrates a rule id; ``nbval-check-output``
marks a cell whose printed output teaches something and is compared by nbval.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent

INSTALL = """# En JupyterLite (Python en el navegador) instala el paquete; en otro sitio no hace nada.
import sys
if sys.platform == "emscripten":
    %pip install -q solitaire_nb"""

SETUP = """import solitaire_nb as sn
from solitaire_nb.ejercicios import comprobar, movimientos, narrar, por_que_no"""

CHECK = "nbval-check-output"

OFFLINE = (
    "> **Sin conexión.** Este cuaderno funciona entero sin red en JupyterLite (Python en el "
    "navegador): el motor de reglas y el tablero no usan NumPy ni matplotlib."
)

BOARD_HELP = (
    "**Cómo se juega en un tablero interactivo:** haz clic en una carta y después en la pila "
    "a la que quieres llevarla; con doble clic una carta va sola a la base, si alguna la admite. "
    "Los botones **Deshacer** y **Rehacer** recorren tus movimientos, **Pista** señala un "
    "movimiento válido y **Nueva partida** reparte otra."
)


class Book:
    """A notebook being written: markdown and code cells with their tags."""

    def __init__(self, filename: str):
        self.filename = filename
        self.cells: list = []

    def md(self, text: str) -> None:
        self.cells.append(new_markdown_cell(text.strip("\n")))

    def code(self, src: str, *tags: str) -> None:
        cell = new_code_cell(src.strip("\n"))
        if tags:
            cell.metadata["tags"] = list(tags)
        self.cells.append(cell)

    def save(self) -> Path:
        nb = new_notebook(cells=self.cells)
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
        nb.metadata["language_info"] = {"name": "python"}
        path = HERE / self.filename
        nbformat.write(nb, path)
        return path


def widget_exercises(b: Book, ids: list[str]) -> None:
    """The notebook's exercises again as widgets: no code to write, so they work in Voila too."""
    b.md("""
### Los mismos ejercicios, sin escribir código

Escribe la respuesta en la casilla y pulsa **Comprobar** (así funcionan también en modo Voila).
""")
    listed = ", ".join(f'"{e}"' for e in ids)
    b.code(f"""
from IPython.display import display
from solitaire_nb.ejercicios import caja

for ejercicio in ({listed}):
    display(caja(ejercicio))
""")


def start(filename: str, title: str, intro: str) -> Book:
    b = Book(filename)
    b.code(INSTALL)
    b.md(f"# {title}\n\n{intro.strip()}\n\n{OFFLINE}")
    b.code(SETUP)
    return b


# ====================================================================== 00 índice
def indice() -> Book:
    b = Book("00_indice.ipynb")
    b.code(INSTALL)
    b.md("""
# Solitarios para aprender: índice

Esta colección de cuadernos enseña seis solitarios (paciencias) de cartas, en español, con un
motor de reglas que comprueba cada movimiento y un tablero en el que se juega de verdad.
Cada cuaderno explica las reglas de un juego una por una, las enseña sobre una posición pequeña,
propone tableros para probar («Prueba tú») y termina con una partida completa y unos ejercicios
que el propio cuaderno corrige.

Las reglas salen de las páginas en español de cada juego; donde esas páginas dejan algo abierto,
el proyecto toma una decisión y la explica, y lo que otros programas juegan de otra manera se
ofrece como una **variante** con nombre (por ejemplo `any_suit=True` en Baker's Dozen).
""")
    b.md(f"""
## Cómo usar un tablero

{BOARD_HELP}

En los cuadernos también verás dibujos fijos de posiciones: son imágenes (SVG) que se leen igual
en GitHub o en nbviewer, donde no se puede jugar. Para jugar, abre el cuaderno en JupyterLab (o en
Binder) y ejecuta las celdas: menú *Run → Run All Cells*.

Cada partida repartida tiene un número: con el mismo número, todo el mundo recibe las mismas
cartas, en cualquier ordenador. «Todos jugamos la partida nº 1234» es una buena forma de empezar
una clase.
""")
    b.md("""
## Los cuadernos

| cuaderno | qué trae | ¿funciona sin conexión en JupyterLite? |
|---|---|---|
| [01 · Chequers](01_chequers.ipynb) | dos barajas, 25 pilas, reserva y bases que suben y bajan | sí |
| [02 · Moving Left](02_moving_left.ipynb) | dos barajas en triángulo, mazo y descarte de una sola pasada | sí |
| [03 · Scotch](03_scotch.ipynb) | dieciocho abanicos y bases en colores alternos | sí |
| [04 · Baker's Dozen](04_bakers_dozen.ipynb) | trece pilas con los Reyes al fondo | sí |
| [05 · Citadel y Beleaguered Castle](05_citadel_y_beleaguered_castle.ipynb) | dos juegos hermanos: con y sin juego automático a la base | sí |
| [06 · Citadel frente a Beleaguered Castle](06_citadel_vs_beleaguered_castle.ipynb) | un estudio: ¿cuánto ayuda el reparto de Citadel? | necesita red: NumPy y matplotlib |
| [07 · Probabilidades](07_probabilidades.ipynb) | porcentaje de victorias de cada juego, con su intervalo de confianza | necesita red: NumPy y matplotlib |

Los cuadernos 01 a 05 funcionan sin red en JupyterLite (Python en el navegador), porque el motor,
el tablero y el resolvedor no usan NumPy ni matplotlib. Los cuadernos 06 y 07 dibujan gráficas:
JupyterLite descarga NumPy y matplotlib de la distribución de Pyodide, así que allí necesitan
conexión. En JupyterLab o en Binder funcionan todos.
""")
    b.code(SETUP)
    b.md("""
## Los seis juegos de un vistazo

La tabla no está escrita a mano: se genera a partir de las definiciones de los juegos
(`sn.GAMES`), las mismas que usa el motor para decidir qué movimiento es válido.
""")
    b.code('''
from html import escape
from IPython.display import HTML

def pilas(defn):
    nombres = {"tablero": "tablero", "base": "base", "reserva": "reserva", "mazo": "mazo", "descarte": "descarte"}
    if defn.tableau_label == "Abanico":
        nombres["tablero"] = "abanicos"
    return " · ".join(f"{nombres[k]} {n}" for k, n in defn.pile_counts.items() if n)

filas = []
for defn in sn.GAMES.values():
    barajas = "una" if defn.decks == 1 else "dos"
    celdas = [defn.display_name, barajas, pilas(defn), defn.tableau_builds, defn.empty_pile, defn.automatic]
    filas.append("<tr>" + "".join(f'<td style="text-align:left">{escape(c)}</td>' for c in celdas) + "</tr>")
cabecera = ["juego", "barajas", "pilas", "cómo se construye el tablero", "qué ocupa un hueco", "qué es automático"]
HTML("<table><thead><tr>" + "".join(f'<th style="text-align:left">{c}</th>' for c in cabecera) + "</tr></thead><tbody>"
     + "".join(filas) + "</tbody></table>")
''')
    b.md("""
Y cada juego con sus variantes (su valor por defecto y qué cambian):
""")
    b.code('''
for defn in sn.GAMES.values():
    print(defn.display_name)
    if not defn.variants:
        print("    (sin variantes)")
    for flag, v in defn.variants.items():
        print(f"    {flag}={v.default}: {v.descripcion}")
''', CHECK)
    b.md("""
## Una partida para empezar

Un tablero con la partida nº 1234 de Citadel, un buen juego para empezar: todas las cartas están
a la vista y las reglas caben en tres líneas.
""")
    b.code('sn.play("citadel", seed=1234)')
    b.md("""
## Para quien enseña

La [guía docente](guia_docente.md), en esta misma carpeta, explica cómo preparar una clase: el
enlace de Binder, el modo Voila (una aplicación sin código para el alumnado:
`voila notebooks/01_chequers.ipynb`), el orden y los tiempos que proponemos y las respuestas de
los ejercicios.
""")
    return b


# ====================================================================== 01 Chequers
def chequers() -> Book:
    b = start("01_chequers.ipynb", "Chequers", """
Chequers es una paciencia antigua de **dos barajas** (104 cartas) que pone casi todo sobre la mesa
desde el principio: cien cartas boca arriba en veinticinco pilas y una pequeña reserva de cuatro.
Es un gran rompecabezas a la vista, en el que cuenta más planificar que la suerte.

En este cuaderno: **Disposición**, **Base**, **Tablero**, **Reserva**, las reglas comunes a todos
los juegos, las variantes, una partida completa y tres ejercicios.
""")
    b.md("""
## Disposición

Se reparten las cartas 1 a 100 fila a fila, como lo haría una persona: una carta a cada una de
las 25 pilas del tablero, de izquierda a derecha, y así cuatro vueltas. Las cuatro cartas que
quedan forman la **reserva**, una encima de otra; solo la de arriba (la última repartida) se ve.
Las ocho pilas de la **base** empiezan vacías.
""")
    b.code('''
g = sn.new_game("chequers", seed=1234)
tablero = [p for p in g.pile_ids if p.startswith("T")]
print("Pilas del tablero:", len(tablero), "· cartas en cada una:", {len(g.piles[p]) for p in tablero})
print("Reserva:", len(g.piles["R"]), "cartas,", g.face_down("R"), "boca abajo")
print("Carta visible de la reserva:", g.piles["R"][-1].nombre)
''', "regla:CH-1", CHECK)
    b.code("g")
    b.md("""
## Base

Hay ocho pilas de la base, en dos grupos. Las **Bases 1 a 4** empiezan con un As y suben por palo
hasta el Rey; las **Bases 5 a 8** empiezan con un Rey y bajan por palo hasta el As. Cada palo
puede empezar una sola base en cada grupo: con dos barajas, cada palo acaba con una pila que sube
y otra que baja, y cada una de las 104 cartas encuentra su sitio.

En esta posición la Base 1 ya sube en picas hasta el 5 y la Base 5 baja en picas desde el Rey:
""")
    b.code('''
g = sn.Game.from_position("chequers", {
    "F0": ["AS", "2S", "3S", "4S", "5S"], "F4": ["KS", "QS"],
    "T0": ["9H", "6S"], "T1": ["4C", "JS"], "T2": ["7D", "AS"], "T3": ["KD"],
    "R": ["2C", "9D"],
})
g
''', "regla:CH-2")
    b.code('''
por_que_no(g, "T0>F0", "T1>F4", "T2>F1", "T3>F5")
''', "regla:CH-2", CHECK)
    b.md("""
El 6 de picas sube sobre el 5 de picas y la J de picas baja sobre la Q de picas. El segundo As de
picas no puede empezar otra base ascendente: las picas ya tienen la suya. La K de diamantes, en
cambio, sí puede empezar una base descendente.
""")
    b.md("""
## Tablero

En el tablero se mueve **una carta cada vez**. Una carta va sobre la carta de arriba de otra pila
si es **del mismo palo** y una unidad **mayor o menor**. Así, sobre el 8 de picas solo pueden ir
el 7 de picas y el 9 de picas.
""")
    b.code('''
g = sn.Game.from_position("chequers", {
    "T0": ["3D", "8S"], "T1": ["7S"], "T2": ["9S"], "T3": ["7H"], "T4": ["JC", "6S"],
    "R": ["2C", "9D"],
})
g
''', "regla:CH-3")
    b.md("""
`g.legal_moves()` da todos los movimientos válidos de la posición, escritos como `origen>destino`
(`T0` es el Tablero 1, `F0` la Base 1, `R` la reserva). `movimientos(g)` los escribe con los
nombres de las pilas y de las cartas, y `g.why_not(…)` (o `por_que_no(g, …)`, para varios a la
vez) explica por qué un movimiento no está permitido:
""")
    b.code('''
print(*g.legal_moves())
''', "regla:CH-3", CHECK)
    b.code('''
movimientos(g)
''', "regla:CH-3", CHECK)
    b.code('''
print(g.why_not("T3>T0"))
por_que_no(g, "T0>T2x2", "T1>T0")
''', "regla:CH-3", CHECK)
    b.md("""
Jugamos el 7 de picas sobre el 8 de picas. El Tablero 2 se queda vacío y la reserva lo rellena al
instante (lo vemos en la sección **Reserva**):
""")
    b.code('''
narrar(g, g.move("T1>T0"))
g
''', "regla:CH-3")
    b.md("""
### La secuencia da la vuelta

Entre el Rey y el As la secuencia **da la vuelta**: un Rey puede ir sobre un As y un As sobre un
Rey, siempre del mismo palo.
""")
    b.code('''
g = sn.Game.from_position("chequers", {
    "T0": ["5C", "KH"], "T1": ["AH"], "T2": ["QH"], "T3": ["2H"], "R": ["2C", "9D"],
})
movimientos(g)
''', "regla:CH-4", CHECK)
    b.code("g", "regla:CH-4")
    b.md("""
## Reserva

La reserva tiene dos papeles. Primero, **rellena huecos**: en cuanto una pila del tablero se
vacía, por el movimiento que sea (también llevando su última carta a la base), la carta de arriba
de la reserva pasa a ocuparla, y la siguiente carta de la reserva se pone boca arriba.
""")
    b.code('''
g = sn.Game.from_position("chequers", {
    "T0": ["5H"], "T1": ["6H"], "T2": ["QD", "TC"], "R": ["2C", "9D", "KS"],
})
g
''', "regla:CH-5")
    b.code('''
paso = g.move("T0>T1")
narrar(g, paso)
''', "regla:CH-5", CHECK)
    b.code("g", "regla:CH-5")
    b.md("""
Mientras la reserva tenga cartas, nadie más puede ocupar un hueco. Cuando la reserva se ha
**agotado**, cualquier carta puede ocupar un hueco del tablero:
""")
    b.code('''
g = sn.Game.from_position("chequers", {"T0": ["QD", "TC"], "T1": ["4S"]})
por_que_no(g, "T0>T2", "T1>T5")
''', "regla:CH-6", CHECK)
    b.md("""
Segundo, la carta visible de la reserva **también se juega a mano**, a una base o a una pila del
tablero donde encaje:
""")
    b.code('''
g = sn.Game.from_position("chequers", {"T0": ["7S"], "T1": ["JD"], "R": ["2C", "6S"]})
movimientos(g)
''', "regla:CH-7", CHECK)
    b.md("""
## Devolver una carta de la base al juego

En Chequers la carta de arriba de una base puede **volver al juego**: a una pila del tablero
que la acepte según la regla del tablero. Nunca va a otra base ni a la reserva.
""")
    b.code('''
g = sn.Game.from_position("chequers", {
    "F0": ["AS", "2S", "3S", "4S", "5S"], "T0": ["6S"], "T1": ["9H"], "R": ["2C", "9D"],
})
por_que_no(g, "F0>T0", "F0>T1", "F0>F1", "F0>R")
''', "regla:CH-8", "regla:GEN-1", CHECK)
    b.md("""
## Reglas comunes a todos los juegos

**Lo automático va con el movimiento que lo provocó.** El relleno desde la reserva forma parte
del movimiento: un solo **Deshacer** devuelve la carta del jugador y también la de la reserva.
""")
    b.code('''
g = sn.Game.from_position("chequers", {"T0": ["5H"], "T1": ["6H"], "R": ["2C", "9D", "KS"]})
g.move("T0>T1")
print("Después del movimiento, Tablero 1:", [str(c) for c in g.piles["T0"]], "· reserva:", len(g.piles["R"]))
g.undo()
print("Después de Deshacer, Tablero 1:", [str(c) for c in g.piles["T0"]], "· reserva:", len(g.piles["R"]))
''', "regla:GEN-2", CHECK)
    b.md("""
**La partida está ganada** cuando todas las cartas están en las bases, y **una base tiene como
máximo 13 cartas**. Aquí faltan solo el As de tréboles:
""")
    b.code('''
escalera = {palo: [r + palo for r in "A23456789TJQK"] for palo in "SHDC"}
g = sn.Game.from_position("chequers", {
    **{f"F{i}": escalera[palo] for i, palo in enumerate("SHDC")},
    **{f"F{i + 4}": escalera[palo][::-1] for i, palo in enumerate("SHD")},
    "F7": escalera["C"][:0:-1], "T0": ["AC"],
})
print(g.is_won())
g.move("T0>F7")
print(g.is_won(), "→ ¡Ganada!" if g.is_won() else "")
''', "regla:GEN-3", CHECK)
    b.code('''
g = sn.Game.from_position("chequers", {"F0": escalera["S"], "T0": ["AS"], "R": ["2C"]})
print(g.why_not("T0>F0"))
''', "regla:GEN-4", CHECK)
    b.md("""
## Variantes

- `wrap=False`: la secuencia **no** da la vuelta; un Rey ya no va sobre un As.
- `reserve_playable=False`: la reserva solo rellena huecos y su carta no se juega a mano.

La misma posición de antes, con `wrap=False`:
""")
    b.code('''
g = sn.Game.from_position("chequers", {
    "T0": ["5C", "KH"], "T1": ["AH"], "T2": ["QH"], "T3": ["2H"], "R": ["2C", "9D"],
}, wrap=False)
por_que_no(g, "T1>T0")
''', CHECK)
    b.code("sn.Board(g)")
    b.md(f"""
## Prueba tú

¿Qué cartas pueden ir sobre el **8 de picas**? Prueba a llevar cada carta al Tablero 1: el
tablero solo acepta los movimientos válidos.

{BOARD_HELP}
""")
    b.code('''
prueba = sn.Game.from_position("chequers", {
    "T0": ["8S"], "T1": ["7S"], "T2": ["9S"], "T3": ["7H"], "T4": ["9C"], "T5": ["8S"],
    "T6": ["6S"], "R": ["2C", "QD"],
})
sn.Board(prueba)
''')
    b.md("""
## Una partida completa

La partida nº 1234, entera, para jugar en el tablero. Cambia el número para jugar otra.
""")
    b.code('sn.play("chequers", seed=1234)')
    b.md("""
## Ejercicios

Escribe la respuesta en la variable `respuesta` y ejecuta la celda: el cuaderno la corrige con el
propio motor de reglas y, si no es correcta, te da una pista.

**Ejercicio 1.** ¿Qué cartas pueden ir sobre el 8 de picas en el tablero? Escribe sus códigos,
por ejemplo `["5D", "JC"]` (`T` es el 10).
""")
    b.code('''
respuesta = []
comprobar("chequers-1", respuesta)
''')
    b.md("**Ejercicio 2.** ¿Y sobre la K de corazones?")
    b.code('''
respuesta = []
comprobar("chequers-2", respuesta)
''')
    b.md("""
**Ejercicio 3.** En esta posición, ¿qué movimiento hace que la K de picas de la reserva llegue
al tablero? Escríbelo como `"T3>T2"` (origen > destino; recuerda que el Tablero 1 es `T0`).
""")
    b.code('''
from solitaire_nb.ejercicios import chequers_reserva
chequers_reserva()
''')
    b.code('''
respuesta = ""
comprobar("chequers-3", respuesta)
''')
    widget_exercises(b, ["chequers-1", "chequers-2", "chequers-3"])
    return b


# ====================================================================== 02 Moving Left
def moving_left() -> Book:
    b = start("02_moving_left.ipynb", "Moving Left", """
Moving Left es una paciencia de **dos barajas** de la familia de Klondike: diez pilas repartidas
en triángulo, con casi todas las cartas boca abajo, un **mazo** que se recorre una sola vez y un
**descarte**. Es difícil: la habilidad ayuda, pero el reparto también cuenta.

En este cuaderno: **Disposición**, **Base**, **Tablero**, **Mazo y descarte**, las reglas
comunes, la variante `shift_left` (y por qué el juego se llama así), una partida completa y tres
ejercicios.
""")
    b.md("""
## Disposición

El reparto es un **triángulo**: en cada vuelta se da una carta a cada pila, empezando una pila
más a la derecha que en la vuelta anterior. La primera carta de cada vuelta queda boca arriba y
las demás boca abajo. Así, el Tablero 1 tiene una carta, el Tablero 2 dos… y el Tablero 10 diez,
cada uno con solo su carta de arriba boca arriba: 55 cartas. Las 49 restantes forman el **mazo**,
boca abajo; el **descarte** empieza vacío.
""")
    b.code('''
g = sn.new_game("moving_left", seed=1234)
for p in g.pile_ids[:10]:
    n = len(g.piles[p])
    print(f"{g.label(p):>10}: {n} carta{'s' if n != 1 else ''}, {g.face_down(p)} boca abajo")
print("Mazo:", len(g.piles["S"]), "cartas · Descarte:", len(g.piles["W"]))
''', "regla:ML-1", CHECK)
    b.code("g")
    b.md("""
## Base

Hay ocho pilas de la base. Cada una empieza con **cualquier As** y sube **por palo** hasta el
Rey: con dos barajas, cada palo acaba teniendo dos bases. Sobre la Q de picas solo va la K de
picas.
""")
    b.code('''
g = sn.Game.from_position("moving_left", {
    "F0": ["AS", "2S"], "T0": ["3S"], "T1": ["3H"], "T2": ["AS"], "T3": ["QD", "AH"],
})
por_que_no(g, "T0>F0", "T1>F0", "T2>F1", "T3>F1")
''', "regla:ML-2", CHECK)
    b.code("g", "regla:ML-2")
    b.md("""
## Tablero

En el tablero se construye **hacia abajo en colores alternos**: una carta va sobre otra una
unidad mayor y del **color contrario**. Sobre el 9 de tréboles pueden ir el 8 de corazones o el
8 de diamantes, y nada más.
""")
    b.code('''
g = sn.Game.from_position("moving_left", {
    "T0": ["9C"], "T1": ["8H"], "T2": ["8S"], "T3": ["8D"], "T4": ["2C"], "T5": ["2S"],
    "T6": ["4C"], "T7": ["4S"], "T8": ["6C"], "T9": ["6S"],
})
movimientos(g)
''', "regla:ML-3", CHECK)
    b.code('por_que_no(g, "T2>T0")', "regla:ML-3", CHECK)
    b.md("""
### Secuencias

Una **secuencia** boca arriba, descendente y de colores alternos se mueve **en grupo**: entera o
desde cualquiera de sus cartas hasta la de arriba. Aquí el Tablero 1 tiene la secuencia
K♥ Q♠ J♦ 10♣; la J de diamantes y el 10 de tréboles pueden ir juntos sobre la Q de tréboles, y la
secuencia entera, que empieza en un Rey, puede ocupar un hueco.
""")
    b.code('''
g = sn.Game.from_position("moving_left", {
    "T0": ["KH", "QS", "JD", "TC"], "T1": ["QC"], "T2": ["JH"],
    "T3": ["5S", "2D"], "T4": ["6C"], "T5": ["7D"], "T6": ["4H"], "T7": ["9C"], "T8": ["9D", "3S"],
}, face_down={"T3": 1, "T8": 1})
g
''', "regla:ML-4")
    b.code('movimientos(g)', "regla:ML-4", CHECK)
    b.code('''
narrar(g, g.move("T0>T1x2"))
g
''', "regla:ML-4")
    b.md("""
### Huecos

Un hueco del tablero solo admite **un Rey, o una secuencia encabezada por un Rey**. Y nada lo
rellena por sí solo: se queda vacío hasta que tú pongas allí un Rey.
""")
    b.code('por_que_no(g, "T2>T9", "T0>T9x2", "T4>T9")', "regla:ML-5", CHECK)
    b.md("""
### Cartas boca abajo

Cuando una carta boca abajo queda arriba de su pila, **se pone boca arriba** en el mismo
movimiento que la ha descubierto.
""")
    b.code('''
g = sn.Game.from_position("moving_left", {"T0": ["5S", "AD", "9H"], "T1": ["TC"]},
                          face_down={"T0": 2})
narrar(g, g.move("T0>T1"))
''', "regla:ML-6", CHECK)
    b.code("g", "regla:ML-6")
    b.md("""
## Mazo y descarte

Cada clic en el mazo pasa **una carta** al descarte (el movimiento `S>W`). Solo hay **una
pasada**: cuando el mazo se acaba, no se vuelve a repartir. La carta de arriba del descarte puede
ir a una base o al tablero.
""")
    b.code('''
g = sn.Game.from_position("moving_left", {"S": ["4D", "AC"], "T0": ["3S"], "T1": ["5C"]})
narrar(g, g.move("S>W"))
movimientos(g)
''', "regla:ML-7", "regla:ML-8", CHECK)
    b.code('''
g.move("S>W")
por_que_no(g, "S>W", "W>T1")
''', "regla:ML-7", "regla:ML-8", CHECK)
    b.code("g", "regla:ML-8")
    b.md("""
## Devolver una carta de la base al juego

La carta de arriba de una base puede volver al tablero, sobre una pila que la acepte; a un hueco
solo puede volver un Rey.
""")
    b.code('''
escalera = {palo: [r + palo for r in "A23456789TJQK"] for palo in "SHDC"}
g = sn.Game.from_position("moving_left", {
    "F0": escalera["S"], "F1": ["AH", "2H", "3H"], "T1": ["4C"], "T2": ["9D"],
})
por_que_no(g, "F0>T0", "F1>T1", "F1>T0", "F1>F2")
''', "regla:ML-9", "regla:GEN-1", CHECK)
    b.md("""
## Reglas comunes a todos los juegos

**Lo automático va con el movimiento.** Poner boca arriba la carta descubierta forma parte del
movimiento: un solo **Deshacer** lo anula todo, y la carta vuelve a quedar boca abajo.
""")
    b.code('''
g = sn.Game.from_position("moving_left", {"T0": ["5S", "AD", "9H"], "T1": ["TC"]},
                          face_down={"T0": 2})
g.move("T0>T1")
print("Boca abajo en el Tablero 1 después del movimiento:", g.face_down("T0"))
g.undo()
print("Boca abajo en el Tablero 1 después de Deshacer:", g.face_down("T0"))
''', "regla:GEN-2", CHECK)
    b.md("**Ganada** cuando todas las cartas están en las bases; **13 cartas** como máximo por base:")
    b.code('''
g = sn.Game.from_position("moving_left", {
    **{f"F{i}": escalera[palo] for i, palo in enumerate("SHDCSHD")},
    "F7": escalera["C"][:-1], "W": ["KC"],
})
g.move("W>F7")
print("¡Ganada!" if g.is_won() else "Todavía no")
g = sn.Game.from_position("moving_left", {"F0": escalera["S"], "T0": ["AS"]})
print(g.why_not("T0>F0"))
''', "regla:GEN-3", "regla:GEN-4", CHECK)
    b.md("""
## ¿Por qué se llama «Moving Left»?

El nombre hace pensar que las cartas se desplazan hacia la izquierda, pero en las reglas de este
juego **nada se mueve hacia la izquierda**: un hueco espera a que tú pongas un Rey, y nada lo
rellena solo. La página de reglas lo dice expresamente: a pesar del nombre, nada rellena
automáticamente una columna vacía.

Otros programas (PySolFC) sí juegan una regla que justifica el nombre: cuando una pila del tablero
se vacía, **la parte boca arriba de la pila de su derecha pasa a ocuparla**, y si esa se vacía, la
de su derecha, y así hasta el final; la última pila se queda vacía. Aquí es la variante
`shift_left=True`. Compara las dos versiones con la misma posición:
""")
    b.code('''
posicion = {"T0": ["4H"], "T1": ["3C", "9D", "8S"], "T2": ["QH", "JC"], "T3": ["5C"], "F0": ["AH", "2H", "3H"]}
normal = sn.Game.from_position("moving_left", posicion, face_down={"T1": 1})
izquierda = sn.Game.from_position("moving_left", posicion, face_down={"T1": 1}, shift_left=True)
print("Regla de la página:")
narrar(normal, normal.move("T0>F0"))
print("Variante shift_left=True:")
narrar(izquierda, izquierda.move("T0>F0"))
''', CHECK)
    b.code("izquierda")
    b.md("Y en un tablero, con la variante activada (`shift_left=True`):")
    b.code('sn.Board(sn.Game.from_position("moving_left", posicion, face_down={"T1": 1}, shift_left=True))')
    b.md(f"""
## Prueba tú

¿Qué cartas pueden ir sobre el **9 de tréboles**? ¿Puedes llevar la secuencia del Tablero 2 a
algún sitio? ¿Y ocupar el hueco?

{BOARD_HELP}
""")
    b.code('''
prueba = sn.Game.from_position("moving_left", {
    "T0": ["9C"], "T1": ["2S", "KD", "QC", "JH"], "T2": ["8H"], "T3": ["8S"], "T4": ["8D", "7C"],
    "T5": [], "S": ["5H", "TD"], "W": ["QS"],
}, face_down={"T1": 1})
sn.Board(prueba)
''')
    b.md("## Una partida completa\n\nLa partida nº 1234. Cambia el número para jugar otra.")
    b.code('sn.play("moving_left", seed=1234)')
    b.md("""
## Ejercicios

Escribe la respuesta en `respuesta` y ejecuta la celda: el cuaderno la corrige.

**Ejercicio 1.** ¿Qué cartas pueden ir sobre el 9 de tréboles? Escribe sus códigos, por ejemplo
`["5D", "JC"]`.
""")
    b.code('''
respuesta = []
comprobar("moving_left-1", respuesta)
''')
    b.md("""
En esta posición (fíjate en el hueco del Tablero 1 y en la secuencia del Tablero 3):
""")
    b.code('''
from solitaire_nb.ejercicios import moving_left_hueco
moving_left_hueco()
''')
    b.md("**Ejercicio 2.** ¿Cuántas cartas mueve, de una vez, el movimiento del Tablero 3 al Tablero 4? Escribe un número.")
    b.code('''
respuesta = None
comprobar("moving_left-2", respuesta)
''')
    b.md("""
**Ejercicio 3.** ¿Con qué movimiento ocupas el hueco del Tablero 1? Escríbelo como `"T5>T2x2"`
(origen > destino, y `x` con el número de cartas si mueves más de una).
""")
    b.code('''
respuesta = ""
comprobar("moving_left-3", respuesta)
''')
    widget_exercises(b, ["moving_left-1", "moving_left-2", "moving_left-3"])
    return b


# ====================================================================== 03 Scotch
def scotch() -> Book:
    b = start("03_scotch.ipynb", "Scotch", """
Scotch es un solitario de **una baraja** de la familia de los abanicos: las 52 cartas están boca
arriba desde el principio, repartidas en dieciocho pequeños **abanicos**. Sin mazo y sin cartas
ocultas, casi todo depende de la habilidad: la mayoría de las derrotas vienen de una carta que uno
mismo enterró.

En este cuaderno: **Disposición**, **Base**, **Tablero** (los abanicos), las reglas comunes, una
partida completa y tres ejercicios.
""")
    b.md("""
## Disposición

Se reparte en tres vueltas de izquierda a derecha: las dos primeras llenan diecisiete abanicos y
la tercera llega hasta el abanico 18. Resultado: **diecisiete abanicos de tres cartas y uno con
una sola**, todas boca arriba. Las cuatro pilas de la base empiezan vacías.
""")
    b.code('''
g = sn.new_game("scotch", seed=1234)
tamanos = [len(g.piles[p]) for p in g.pile_ids if p.startswith("T")]
print("Abanicos:", len(tamanos), "· de tres cartas:", tamanos.count(3), "· de una:", tamanos.count(1))
print("Último abanico:", g.label("T17"), "con", g.piles["T17"][0].articulo)
''', "regla:SC-1", CHECK)
    b.code("g")
    b.md("""
## Base

Una base vacía admite **cualquier As**. Después sube hasta el Rey en **colores alternos**: una
unidad más y de cualquier palo del otro color. Sobre el 8 de picas, por tanto, solo pueden ir el
9 de corazones y el 9 de diamantes.
""")
    b.code('''
g = sn.Game.from_position("scotch", {
    "F0": ["AH", "2S", "3D", "4C", "5H", "6S", "7D", "8S"],
    "T0": ["9H"], "T1": ["9C"], "T2": ["9D"], "T3": ["AD"],
})
por_que_no(g, "T0>F0", "T1>F0", "T2>F0", "T3>F1")
''', "regla:SC-2", CHECK)
    b.code("g", "regla:SC-2")
    b.md("""
## Tablero: los abanicos

En los abanicos se mueve **una carta cada vez**, y va sobre otra una unidad mayor **sin importar
el palo**: sobre el 8 de picas puede ir cualquier 7.
""")
    b.code('''
g = sn.Game.from_position("scotch", {
    "T0": ["KC", "8S"], "T1": ["7H"], "T2": ["7S"], "T3": ["6D"], "T4": ["2C", "9D"],
})
movimientos(g)
''', "regla:SC-3", CHECK)
    b.code('por_que_no(g, "T3>T0", "T0>T4x2")', "regla:SC-3", CHECK)
    b.code("g", "regla:SC-3")
    b.md("""
### Un abanico vacío no se vuelve a llenar

Es la trampa de Scotch: cuando un abanico se vacía, **se queda vacío el resto de la partida**.
Ninguna carta puede ocuparlo, ni siquiera una que vuelva de la base. Piénsalo dos veces antes de
jugar la última carta de un abanico.
""")
    b.code('''
g = sn.Game.from_position("scotch", {
    "T0": ["6C"], "T1": ["7D"], "T2": ["KS"], "F0": ["AS", "2H"],
})
g.move("T0>T1")
por_que_no(g, "T2>T0", "F0>T0")
''', "regla:SC-4", CHECK)
    b.code("g", "regla:SC-4")
    b.md("""
## Devolver una carta de la base al juego

La carta de arriba de una base puede volver a un abanico **no vacío** que la acepte:
""")
    b.code('''
g = sn.Game.from_position("scotch", {"F0": ["AS", "2H"], "T0": ["3C"], "T1": ["3D", "5S"]})
por_que_no(g, "F0>T0", "F0>T1", "F0>F1")
''', "regla:SC-5", "regla:GEN-1", CHECK)
    b.md("""
## Reglas comunes a todos los juegos

En Scotch nada ocurre automáticamente, así que un **Deshacer** devuelve justo el movimiento que
hiciste (en otros juegos también devuelve lo automático que lo siguió):
""")
    b.code('''
g = sn.Game.from_position("scotch", {"T0": ["6C"], "T1": ["7D"]})
narrar(g, g.move("T0>T1"))
g.undo()
print("Tras Deshacer:", g.label("T0"), "tiene", g.piles["T0"][0].articulo)
''', "regla:GEN-2", CHECK)
    b.md("**Ganada** cuando todas las cartas están en las bases; **13 cartas** como máximo por base:")
    b.code('''
alterna = {
    "F0": ["AS", "2H", "3S", "4H", "5S", "6H", "7S", "8H", "9S", "TH", "JS", "QH", "KS"],
    "F1": ["AH", "2S", "3H", "4S", "5H", "6S", "7H", "8S", "9H", "TS", "JH", "QS", "KH"],
    "F2": ["AD", "2C", "3D", "4C", "5D", "6C", "7D", "8C", "9D", "TC", "JD", "QC", "KD"],
    "F3": ["AC", "2D", "3C", "4D", "5C", "6D", "7C", "8D", "9C", "TD", "JC", "QD"],
}
g = sn.Game.from_position("scotch", {**alterna, "T0": ["KC"]})
g.move("T0>F3")
print("¡Ganada!" if g.is_won() else "Todavía no")
g = sn.Game.from_position("scotch", {"F0": alterna["F0"], "T0": ["AD"]})
print(g.why_not("T0>F0"))
''', "regla:GEN-3", "regla:GEN-4", CHECK)
    b.md(f"""
## Prueba tú

¿Qué cartas pueden ir sobre el **8 de tréboles** del Abanico 1? ¿Y sobre el **8 de picas** de la
Base 1? Pruébalo: el tablero solo acepta los movimientos válidos.

{BOARD_HELP}
""")
    b.code('''
prueba = sn.Game.from_position("scotch", {
    "T0": ["KD", "8C"], "T1": ["7H"], "T2": ["9H"], "T3": ["7C"], "T4": ["9C"], "T5": ["9D", "6C"],
    "F0": ["AH", "2S", "3D", "4C", "5H", "6S", "7D", "8S"],
})
sn.Board(prueba)
''')
    b.md("## Una partida completa\n\nLa partida nº 1234. Cambia el número para jugar otra.")
    b.code('sn.play("scotch", seed=1234)')
    b.md("""
## Ejercicios

Escribe la respuesta en `respuesta` y ejecuta la celda: el cuaderno la corrige.

**Ejercicio 1.** ¿Qué cartas pueden ir sobre el 8 de picas en una **base**? Escribe sus códigos,
por ejemplo `["5D", "JC"]`.
""")
    b.code('''
respuesta = []
comprobar("scotch-1", respuesta)
''')
    b.md("**Ejercicio 2.** ¿Y sobre el 8 de picas en un **abanico**?")
    b.code('''
respuesta = []
comprobar("scotch-2", respuesta)
''')
    b.md("""
**Ejercicio 3.** En esta posición, ¿qué movimientos llevan el 2 de corazones a la base? Escríbelos
en orden, separados por comas: `"T5>T4, T4>F1"`.
""")
    b.code('''
from solitaire_nb.ejercicios import scotch_dos
scotch_dos()
''')
    b.code('''
respuesta = ""
comprobar("scotch-3", respuesta)
''')
    widget_exercises(b, ["scotch-1", "scotch-2", "scotch-3"])
    return b


# ====================================================================== 04 Baker's Dozen
def bakers_dozen() -> Book:
    b = start("04_bakers_dozen.ipynb", "Baker's Dozen", """
Baker's Dozen («la docena del panadero», que son trece) es un solitario de **una baraja** en trece
pilas de cuatro cartas, todas a la vista. Antes de empezar, los Reyes bajan al fondo de su pila
para no estorbar. Es sencillo de explicar y pide pensar.

En este cuaderno: **Disposición**, **Base**, **Tablero**, las reglas comunes, las dos variantes
(`any_suit` y `kings_to_bottom`), una partida completa y tres ejercicios.
""")
    b.md("""
## Disposición

Se reparten las 52 cartas en cuatro vueltas, de izquierda a derecha, sobre las **trece pilas**
del tablero, todas boca arriba.
""")
    b.code('''
g = sn.new_game("bakers_dozen", seed=1)
print("Pilas:", len(g.pile_ids) - 4, "· cartas en cada una:", {len(g.piles[f"T{i}"]) for i in range(13)})
''', "regla:BD-1", CHECK)
    b.code("g", "regla:BD-1")
    b.md("""
Después, **en cada pila, los Reyes pasan al fondo**: un Rey en el fondo no tapa nada. Los Reyes
mantienen su orden entre ellos, y las demás cartas también. Compara el Tablero 9 y el Tablero 10
de la partida nº 1 sin mover los Reyes (`kings_to_bottom=False`) y con la regla normal:
""")
    b.code('''
sin_mover = sn.new_game("bakers_dozen", seed=1, kings_to_bottom=False)
for p in ("T8", "T9"):
    antes = " ".join(str(c) for c in sin_mover.piles[p])
    despues = " ".join(str(c) for c in g.piles[p])
    print(f"{g.label(p)}: tal como se reparte {antes}  →  con los Reyes al fondo {despues}")
''', "regla:BD-2", CHECK)
    b.md("""
## Base

Las cuatro bases suben **por palo** desde el As hasta el Rey.
""")
    b.code('''
g = sn.Game.from_position("bakers_dozen", {
    "F0": ["AH", "2H", "3H"], "T0": ["4H"], "T1": ["4D"], "T2": ["AC"], "T3": ["2S"],
})
por_que_no(g, "T0>F0", "T1>F0", "T2>F1", "T3>F1")
''', "regla:BD-3", CHECK)
    b.code("g", "regla:BD-3")
    b.md("""
## Tablero

En el tablero se mueve **una carta cada vez**, sobre otra **una unidad mayor y de otro palo**.
El ejemplo de la página de reglas: el 9 de corazones puede ir sobre el 10 de diamantes, el de
tréboles o el de picas, pero **no** sobre el 10 de corazones.
""")
    b.code('''
g = sn.Game.from_position("bakers_dozen", {
    "T0": ["TD"], "T1": ["TC"], "T2": ["TH"], "T3": ["KS", "9H"], "T4": ["TS"],
})
movimientos(g)
''', "regla:BD-4", CHECK)
    b.code('por_que_no(g, "T3>T2", "T3>T0x2")', "regla:BD-4", CHECK)
    b.code("g", "regla:BD-4")
    b.md("""
### Los huecos se quedan vacíos

Una pila que se vacía **queda vacía el resto de la partida**. Por eso los Reyes van al fondo:
ninguna carta podría rescatarlos de un hueco.
""")
    b.code('''
g = sn.Game.from_position("bakers_dozen", {"T0": ["8C"], "T1": ["9D"], "T2": ["KS"]})
g.move("T0>T1")
por_que_no(g, "T2>T0", "T1>T0")
''', "regla:BD-5", CHECK)
    b.code("g", "regla:BD-5")
    b.md("""
### Lo que llega a la base se queda en la base

En Baker's Dozen **no se devuelven cartas** de la base al juego (la regla común de devolver una
carta, donde el juego lo permite, aquí no se aplica):
""")
    b.code('''
g = sn.Game.from_position("bakers_dozen", {"F0": ["AS", "2S"], "T0": ["3D"]})
por_que_no(g, "F0>T0")
''', "regla:BD-6", "regla:GEN-1", CHECK)
    b.md("""
## Reglas comunes a todos los juegos

En Baker's Dozen nada es automático durante la partida (los Reyes bajan al fondo en el reparto,
antes del primer movimiento), así que **Deshacer** devuelve solo tu movimiento:
""")
    b.code('''
g = sn.Game.from_position("bakers_dozen", {"T0": ["8C"], "T1": ["9D"]})
narrar(g, g.move("T0>T1"))
g.undo()
print("Tras Deshacer, el Tablero 1 vuelve a tener", g.piles["T0"][0].articulo)
''', "regla:GEN-2", CHECK)
    b.md("**Ganada** cuando todas las cartas están en las bases; **13 cartas** como máximo por base:")
    b.code('''
escalera = {palo: [r + palo for r in "A23456789TJQK"] for palo in "SHDC"}
g = sn.Game.from_position("bakers_dozen", {
    "F0": escalera["S"], "F1": escalera["H"], "F2": escalera["D"], "F3": escalera["C"][:-1], "T0": ["KC"],
})
g.move("T0>F3")
print("¡Ganada!" if g.is_won() else "Todavía no")
g = sn.Game.from_position("bakers_dozen", {"F0": escalera["S"], "T0": ["AH"]})
print(g.why_not("T0>F0"))
''', "regla:GEN-3", "regla:GEN-4", CHECK)
    b.md("""
## Dos puntos discutibles

**¿«De otro palo» o «sin importar el palo»?** La página de reglas que seguimos dice dos cosas a la
vez: que la carta va sobre la siguiente más alta «de un palo diferente», y en la misma frase,
«independientemente del palo o el color». Su propio ejemplo (el 9 de corazones no va sobre el 10 de
corazones) decide: aquí, por defecto, **de otro palo**. Pero la regla clásica, la que juegan
PySolFC y Aisleriot, es **sin importar el palo**: es la variante `any_suit=True`.
""")
    b.code('''
posicion = {"T0": ["TD"], "T1": ["TC"], "T2": ["TH"], "T3": ["KS", "9H"], "T4": ["TS"]}
clasica = sn.Game.from_position("bakers_dozen", posicion, any_suit=True)
por_que_no(clasica, "T3>T2")
''', CHECK)
    b.code("sn.Board(clasica)")
    b.md("""
**¿Los Reyes al fondo?** La página cuenta que la variante más común, la de muchos programas,
**no** baja los Reyes al fondo; a cambio, un hueco admite un Rey (y solo un Rey). Es la variante
`kings_to_bottom=False`:
""")
    b.code('''
comun = sn.Game.from_position("bakers_dozen", {"T0": ["8C"], "T1": ["9D"], "T2": ["3H", "KS"], "T3": ["QH"]}, kings_to_bottom=False)
comun.move("T0>T1")
por_que_no(comun, "T2>T0", "T3>T0")
''', CHECK)
    b.code("sn.Board(comun)")
    b.md(f"""
## Prueba tú

¿Sobre qué cartas puede ir el **9 de corazones**? Pruébalo en el tablero.

{BOARD_HELP}
""")
    b.code('''
prueba = sn.Game.from_position("bakers_dozen", {
    "T0": ["TD"], "T1": ["TC"], "T2": ["TH"], "T3": ["KS", "9H"], "T4": ["TS"], "T5": ["8C"], "T6": ["8H"],
})
sn.Board(prueba)
''')
    b.md("## Una partida completa\n\nLa partida nº 1234. Cambia el número para jugar otra.")
    b.code('sn.play("bakers_dozen", seed=1234)')
    b.md("""
## Ejercicios

Escribe la respuesta en `respuesta` y ejecuta la celda: el cuaderno la corrige.

**Ejercicio 1.** ¿Sobre qué cartas puede ir el 9 de corazones? Escribe sus códigos, por ejemplo
`["5D", "JC"]` (`T` es el 10).
""")
    b.code('''
respuesta = []
comprobar("bakers_dozen-1", respuesta)
''')
    b.md("**Ejercicio 2.** ¿Y con la variante `any_suit=True`?")
    b.code('''
respuesta = []
comprobar("bakers_dozen-2", respuesta)
''')
    b.md("""
**Ejercicio 3.** En esta posición, ¿qué movimientos llevan el As de tréboles a la base?
Escríbelos en orden, separados por comas: `"T3>T1, T1>F2"`.
""")
    b.code('''
from solitaire_nb.ejercicios import bakers_dozen_as
bakers_dozen_as()
''')
    b.code('''
respuesta = ""
comprobar("bakers_dozen-3", respuesta)
''')
    widget_exercises(b, ["bakers_dozen-1", "bakers_dozen-2", "bakers_dozen-3"])
    return b


# ====================================================================== 05 Citadel y Beleaguered Castle
def citadel() -> Book:
    b = start("05_citadel_y_beleaguered_castle.ipynb", "Citadel y Beleaguered Castle", """
Dos juegos hermanos de **una baraja**. **Beleaguered Castle** («el castillo sitiado») empieza con
los cuatro Ases en las bases y las otras 48 cartas en ocho pilas de seis, todas boca arriba.
**Citadel** es lo mismo con ventaja: durante el reparto, cada carta que ya encaja en su base va
directamente a ella, y después, tras cada movimiento, las cartas que quedan libres y encajan van
solas a la base (el **juego automático a la base**).

Las dos diferencias son reglas con nombre (`deal_to_foundations` y `autoplay`), así que los dos
juegos comparten todo lo demás. El cuaderno
[06 · Citadel frente a Beleaguered Castle](06_citadel_vs_beleaguered_castle.ipynb) mide cuánto
ayudan.

En este cuaderno: **Disposición**, **Base**, **Tablero**, el juego automático a la base y lo que
ocurre al devolver una carta, las reglas comunes, una partida completa y tres ejercicios.
""")
    b.md("""
## Disposición

Los cuatro Ases empiezan en las Bases 1 a 4, en el orden picas, corazones, diamantes, tréboles.
Las otras 48 cartas, en el orden en que salen, se reparten fila a fila sobre las **ocho pilas**
del tablero, seis vueltas, boca arriba. En Beleaguered Castle eso es todo:
""")
    b.code('''
castillo = sn.new_game("beleaguered_castle", seed=1234)
print("Bases:", [" ".join(str(c) for c in castillo.piles[f"F{i}"]) for i in range(4)])
print("Cartas por pila:", [len(castillo.piles[f"T{i}"]) for i in range(8)])
print("Cartas a la base durante el reparto:", len(castillo.deal_report.to_foundations))
''', "regla:CB-1", "regla:CB-8", CHECK)
    b.code("castillo", "regla:CB-1")
    b.md("""
En **Citadel**, con la misma baraja (la partida nº 1234 reparte las mismas 52 cartas en los dos
juegos), cada carta que su base admite **en ese momento** va a la base en vez de a su pila, y esa
pila se queda esa vuelta sin carta: no hay carta de reemplazo. Una carta ya repartida no se
vuelve a mirar durante el reparto.
""")
    b.code('''
g = sn.new_game("citadel", seed=1234)
informe = g.deal_report
for carta, pila in zip(informe.to_foundations, informe.meant_for):
    print(f"{carta.nombre}: a la base, en vez de al {g.label(pila)}")
print("Cartas por pila:", [len(g.piles[f"T{i}"]) for i in range(8)])
''', "regla:CB-2", CHECK)
    b.md("""
Al terminar el reparto empieza el **juego automático a la base**: cualquier carta de arriba que
su base admite va a ella, una y otra vez, hasta que ninguna más pueda.
""")
    b.code('''
for carta, pila in zip(informe.autoplay, informe.autoplay_from):
    print(f"Tras el reparto, {carta.articulo} pasa del {g.label(pila)} a la base")
''', "regla:CB-7", CHECK)
    b.code("g", "regla:CB-2")
    b.md("""
## Base

Las bases suben **por palo** hasta el Rey; cada base es la de su palo (la Base 1, la de picas…).
Sobre la J de diamantes solo va la Q de diamantes.
""")
    b.code('''
g = sn.Game.from_position("beleaguered_castle", {
    "F0": ["AS"], "F1": ["AH"], "F2": ["AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD"], "F3": ["AC"],
    "T0": ["QD"], "T1": ["QH"], "T2": ["2S"],
})
por_que_no(g, "T0>F2", "T1>F2", "T2>F0", "T2>F1")
''', "regla:CB-3", CHECK)
    b.md("""
## Tablero

En el tablero se mueve **una carta cada vez**, sobre otra **una unidad mayor, sin importar el
palo**: sobre un 8 pueden ir los cuatro 7. Y **cualquier carta** puede ocupar un hueco.
""")
    b.code('''
g = sn.Game.from_position("beleaguered_castle", {
    "F0": ["AS"], "F1": ["AH"], "F2": ["AD"], "F3": ["AC"],
    "T0": ["8D"], "T1": ["KC", "7S"], "T2": ["7H"], "T3": ["6C"], "T4": ["QS", "9C"], "T5": ["JD", "8S"],
    "T6": ["5H", "TD"],
})
movimientos(g)
''', "regla:CB-4", "regla:CB-5", CHECK)
    b.code('por_que_no(g, "T3>T0", "T1>T0x2")', "regla:CB-4", CHECK)
    b.code("g", "regla:CB-4")
    b.md("""
### Devolver una carta de la base al juego

La carta de arriba de una base puede volver al tablero: sobre una carta una unidad mayor, o a un
hueco.
""")
    b.code('''
g = sn.Game.from_position("beleaguered_castle", {
    "F0": ["AS", "2S", "3S"], "F1": ["AH"], "F2": ["AD"], "F3": ["AC"], "T0": ["4H"], "T1": ["9C"],
})
por_que_no(g, "F0>T0", "F0>T1", "F0>T7", "F0>F1")
''', "regla:CB-6", "regla:GEN-1", CHECK)
    b.md("""
## El juego automático a la base, de cerca

En Citadel, **después de cada movimiento**, las cartas de arriba que su base admite van solas a
ella. En esta posición, al llevar el 7 de diamantes sobre el 8 de tréboles queda libre el 3 de
picas, que sube solo a su base:
""")
    b.code('''
g = sn.Game.from_position("citadel", {
    "F0": ["AS", "2S"], "F1": ["AH", "2H"], "F2": ["AD"], "F3": ["AC"],
    "T0": ["3S", "7D"], "T1": ["8C"], "T2": ["9S", "3H"], "T3": ["KD", "4H"],
})
g
''', "regla:CB-7")
    b.code('narrar(g, g.move("T0>T1"))', "regla:CB-7", CHECK)
    b.code("g", "regla:CB-7")
    b.md("""
Fíjate en dos detalles de la regla:

1. **El 3 de corazones no se ha movido**, aunque su base lo admite. Ya estaba arriba y admitido
   antes de tu movimiento: el juego automático solo se lleva las cartas que tu movimiento deja en
   condiciones de subir, no las que tú decidiste dejar en el tablero.
2. **Lo que tú devuelves de la base se queda donde lo pones.** Si devuelves el 3 de picas sobre el
   4 de corazones, el juego automático no se lo lleva otra vez a la base, aunque la base lo admita:
""")
    b.code('''
narrar(g, g.move("F0>T3"))
print(f"Arriba del {g.label('T3')}: {g.piles['T3'][-1].nombre}")
''', "regla:CB-7", CHECK)
    b.md("""
Este es el punto que las reglas de Citadel dejan abierto: la página dice que las cartas que
encajan en una base «siguen moviéndose allí automáticamente», y también que una carta de la base
puede volver al juego. Si el juego automático se llevara de vuelta cada carta devuelta, devolver
no serviría para nada. Nuestra decisión: **la carta devuelta se queda donde el jugador la puso**
(y también cualquier otra que ya estaba arriba y admitida antes del movimiento).

Muchos programas, como PySolFC, y casi todos los que resuelven partidas, no permiten devolver
cartas. Eso es la variante `takeback=False`, que sirve para comparar resultados con ellos:
""")
    b.code('''
sin_devolver = sn.Game.from_position("citadel", {
    "F0": ["AS", "2S", "3S"], "F1": ["AH"], "F2": ["AD"], "F3": ["AC"], "T0": ["4H"], "T1": ["9C"],
}, takeback=False)
por_que_no(sin_devolver, "F0>T0")
''', "regla:CB-6", CHECK)
    b.code("sn.Board(sin_devolver)")
    b.md("""
En **Beleaguered Castle** no hay nada de esto: ni cartas a la base durante el reparto ni juego
automático. El mismo movimiento deja el 3 de picas en el tablero:
""")
    b.code('''
castillo = sn.Game.from_position("beleaguered_castle", {
    "F0": ["AS", "2S"], "F1": ["AH", "2H"], "F2": ["AD"], "F3": ["AC"],
    "T0": ["3S", "7D"], "T1": ["8C"], "T2": ["9S", "3H"], "T3": ["KD", "4H"],
})
narrar(castillo, castillo.move("T0>T1"))
''', "regla:CB-8", CHECK)
    b.md("""
## Reglas comunes a todos los juegos

**Lo automático va con el movimiento que lo provocó**: un solo **Deshacer** devuelve tu carta y
también las que subieron solas a la base.
""")
    b.code('''
g = sn.Game.from_position("citadel", {
    "F0": ["AS", "2S"], "F1": ["AH"], "F2": ["AD"], "F3": ["AC"],
    "T0": ["4S", "3S", "7D"], "T1": ["8C"],
})
narrar(g, g.move("T0>T1"))
g.undo()
print("Tras Deshacer:", g.label("T0"), "=", " ".join(str(c) for c in g.piles["T0"]),
      "· Base 1 =", " ".join(str(c) for c in g.piles["F0"]))
''', "regla:GEN-2", CHECK)
    b.md("**Ganada** cuando todas las cartas están en las bases; **13 cartas** como máximo por base:")
    b.code('''
escalera = {palo: [r + palo for r in "A23456789TJQK"] for palo in "SHDC"}
g = sn.Game.from_position("beleaguered_castle", {
    "F0": escalera["S"], "F1": escalera["H"], "F2": escalera["D"], "F3": escalera["C"][:-1], "T0": ["KC"],
})
g.move("T0>F3")
print("¡Ganada!" if g.is_won() else "Todavía no")
g = sn.Game.from_position("beleaguered_castle", {"F0": escalera["S"], "F1": ["AH"], "F2": ["AD"], "F3": ["AC"],
                                                 "T0": ["2H"]})
print(g.why_not("T0>F0"))
''', "regla:GEN-3", "regla:GEN-4", CHECK)
    b.md(f"""
## Prueba tú

Juega la misma partida en los dos juegos y compara: ¿cuántas cartas tiene cada uno en la base
antes del primer movimiento? Después, en Citadel, devuelve una carta de la base al tablero y mira
cómo se queda allí.

{BOARD_HELP}
""")
    b.code('sn.play("beleaguered_castle", seed=1234)')
    b.code('sn.play("citadel", seed=1234)')
    b.md("""
## Una partida completa

La partida nº 2026 de Citadel. Cambia el número (o el juego) para jugar otra.
""")
    b.code('sn.play("citadel", seed=2026)')
    b.md("""
## Ejercicios

Escribe la respuesta en `respuesta` y ejecuta la celda: el cuaderno la corrige.

**Ejercicio 1.** En la partida nº 1234 de Citadel, ¿cuántas cartas van a la base **durante el
reparto** (sin contar los Ases ni el juego automático de después)? Escribe un número.
""")
    b.code('''
respuesta = None
comprobar("citadel-1", respuesta)
''')
    b.md("""
**Ejercicio 2.** ¿Qué cartas pueden ir sobre el 8 de diamantes en el tablero de Beleaguered
Castle? Escribe sus códigos, por ejemplo `["5D", "JC"]`.
""")
    b.code('''
respuesta = []
comprobar("citadel-2", respuesta)
''')
    b.md("""
**Ejercicio 3.** En esta posición de Citadel, ¿qué movimiento devuelve el 3 de picas de la base
al tablero, y lo deja allí? Escríbelo como `"F2>T6"`.
""")
    b.code('''
from solitaire_nb.ejercicios import citadel_devolver
citadel_devolver()
''')
    b.code('''
respuesta = ""
comprobar("citadel-3", respuesta)
''')
    widget_exercises(b, ["citadel-1", "citadel-2", "citadel-3"])
    return b


BUILDERS = {
    "00": indice,
    "01": chequers,
    "02": moving_left,
    "03": scotch,
    "04": bakers_dozen,
    "05": citadel,
}


def main(argv: list[str]) -> None:
    wanted = argv or list(BUILDERS)
    for key in wanted:
        print(BUILDERS[key]().save())


if __name__ == "__main__":
    main(sys.argv[1:])
