"""The hub deployment files the project ships (docs/hub/), read back: the JupyterHub configuration
as Python (tests/test_hub.py also runs it under a real hub) and Zero to JupyterHub's Helm values
as YAML (no cluster here: they must say the same as the configuration that is run)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solitaire_nb.board.challenge import HUB_URL_ENV
from solitaire_nb.board.deal_pool import HUB_URL_ENV as POOL_URL_ENV
from solitaire_nb.classroom.hub_auth import TEACHERS

REPO = Path(__file__).resolve().parents[1]
HUB = REPO / "docs" / "hub"


def tljh_config():
    """docs/hub/jupyterhub_config.py read as JupyterHub reads it (a traitlets Config)."""
    from traitlets.config import Config

    c = Config()
    namespace = {"get_config": lambda: c, "__file__": str(HUB / "jupyterhub_config.py")}
    exec(compile((HUB / "jupyterhub_config.py").read_text(encoding="utf-8"), "jupyterhub_config.py", "exec"), namespace)
    return c, namespace


def values() -> dict:
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load((HUB / "z2jh-config.yaml").read_text(encoding="utf-8"))


def test_the_tljh_configuration_names_the_service_its_roles_and_the_teachers_group():
    c, ns = tljh_config()
    service = ns["SERVICIO"]
    clase, *pools = c.JupyterHub.services.get_value([])
    assert clase["name"] == service and clase["url"] == f"http://127.0.0.1:{ns['PUERTO']}"
    assert clase["info"]["nombre"] == "Reto de clase"
    assert clase["command"][1:] == ["-m", "solitaire_nb.classroom", "--hub", "--reto", ns["RETO"], "--registro", ns["REGISTRO"]]
    roles = {r["name"]: r for r in c.JupyterHub.load_roles.get_value([])}
    access = f"access:services!service={service}"
    assert access in roles["server"]["scopes"] and "access:servers!server" in roles["server"]["scopes"]
    assert roles[f"docentes-{service}"]["groups"] == [TEACHERS]
    assert c.JupyterHub.load_groups.get_value({})[TEACHERS]["users"] == ns["DOCENTES"]
    env = c.Spawner.environment.get_value({})
    assert env[HUB_URL_ENV] == f"http://127.0.0.1:{ns['PUERTO']}/services/{service}"
    assert c.Spawner.default_url == f"/voila/render/{ns['PAGINA']}"
    # A service per lesson's class pool, its record beside the challenge's, its address in each kernel.
    assert [p["name"] for p in pools] == [f"clase{lesson}" for lesson in ("06", "07", "08")] == [f"clase{k}" for k in ns["CLASES"]]
    for pool, (lesson, port) in zip(pools, ns["CLASES"].items(), strict=True):
        assert pool["url"] == f"http://127.0.0.1:{port}"
        assert pool["command"][1:] == ["-m", "solitaire_nb.classroom", "--hub", lesson, "--registro",
                                       str(Path(ns["REGISTRO"]).with_name(f"clase{lesson}.sqlite"))]  # fmt: skip
        assert env[POOL_URL_ENV.format(lesson=lesson)] == f"{pool['url']}/services/{pool['name']}"
        assert pool["info"]["nombre"] == f"La clase en común ({lesson})"  # the «Servicios» menu's words
        for role in ("server", "user", f"docentes-{service}"):
            assert f"access:services!service={pool['name']}" in roles[role]["scopes"]
    spanish = Path(c.JupyterHub.template_paths.get_value([])[0])  # before the hub's own
    for page in ("login", "spawn_pending", "page", "home", "token", "error", "404", "logout", "not_running", "stop_pending"):
        assert (spanish / f"{page}.html").is_file(), page
    # Each student's server: Voila with the launcher's student template, its own folder as its root.
    from solitaire_nb.classroom.hub import student_server

    options, _ = student_server()
    assert c.Spawner.args.get_value([]) == options and "--VoilaConfiguration.template=alumno" in options
    assert (Path(env["JUPYTER_PATH"]) / "voila" / "templates" / "alumno" / "index.html.j2").is_file()
    assert c.Spawner.notebook_dir == "~"


def test_the_helm_values_say_what_the_tested_configuration_says():
    c, ns = tljh_config()
    v = values()
    service = ns["SERVICIO"]
    clase = v["hub"]["services"][service]
    assert clase["url"].startswith("http://hub:") and clase["command"][1:5] == ["-m", "solitaire_nb.classroom", "--hub", "--reto"]
    record = clase["command"][clase["command"].index("--registro") + 1]
    assert record.startswith("/srv/jupyterhub/") and v["hub"]["db"]["type"] == "sqlite-pvc"  # the hub's volume
    tested = {r["name"]: r for r in c.JupyterHub.load_roles.get_value([])}
    for name, role in v["hub"]["loadRoles"].items():
        assert sorted(role["scopes"]) == sorted(tested[name]["scopes"]), name
        assert role.get("groups") == tested[name].get("groups"), name
    assert set(v["hub"]["config"]["JupyterHub"]["load_groups"]) == {TEACHERS}
    ports = [int(s["url"].rsplit(":", 1)[1]) for s in v["hub"]["services"].values()]
    assert [p["port"] for p in v["hub"]["service"]["extraPorts"]] == ports
    assert [{"port": p} for p in ports] == v["hub"]["networkPolicy"]["ingress"][0]["ports"]
    assert [{"port": p} for p in ports] == v["singleuser"]["networkPolicy"]["egress"][0]["ports"]
    single = v["singleuser"]
    assert single["extraEnv"][HUB_URL_ENV] == f"{clase['url']}/services/{service}"
    tested_pools = {s["name"]: s for s in c.JupyterHub.services.get_value([])[1:]}
    for lesson in ns["CLASES"]:
        pool = v["hub"]["services"][f"clase{lesson}"]
        assert pool["command"][1:5] == ["-m", "solitaire_nb.classroom", "--hub", lesson]
        assert pool["command"][-1] == f"/srv/jupyterhub/clase{lesson}.sqlite"
        assert pool["url"].rsplit(":", 1)[1] == tested_pools[f"clase{lesson}"]["url"].rsplit(":", 1)[1]
        assert single["extraEnv"][POOL_URL_ENV.format(lesson=lesson)] == f"{pool['url']}/services/clase{lesson}"
    assert single["defaultUrl"] == c.Spawner.default_url
    templates = next(line for line in (HUB / "jupyterhub_config.py").read_text(encoding="utf-8").splitlines()
                     if "template_paths" in line).split("  #")[0]  # fmt: skip
    extra = v["hub"]["extraConfig"]["solitaire_nb"].splitlines()
    assert templates in extra
    for line in ("opciones, entorno = student_server()", "c.Spawner.args.extend(opciones)", 'c.Spawner.notebook_dir = "~"'):
        assert line in extra and line in (HUB / "jupyterhub_config.py").read_text(encoding="utf-8").splitlines(), line
    python = re.search(r"base-notebook:python-(\d+\.\d+)", (HUB / "Dockerfile.alumno").read_text(encoding="utf-8")).group(1)
    assert single["extraEnv"]["JUPYTER_PATH"] == f"/opt/conda/lib/python{python}/site-packages/solitaire_nb/templates"
    # The pages the student image writes are the ones copied into each student's folder.
    dockerfile = (HUB / "Dockerfile.alumno").read_text(encoding="utf-8")
    written = re.search(r"--paginas (\S+)", dockerfile).group(1)
    assert written in " ".join(single["lifecycleHooks"]["postStart"]["exec"]["command"])


def test_the_hub_page_says_what_was_not_run():
    text = (REPO / "docs" / "hub.md").read_text(encoding="utf-8")
    assert "no probado en un clúster" in text.lower()
    assert "(hub/jupyterhub_config.py)" in text
    for shipped in ("z2jh-config.yaml", "Dockerfile.hub", "Dockerfile.alumno"):
        assert f"(hub/{shipped})" in text, shipped
        assert "NO PROBADO EN UN CLÚSTER" in (HUB / shipped).read_text(encoding="utf-8"), shipped
