# solitaire_nb en un JupyterHub: el reto de clase y la clase en común de las lecciones 06, 07 y 08
# como servicios del hub (docs/hub.md).
#
# En The Littlest JupyterHub (TLJH), copia este archivo en /opt/tljh/config/jupyterhub_config.d/
# y ejecuta `sudo tljh-config reload`. En otro JupyterHub, añádelo al final de tu
# jupyterhub_config.py. Cambia solo los valores de arriba. Las pruebas del proyecto arrancan un
# JupyterHub real con este mismo archivo (tests/test_hub.py), cambiando estos valores.
import sys
from pathlib import Path

import solitaire_nb
from solitaire_nb.classroom.hub import student_server

SERVICIO = "clase"  # el servicio queda en /services/clase/; su página del docente, /services/clase/docente
PUERTO = 10101  # puerto del servicio en esta máquina (solo dentro de ella)
RETO = "citadel/2000"  # el reparto que juega la clase (un código de partida sin movimientos)
REGISTRO = "/srv/solitaire_nb/reto.sqlite"  # el registro del reto: en un disco que se conserve
DOCENTES = ["profe"]  # usuarios del hub que ven la página del docente (el grupo «docentes»)
CLASES = {"06": 10106, "07": 10107, "08": 10108}  # lecciones que juntan los datos de la clase, y el puerto de cada una
PAGINA = "reto.ipynb"  # la página del reto en la carpeta de cada alumno (docs/hub.md: cómo llega allí)
PYTHON = sys.executable  # el Python que tiene instalado solitaire_nb (en TLJH, el del hub)

c = get_config()  # noqa: F821 (JupyterHub lo define al leer este archivo)
servicios = [SERVICIO] + [f"clase{leccion}" for leccion in CLASES]  # la clase en común de la 06: /services/clase06/
accesos = [f"access:services!service={nombre}" for nombre in servicios]

# El servicio: el hub lo arranca, le da su dirección y su token, y lo vuelve a arrancar si se para.
c.JupyterHub.services.append({
    "name": SERVICIO,
    "url": f"http://127.0.0.1:{PUERTO}",
    "command": [PYTHON, "-m", "solitaire_nb.classroom", "--hub", "--reto", RETO, "--registro", REGISTRO],
    "oauth_no_confirm": True,
    "info": {"nombre": "Reto de clase"},  # lo que dice el menú «Servicios» (la plantilla del paquete)
})
# La clase en común de cada lección (06: los repartos; 07: las partidas; 08: los juegos inventados),
# un servicio por lección, cada uno con su registro junto al del reto.
for leccion, puerto in CLASES.items():
    c.JupyterHub.services.append({
        "name": f"clase{leccion}",
        "url": f"http://127.0.0.1:{puerto}",
        "command": [PYTHON, "-m", "solitaire_nb.classroom", "--hub", leccion,
                    "--registro", str(Path(REGISTRO).with_name(f"clase{leccion}.sqlite"))],
        "oauth_no_confirm": True,
        "info": {"nombre": f"La clase en común ({leccion})"},
    })
# Quién puede hablar con los servicios: los servidores de los alumnos (el tablero manda con su
# token), cada usuario para su propio asiento, y el grupo «docentes» (las páginas del docente).
c.JupyterHub.load_roles.extend([
    {"name": "server", "scopes": ["users:activity!user", "access:servers!server", *accesos]},
    {"name": "user", "scopes": ["self", *accesos]},
    {"name": f"docentes-{SERVICIO}", "groups": ["docentes"], "scopes": accesos},
])
c.JupyterHub.load_groups.update({"docentes": {"users": DOCENTES}})
# Dónde encuentran los servicios el tablero y los widgets de cada alumno (su núcleo, en esta misma
# máquina), y la página sin código (Voila) en la que entra cada alumno.
c.Spawner.environment.update({"SNB_HUB_RETO_URL": f"http://127.0.0.1:{PUERTO}/services/{SERVICIO}"})
c.Spawner.environment.update({f"SNB_HUB_CLASE{leccion}_URL": f"http://127.0.0.1:{puerto}/services/clase{leccion}"
                              for leccion, puerto in CLASES.items()})
c.Spawner.default_url = f"/voila/render/{PAGINA}"
# Lo que ve cada alumno en su servidor: Voila con la plantilla «alumno» del paquete (sin código, sin
# celdas del docente, sin errores en inglés), la misma que usa el portátil; su carpeta como raíz.
opciones, entorno = student_server()
c.Spawner.args.extend(opciones)
c.Spawner.environment.update(entorno)
c.Spawner.notebook_dir = "~"
# Las páginas del hub (entrada, espera, inicio, claves, errores, salida), en español.
c.JupyterHub.template_paths.insert(0, str(Path(solitaire_nb.__file__).parent / "templates" / "hub"))  # antes que las del hub
