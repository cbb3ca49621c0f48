"""Build notebook 06 (Citadel frente a Beleaguered Castle, issue 5) from this single source.

    python notebooks/_construir_06.py
    jupyter nbconvert --to notebook --execute --inplace --ExecutePreprocessor.store_widget_state=True \
        notebooks/06_citadel_vs_beleaguered_castle.ipynb

Same conventions as `_construir.py` (notebooks 00-05): the first cell installs the package in
JupyterLite; ``nbval-check-output`` marks the cells whose output is deterministic and is
compared by nbval (exact fractions, a numbered engine deal, the engine cross-check).
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
FILENAME = "06_citadel_vs_beleaguered_castle.ipynb"
CHECK = "nbval-check-output"

from _construir import INSTALL  # noqa: E402  (the same first cell as every notebook)

cells: list = []


def md(text: str) -> None:
    cells.append(new_markdown_cell(text.strip("\n")))


def code(src: str, *tags: str) -> None:
    cell = new_code_cell(src.strip("\n"))
    if tags:
        cell.metadata["tags"] = list(tags)
    cells.append(cell)


code(INSTALL)

md(r"""
# Citadel frente a Beleaguered Castle: ¿cuánto acorta las columnas el reparto?

Citadel y Beleaguered Castle reparten la misma baraja de la misma manera: los cuatro Ases
empiezan en las bases y las otras 48 cartas van, fila a fila, a **ocho columnas**. Solo dos
reglas los separan. En Citadel, una carta que su base admite **en el momento de repartirla** va
a la base en lugar de a su columna, y esa columna se queda esa vuelta sin carta (regla CB-2);
y, al acabar el reparto, el **juego automático a la base** sube todas las cartas de arriba que
encajan (CB-7). En Beleaguered Castle no pasa nada de eso (CB-8): sus ocho columnas tienen
siempre seis cartas.

La pregunta de este cuaderno: **¿cuántas cartas menos deja Citadel en la mesa, y qué columnas
acorta más?** La responderemos de dos maneras que tienen que coincidir: con una cuenta que se
puede seguir a mano, con lápiz y papel, y con una simulación de muchos repartos.

Las reglas completas de los dos juegos, con un tablero para jugar, están en
[05 · Citadel y Beleaguered Castle](05_citadel_y_beleaguered_castle.ipynb).

> **Necesita NumPy y matplotlib.** En JupyterLite (Python en el navegador) se descargan la
> primera vez que se usan, así que este cuaderno necesita conexión; la simulación también es más
> lenta en el navegador.
""")

code('''
import matplotlib.pyplot as plt  # en JupyterLite, estas importaciones descargan matplotlib y NumPy
import numpy as np
from IPython.display import Markdown, display

import solitaire_nb as sn
from solitaire_nb import study
from solitaire_nb import study_plots as graficos


def es(x, decimales=1):
    """Un número con coma decimal, como se escribe en español."""
    return f"{x:.{decimales}f}".replace(".", ",")


def miles(n):
    """Un entero con punto de miles: 1.000.000."""
    return f"{n:,}".replace(",", ".")
''')

md("""
## Un mismo reparto, dos juegos

Empecemos con una sola baraja, la de la partida nº 1234, repartida de las dos maneras. El
informe del reparto de Citadel (`deal_report`) dice qué cartas fueron a la base, a qué columna
iban, y qué cartas subió después el juego automático.
""")

code('''
citadel = sn.new_game("citadel", seed=1234)
castillo = sn.new_game("beleaguered_castle", seed=1234)
informe = citadel.deal_report
for carta, pila in zip(informe.to_foundations, informe.meant_for):
    print(f"{str(carta):>4} iba al {citadel.label(pila)} y fue a la base durante el reparto")
for carta, pila in zip(informe.autoplay, informe.autoplay_from):
    print(f"{str(carta):>4} subió a la base desde el {citadel.label(pila)} con el juego automático")
print()
print("Cartas por columna en Beleaguered Castle:", [len(castillo.piles[f"T{i}"]) for i in range(8)])
print("Cartas por columna en Citadel:           ", [len(citadel.piles[f"T{i}"]) for i in range(8)])
''', CHECK)

md("""
Fíjate en que los cuatro 2 van a la base, y en que un 3 solo va si el 2 de su palo salió antes.
Una carta que llega «demasiado pronto» se queda en su columna, aunque poco después su base ya
pudiera admitirla: el reparto no vuelve a mirar las cartas ya repartidas. Solo si acaba arriba
de su columna la rescata el juego automático.

## La cuenta a mano

**El 2 siempre va a la base.** Su As está en la base desde el principio, así que cuando sale
el 2, la base lo admite.

**El 3 va a la base si sale después del 2 de su palo.** Si sale antes, la base todavía tiene
solo el As y el 3 se queda en su columna. En una baraja bien mezclada, el 2 y el 3 de un palo
salen en un orden o en el otro con la misma probabilidad: **1/2**.

**El 4 va a la base si el 2, el 3 y el 4 salen en ese orden.** Hace falta que el 3 haya ido a la
base (el 2 antes que el 3) y que el 4 salga después del 3. De los 3! = 6 órdenes posibles de esas
tres cartas, solo uno sirve: **1/6**.

**En general, la carta de valor k va a la base si 2, 3, …, k salen en orden creciente**, con
probabilidad 1/(k−1)!. Las cartas de otros palos que salgan entre medias no importan: solo cuenta
el orden de las cartas de un mismo palo entre sí, y los 12! órdenes son igual de probables.

La media de cartas de un palo que van a la base es la suma de esas probabilidades, y con cuatro
palos (la media de una suma es la suma de las medias):

$$E[\\text{cartas a la base}] = 4\\left(\\frac{1}{1!} + \\frac{1}{2!} + \\frac{1}{3!} + \\cdots + \\frac{1}{12!}\\right) \\approx 4\\,(e-1) \\approx 6{,}87.$$

**La distribución completa.** Un palo manda **exactamente** m cartas a la base cuando del 2 al
m+1 salen en orden creciente pero la carta siguiente, la m+2, sale antes que la m+1:
probabilidad 1/m! − 1/(m+1)!. Mezclar la baraja mezcla cada palo por su cuenta, así que los
cuatro palos son independientes y la ley del total se obtiene combinando las cuatro (una
*convolución*). Por ejemplo, solo van los cuatro 2 cuando en cada palo el 3 sale antes que el 2:
(1/2)⁴ = 1/16.

El paquete hace estas cuentas con fracciones exactas:
""")

code('''
media = study.expected_cards_home(exact=True)
print("Media exacta de cartas a la base durante el reparto:", media, "≈", es(float(media), 4))
print()
ley = study.cards_home_distribution(exact=True)
for k in range(4, 13):
    print(f"P({k:2d} cartas a la base) = {es(float(ley[k]), 4)}")
print("Probabilidad de que las 48 vayan a la base: 1 entre", ley[48].denominator // ley[48].numerator)
''', CHECK)

md(r"""
**¿Y cada columna?** La columna Tablero c+1 iba a recibir las cartas que salen en los puestos
c, c+8, c+16, …, c+40 (contando desde 0 las 48 cartas que no son Ases). Cuanto más tarde sale una
carta, más probable es que las de su palo que necesita ya estén en la base. La primera carta
solo puede ir a la base si es un 2: probabilidad 4/48 = 1/12. En el puesto i, la carta es un
palo y un valor k concretos con probabilidad 1/48, y va a la base si las j = k−2 cartas menores
de su palo (sin contar el As) salieron en alguno de los i puestos anteriores, y en orden:

$$P(\text{la carta del puesto } i \text{ va a la base}) = \frac{4}{48}\sum_{j=0}^{11} \frac{\binom{i}{j}}{\binom{47}{j}\, j!}.$$

Cada columna pierde de media la suma de esas probabilidades en sus seis puestos. En cada vuelta
la última columna recibe su carta la última, así que es la que más se acorta.
""")

code('''
longitudes = study.expected_column_lengths(exact=True)
for c, largo in enumerate(longitudes):
    print(f"Tablero {c + 1}: {es(float(largo), 3)} cartas de media (6 en Beleaguered Castle)")
print()
print(f"En la mesa tras el reparto: {es(float(sum(longitudes)), 3)} cartas = 48 − {es(float(media), 3)}")
''', CHECK)

md("""
Son cuentas exactas para el momento en que acaba el reparto, **antes** del juego automático.
Lo que hace el juego automático depende de qué cartas quedan arriba de cada columna y no tiene una
fórmula sencilla: lo mediremos con la simulación. (Las pruebas del paquete comprueban además estas
fórmulas contando uno a uno todos los órdenes de barajas reducidas, con menos palos y valores.)

## La simulación

`study.simulate` reparte N barajas mezcladas al azar **de las dos maneras**: cada baraja como
Citadel y como Beleaguered Castle (una comparación por parejas: las diferencias no vienen de
barajas distintas). Para cada reparto anota la longitud de cada columna tras el reparto y tras
el juego automático, las cartas que fueron a la base en cada momento, la columna más larga y la
más corta. Está vectorizada con NumPy, así que un millón de repartos tarda unos segundos.

Las barajas salen del generador de NumPy (`numpy.random.default_rng(SEMILLA)`), no de los
repartos numerados de las partidas: la misma semilla da siempre las mismas barajas.

Cambia `N` y vuelve a ejecutar el cuaderno para ver cómo se estrechan los intervalos de
confianza; más abajo hay también un deslizador.
""")

code('''
N = 50_000       # número de repartos: prueba con 1_000_000
SEMILLA = 2026   # la misma semilla da las mismas barajas
resultados = study.simulate(N, seed=SEMILLA, progress=True)
print(f"{miles(resultados.n)} repartos simulados, cada uno como Citadel y como Beleaguered Castle")
''')

md("""
**¿Coinciden la simulación y el motor de reglas?** La simulación rápida no usa el motor de
reglas del paquete: hace las mismas cuentas con tablas de NumPy. Repartimos las primeras
barajas también con el motor (`sn.new_game(..., deck=...)`, como se juega una partida) y
comparamos reparto a reparto.
""")

code('''
muestra = resultados.decks[:200]
motor = study.simulate_engine(muestra)
rapida = study.deal_decks(muestra)
iguales = all(
    np.array_equal(getattr(motor, momento).lengths, getattr(rapida, momento).lengths)
    for momento in ("beleaguered", "after_deal", "citadel")
)
iguales &= np.array_equal(motor.home_in_deal, rapida.home_in_deal)
iguales &= np.array_equal(motor.autoplay_moved, rapida.autoplay_moved)
print(f"¿Coinciden los dos caminos en los {len(muestra)} repartos?", "sí" if iguales else "NO")
''', CHECK)

md("""
## Los números, con su intervalo de confianza

Cada media va con su **intervalo de confianza** del 95 %: media ± 1,96 · desviación típica / √N.
Con más repartos, el intervalo se estrecha.
""")

code('''
resumen = study.summary(resultados)
nombres = {
    "on_table_bc": "Cartas en la mesa en Beleaguered Castle",
    "on_table_after_deal": "Cartas en la mesa en Citadel, tras el reparto",
    "on_table": "Cartas en la mesa en Citadel, tras el juego automático",
    "fewer_on_table": "**Cartas menos en la mesa con Citadel**",
    "home_in_deal": "Cartas a la base durante el reparto",
    "autoplay_moved": "Cartas a la base con el juego automático",
    "longest": "Columna más larga de Citadel",
    "shortest": "Columna más corta de Citadel",
}
filas = ["| | media | intervalo de confianza del 95 % |", "|---|---:|:---:|"]
for clave, nombre in nombres.items():
    m, bajo, alto = resumen[clave]
    filas.append(f"| {nombre} | {es(m, 2)} | {es(bajo, 3)} – {es(alto, 3)} |")
display(Markdown("\\n".join(filas)))
''')

md("""
El resultado en una frase (calculada a partir de la simulación, no escrita a mano):
""")

code('''
menos, bajo, alto = resumen["fewer_on_table"]
medias = resultados.citadel.lengths.mean(axis=0)
corta = int(medias.argmin())
display(Markdown(
    f"**Citadel deja de media {es(menos)} cartas menos en la mesa que Beleaguered Castle** "
    f"(intervalo de confianza del 95 %: de {es(bajo, 2)} a {es(alto, 2)}): "
    f"{es(resumen['home_in_deal'][0])} van a la base durante el reparto "
    f"(la cuenta exacta da {es(float(media), 2)}) y {es(resumen['autoplay_moved'][0], 2)} con el juego "
    f"automático. La columna que más se acorta es el Tablero {corta + 1}, con "
    f"{es(medias[corta], 2)} cartas de media en lugar de 6."
))
''')

md("""
## Las gráficas

**Un reparto típico, de las dos maneras.** Una de las barajas de la simulación cuyo número de
cartas en la mesa de Citadel es el más frecuente (la mediana). Arriba, las bases con su carta de
arriba y cuántas cartas tienen; abajo, las ocho columnas.
""")

code('''
graficos.plot_typical_deal(resultados);
''')

md("""
**Cartas que quedan en la mesa.** Beleaguered Castle deja siempre 48; Citadel, bastantes menos,
y el juego automático que sigue al reparto quita alguna más.
""")

code('''
graficos.plot_cards_on_table(resultados);
''')

md("""
**Longitud media de cada columna.** Las bandas son los intervalos de confianza del 95 %; las
rayas negras, la cuenta exacta de antes (solo el reparto). Las columnas de la derecha reciben
sus cartas más tarde en cada vuelta y por eso se acortan más.
""")

code('''
graficos.plot_column_lengths(resultados);
''')

md("""
**La cuenta exacta frente a la simulación.** Las barras son la proporción de repartos que
mandaron 4, 5, 6… cartas a la base durante el reparto; los puntos, la probabilidad exacta.
""")

code('''
graficos.plot_cards_home(resultados);
''')

md("""
¿Se parecen lo bastante? Una **prueba chi-cuadrado** compara la frecuencia de cada número de
cartas con lo que predice la cuenta exacta (juntando las colas donde se esperan menos de 5
repartos), y una **prueba z** compara la media. Un valor p muy pequeño (por debajo de 0,001, por
ejemplo) diría que la simulación y la cuenta no encajan; un valor p mayor dice que las
diferencias son las que cabe esperar del azar.
""")

code('''
observado = np.bincount(resultados.home_in_deal, minlength=49)
prueba = study.chi_square_test(observado, study.cards_home_distribution())
print(f"Chi-cuadrado: χ² = {es(prueba.statistic, 1)} con {prueba.df} grados de libertad, "
      f"valor p = {es(prueba.p_value, 3)}")
exacta, desviacion = study.cards_home_moments()
z = (resultados.home_in_deal.mean() - exacta) / (desviacion / np.sqrt(resultados.n))
print(f"Media simulada {es(resultados.home_in_deal.mean(), 3)} frente a la exacta {es(exacta, 3)}: z = {es(z, 2)}")
''')

md("""
**La columna más larga y la más corta.** La columna más larga de Citadel casi siempre sigue
teniendo seis cartas: el reparto no acorta todas las columnas, sino unas pocas, y mucho. Donde se
nota es en la columna más corta.
""")

code('''
graficos.plot_longest_column(resultados);
''')

code('''
graficos.plot_extreme_column(resultados, which="shortest");
''')

md("""
**¿Cuántas columnas tienen cada longitud?** En un reparto medio de Citadel, unas tres columnas
siguen con seis cartas; las demás pierden una o dos, y de vez en cuando más.
""")

code('''
graficos.plot_length_counts(resultados);
''')

md("""
## Explora: cambia el número de repartos

Elige cuántos repartos simular y pulsa **Simular**. Con un millón, el intervalo de confianza es
unas treinta veces más estrecho que con 1.000: su anchura baja como 1/√N, y √1000 ≈ 32.
""")

code('''
import ipywidgets as widgets

opciones = [(miles(n), n) for n in (1_000, 10_000, 100_000, 1_000_000)]
deslizador = widgets.SelectionSlider(options=opciones, value=10_000, description="Repartos")
boton = widgets.Button(description="Simular", button_style="primary")
salida = widgets.Output()


def simular(_):
    with salida:
        salida.clear_output(wait=True)
        r = study.simulate(deslizador.value, seed=SEMILLA, progress=True)
        menos, bajo, alto = study.summary(r)["fewer_on_table"]
        print(f"Con {miles(r.n)} repartos, Citadel deja de media {es(menos, 2)} cartas menos en la mesa "
              f"(intervalo de confianza del 95 %: de {es(bajo, 3)} a {es(alto, 3)}).")
        figura = graficos.plot_column_lengths(r)
        display(figura)
        plt.close(figura)


boton.on_click(simular)
display(widgets.VBox([widgets.HBox([deslizador, boton]), salida]))
''')

md("""
## En resumen

- Durante el reparto de Citadel van a la base, de media, 4·(1/1! + 1/2! + … + 1/12!) ≈ 6,87
  cartas: el 2 de cada palo siempre, el 3 la mitad de las veces, el 4 una de cada seis…
- El juego automático que sigue al reparto añade algo menos de media carta más.
- Las columnas de la derecha son las que más se acortan, porque reciben sus cartas más tarde en
  cada vuelta; la columna más larga casi siempre conserva sus seis cartas.
- La simulación (vectorizada, comprobada reparto a reparto contra el motor de reglas) y la
  cuenta exacta coinciden dentro de lo que permite el azar.

Para jugar a los dos juegos y ver sus reglas una a una, vuelve a
[05 · Citadel y Beleaguered Castle](05_citadel_y_beleaguered_castle.ipynb).
""")


def main() -> Path:
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    path = HERE / FILENAME
    nbformat.write(nb, path)
    return path


if __name__ == "__main__":
    print(main())
