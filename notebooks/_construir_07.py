"""Build notebooks/07_probabilidades.ipynb (the win-rate atlas), then execute it.

    python notebooks/_construir_07.py
    jupyter nbconvert --to notebook --execute --inplace notebooks/07_probabilidades.ipynb

The notebook reads the committed summary (data/atlas.json, written by benchmarks/atlas.py);
only its last cells solve anything (a handful of deals, in-process, small max_states), so it
runs under nbval in seconds.  Every sentence that depends on the numbers is printed by code,
so the prose never disagrees with the data after the atlas grows.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _construir import INSTALL  # noqa: E402  (the same first cell as every notebook)

cells: list = []


def md(text: str) -> None:
    cells.append(new_markdown_cell(text.strip("\n")))


def code(src: str) -> None:
    cells.append(new_code_cell(src.strip("\n")))


code(INSTALL)

md("""
# ¿Cuántas partidas tienen solución? El atlas de probabilidades

Las páginas de reglas apenas dicen nada de lo fácil o difícil que es ganar: la de Moving Left
habla de «un exigente 15 %» y la de Citadel de «mejores probabilidades» que Beleaguered Castle.
Con el resolvedor del paquete podemos medirlo: se toma una serie de **partidas numeradas**
(la partida nº 1, la nº 2, …, las mismas en cualquier ordenador) y para cada una el resolvedor
dice si **tiene solución**, si **no tiene solución** o si queda **sin decidir** porque se
detuvo antes de terminar.

* «Tiene solución» es una prueba: el resolvedor encuentra una forma de ganar y la comprueba
  jugándola movimiento a movimiento con el motor de reglas.
* «No tiene solución» también lo es: solo se dice después de recorrer **todas** las
  posiciones a las que se puede llegar.
* «Sin decidir» significa que el resolvedor llegó a su límite de posiciones (`max_states`)
  antes de ganar o de agotar las posibilidades. Ese límite es un número fijo, no un tiempo,
  para que el resultado sea el mismo en cualquier máquina.

Los números de este cuaderno **no se calculan aquí**: los produce el programa
`benchmarks/atlas.py`, que tarda horas, y se guardan en el archivo `data/atlas.json`. Este
cuaderno solo los lee (al final hay una celda que recalcula unas pocas partidas en directo).
""")

code("""
%matplotlib inline
import matplotlib.pyplot as plt
from IPython.display import Markdown, display

import solitaire_nb as sn
from solitaire_nb.winrate import InProcessExecutor, atlas

datos = atlas()
print("Atlas generado el", datos["generated"][:10], "con solitaire_nb", datos["package_version"],
      "y Python", datos["python_version"])
print("Límite del resolvedor:", datos["limits"], "(el número, en la tabla)")
""")

md("""
## La tabla

Una fila por juego y variante. **Partidas** dice cuántas se han resuelto de las previstas
(el atlas se construye en varias sesiones y cada una continúa donde lo dejó la anterior).
El **límite de posiciones** es el `max_states` de cada partida: más bajo en los juegos en los
que una partida que no se decide pronto casi nunca se decide (los de dos barajas y Scotch),
para que el atlas entero se pueda recalcular en unas horas.
El **porcentaje de victorias** cuenta las partidas «sin decidir» como perdidas; el
**intervalo de confianza** del 95 % las tiene en cuenta por los dos lados (se explica más
abajo).
""")

code("""
def pct(x, cifras=1):
    return "—" if x is None else f"{100 * x:.{cifras}f} %".replace(".", ",")

def num(n):
    return f"{n:,}".replace(",", ".")

def variante(e):
    cambios = {k: v for k, v in e["variant"].items() if sn.GAMES[e["game"]].variants[k].default != v}
    return ", ".join(f"`{k}={v}`" for k, v in cambios.items()) or "reglas de la página"

filas = ["| juego | variante | partidas | límite de posiciones | tienen solución | no tienen solución "
         "| sin decidir | porcentaje de victorias | intervalo de confianza (95 %) |",
         "|---|---|---|---|---|---|---|---|---|"]
for e in datos["entries"]:
    hechas = f"{num(e['computed_deals'])} de {num(e['planned_deals'])} (nº {e['planned_first']}–{num(e['planned_last'])})"
    inicio = f"| {e['display_name']} | {variante(e)} | {hechas} | {num(e['max_states'])} |"
    if e["computed_deals"]:
        filas.append(f"{inicio} {num(e['won'])} | {num(e['lost'])} | {num(e['unknown'])} | {pct(e['rate'])} | "
                     f"{pct(e['interval_low'])} – {pct(e['interval_high'])} |")
    else:
        filas.append(f"{inicio} | | | sin datos todavía | |")
display(Markdown("\\n".join(filas)))
""")

md("""
Fíjate en la columna «sin decidir». En los dos castillos sin devoluciones son pocas, y el
intervalo es útil. En Moving Left son todas: el resolvedor no consigue decidir esas partidas
dentro de su límite, y el intervalo va del 0 % al 100 %. En Baker's Dozen quedan pocas, pero
el intervalo también llega casi al 100 %: casi todas las partidas decididas tienen solución,
y que una no la tenga solo se demuestra cuando el resolvedor ha recorrido todas las
posiciones a las que se puede llegar, algo que casi nunca cabe en su límite. En Scotch quedan
pocas; su intervalo es ancho sobre todo porque el atlas solo tiene 200 partidas de Scotch.
El atlas lo muestra tal cual en vez de adivinar: una partida sin decidir puede tener solución
o no tenerla.
""")

md("""
## El gráfico

Cada punto es el porcentaje de victorias (las «sin decidir» cuentan como perdidas); la
barra gruesa llega hasta el porcentaje que habría si todas las «sin decidir» tuvieran
solución, y la línea fina es el intervalo de confianza del 95 %. Cuanto más corta la línea,
más seguro es el dato: se acorta con más partidas y con menos partidas sin decidir.
""")

code("""
con_datos = [e for e in datos["entries"] if e["computed_deals"]]
fig, ax = plt.subplots(figsize=(8, 0.5 * len(con_datos) + 2.2), layout="constrained")
for y, e in enumerate(con_datos):
    ax.plot([100 * e["interval_low"], 100 * e["interval_high"]], [y, y], color="0.35", lw=1.2,
            label="intervalo de confianza del 95 %" if y == 0 else None)
    ax.plot([100 * e["rate"], 100 * e["rate_high"]], [y, y], color="tab:orange", lw=6, alpha=0.5,
            solid_capstyle="butt", label="partidas sin decidir" if y == 0 else None)
    ax.plot(100 * e["rate"], y, "o", color="tab:blue",
            label="porcentaje de victorias" if y == 0 else None)
bg = datos["blake_gent"]
y_bg = next((y for y, e in enumerate(con_datos) if e["key"] == bg["entry"]), None)
if y_bg is not None:
    ax.plot(100 * bg["published_rate"], y_bg, "D", color="tab:red", ms=6, label="Blake y Gent (2019)")
ax.set_yticks(range(len(con_datos)))
ax.set_yticklabels([f"{e['display_name']} ({variante(e).replace('`', '')}; {num(e['computed_deals'])} partidas)"
                    for e in con_datos])
ax.invert_yaxis()
ax.set_xlim(0, 100)
ax.set_xlabel("porcentaje de victorias (%)")
ax.set_title("Porcentaje de victorias por juego y variante")
ax.grid(axis="x", alpha=0.3)
fig.legend(loc="outside lower center", ncol=2, frameon=False)
display(fig)
plt.close(fig)
""")

md("""
## Cómo se calcula el intervalo de confianza

Si de $n$ partidas $g$ tienen solución, $g/n$ es una estimación del porcentaje de victorias
de **todas** las partidas posibles del juego, pero otra muestra de $n$ partidas daría otro
número. El intervalo de confianza del 95 % indica el margen: un método que acierta 95 veces
de cada 100. Usamos el **intervalo de Wilson**, que se porta bien incluso cuando casi todas
(o casi ninguna) de las partidas se ganan: con 0 victorias de 10 da de 0 % a 27,8 %, no un
imposible «0 % exacto».

Las partidas sin decidir se tratan como **Blake y Gent** en su estudio de 2019: el extremo
inferior del intervalo las cuenta todas como perdidas y el superior todas como ganadas. Así
el intervalo es honesto: nunca es más estrecho de lo que permiten las partidas que faltan por
decidir.
""")

code("""
from solitaire_nb.winrate import bracketed_interval, wilson

for g, n in [(50, 100), (0, 10), (10, 10)]:
    lo, hi = wilson(g, n)
    print(f"{g} de {n}: intervalo de Wilson {pct(lo)} – {pct(hi)}")
lo, hi = bracketed_interval(50, 10, 100)
print(f"50 ganadas y 10 sin decidir de 100: {pct(lo)} – {pct(hi)}")
""")

md("""
## Citadel frente a Beleaguered Castle, partida a partida

Citadel es Beleaguered Castle con dos reglas más: durante el reparto, la carta que admite su
base va directamente a ella, y después de cada movimiento las cartas que pueden subir a la
base suben solas (juego automático a la base). Como las dos juegan con las **mismas barajas**
para el mismo número de partida, podemos compararlas partida a partida: ¿cuántas partidas
gana una y no la otra?

La comparación se hace sin devolver cartas de la base al juego (`takeback=False`), como las
juegan PySolFC y la mayoría de los resolvedores, y también con las reglas de la página
(con devoluciones) cuando hay datos.
""")

code("""
nombres = {e["key"]: f"{e['display_name']} ({variante(e).replace('`', '')})" for e in datos["entries"]}
for p in datos["pairs"]:
    a, b = nombres[p["a"]], nombres[p["b"]]
    print(f"{a} frente a {b}: {num(p['common_deals'])} partidas con las mismas barajas")
    if not p["common_deals"]:
        print("  todavía no hay partidas comunes en el atlas\\n")
        continue
    print(f"  las dos tienen solución:        {p['both_won']}")
    print(f"  solo Citadel tiene solución:    {p['only_a']}")
    print(f"  solo Beleaguered Castle:        {p['only_b']}")
    print(f"  ninguna tiene solución:         {p['both_lost']}")
    print(f"  alguna queda sin decidir:       {p['undecided']}")
    if p["only_a_deals"]:
        print("  partidas que solo gana Citadel (nº):", ", ".join(map(str, p["only_a_deals"][:12])))
    if p["only_b_deals"]:
        print("  partidas que solo gana Beleaguered Castle (nº):", ", ".join(map(str, p["only_b_deals"][:12])))
    print()
""")

md("""
No es obvio que Citadel gane siempre que gane Beleaguered Castle: el juego automático a la
base no se puede rechazar, y a veces una carta que sube sola hacía falta en el tablero para
apoyar otra. Por eso la comparación partida a partida dice más que comparar dos porcentajes.
Puedes abrir cualquiera de esas partidas en los dos juegos con
`sn.new_game("citadel", seed=N, takeback=False)` y `sn.new_game("beleaguered_castle", seed=N, takeback=False)`.
""")

md("""
## Moving Left: ¿de verdad solo un 15 %?

En Moving Left hay cartas **boca abajo** en el tablero y un **mazo** que solo se recorre una
vez. Un jugador no sabe qué carta saldrá al dar la vuelta a una carta boca abajo o al pasar
una carta del mazo al descarte; el resolvedor, en cambio, **lo ve todo**. A esto se le llama
resolver «con ventaja» (en inglés, *thoughtful solitaire*): el resolvedor juega como un
jugador que conociera de antemano la posición de cada carta.

Por eso el porcentaje del atlas para Moving Left es un **techo**: ningún jugador puede ganar
más partidas que alguien que ve todas las cartas. Un jugador real gana menos, porque a veces
elige un movimiento que parecía bueno y que una carta escondida convierte en un error sin
remedio. El 15 % de la página se refiere a jugadores reales, así que solo es plausible si
queda por debajo del techo.

Hoy el atlas no puede responder: con dos barajas, cartas boca abajo y un mazo, el número de
posiciones crece tanto que el resolvedor no decide casi ninguna partida de Moving Left dentro
de su límite. El intervalo sale casi de 0 % a 100 % y no confirma ni desmiente el 15 %.
""")

code("""
for e in datos["entries"]:
    if e["game"] != "moving_left":
        continue
    if not e["computed_deals"]:
        print(f"Moving Left ({variante(e).replace('`', '')}): sin datos todavía.")
        continue
    print(f"Moving Left ({variante(e).replace('`', '')}), «con ventaja»: {e['won']} de {e['computed_deals']} "
          f"partidas tienen solución; intervalo de confianza del 95 %: {pct(e['interval_low'])} – "
          f"{pct(e['interval_high'])}.")
    if e["interval_high"] < 0.15:
        print("  El techo queda por debajo del 15 %: la cifra de la página sería demasiado optimista.")
    elif e["interval_low"] > 0.15:
        print("  Incluso el extremo inferior supera el 15 %: la cifra de la página es plausible "
              "para un jugador real, que gana menos que el resolvedor con ventaja.")
    else:
        print("  El intervalo todavía contiene el 15 %: hacen falta más partidas decididas para opinar.")
""")

md("""
## ¿Coincidimos con Blake y Gent?

Charlie Blake e Ian Gent resolvieron en 2019 dos millones de partidas de Beleaguered Castle
sin devolver cartas de la base y publicaron un **68,170 % ± 0,099 %** de partidas con
solución. Nuestras reglas con `takeback=False` son las suyas, pero nuestros repartos son
otros (los números de partida de este paquete), así que no esperamos la misma cifra exacta:
esperamos que los dos intervalos **se solapen**. Para que la comparación diga algo, el atlas
debe llegar a 20.000 partidas con pocas sin decidir.

¿Por qué nuestro intervalo es mucho más ancho? Por las partidas **sin decidir**: el extremo
inferior las cuenta como perdidas y el superior como ganadas. Las partidas sin solución
suelen demostrarse enseguida; las que quedan sin decidir son, sobre todo, partidas con una
solución que el resolvedor no encuentra dentro de su límite de posiciones. Un «tiene solución»
o un «no tiene solución» del atlas es siempre seguro; lo que falta es decidir más partidas.
""")

code("""
bg = datos["blake_gent"]
print(f"Blake y Gent: {pct(bg['published_low'], 3)} – {pct(bg['published_high'], 3)} (2.000.000 partidas)")
print(f"Este atlas:   {pct(bg['our_low'], 3)} – {pct(bg['our_high'], 3)} ({num(bg['our_deals'])} partidas)")
if not bg["enough_deals"]:
    print(f"Todavía no hay partidas suficientes: faltan {num(20_000 - bg['our_deals'])} para llegar a 20.000.")
elif bg["overlap"]:
    print("Los intervalos se solapan: nuestros datos no contradicen a Blake y Gent.")
else:
    print("Los intervalos NO se solapan: algo no cuadra (¿reglas distintas? ¿un error?).")
bc = next(e for e in datos["entries"] if e["key"] == bg["entry"])
ancho = 100 * (bg["our_high"] - bg["our_low"])
print(f"Nuestro intervalo mide {ancho:.1f} puntos".replace(".", ",") + f" porque {pct(bc['unknown'] / bc['deals'])} "
      f"de las partidas quedan sin decidir con {num(bc['max_states'])} posiciones por partida.")
esperadas = round(bg["published_rate"] * bc["deals"]) - bc["won"]
print(f"Si el porcentaje real fuera el de Blake y Gent, unas {num(max(esperadas, 0))} de las "
      f"{num(bc['unknown'])} sin decidir tendrían solución.")
""")

md("""
## Recalcular unas partidas en directo

`sn.win_rate` resuelve una serie de partidas y devuelve el recuento, el porcentaje y el
intervalo. Aquí lo usamos con muy pocas partidas y un límite pequeño de posiciones, para que
tarde unos segundos; por eso saldrán más partidas «sin decidir» que en el atlas.
`executor=InProcessExecutor()` hace el trabajo en este mismo proceso (en JupyterLite no hay
otro remedio); sin ese argumento, `win_rate` reparte las partidas entre todos los núcleos del
ordenador.
""")

code("""
muestra = sn.win_rate("beleaguered_castle", range(1, 9), max_states=3000, takeback=False,
                      executor=InProcessExecutor())
print(muestra.texto())
for r in muestra.records:
    print(f"partida nº {r.deal}: {sn.winrate.STATUS_ES[r.status]} ({r.states} posiciones)")
""")

md("""
Para estudios grandes, `win_rate` acepta `out="estudio.csv"`: cada partida resuelta se
guarda al momento y, si el cálculo se interrumpe, al repetir la misma orden solo se resuelven
las que faltan. Y con un clúster de Dask (`pip install "solitaire_nb[dask]"`) el trabajo se
reparte entre varias máquinas:

```python
from distributed import Client
cliente = Client("tcp://direccion-del-planificador:8786")
sn.win_rate("scotch", range(1, 10_001), max_states=100_000,
            executor=cliente.get_executor(), out="scotch.csv")
```

Para ampliar el atlas: `python benchmarks/atlas.py --hours 2` (continúa donde se quedó y
reescribe `data/atlas.json`).
""")


def main() -> None:
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nbformat.write(nb, HERE / "07_probabilidades.ipynb")


if __name__ == "__main__":
    main()
