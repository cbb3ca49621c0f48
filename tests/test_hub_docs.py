"""The hub deployment files the project ships (docs/hub/), read back: the JupyterHub configuration
as Python (tests/test_hub.py also runs it under a real hub) and Zero to JupyterHub's Helm values
as YAML (no cluster here: they must say the same as the configuration that is run)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solitaire_nb.board.challenge import HUB_URL_ENV
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
    (clase,) = c.JupyterHub.services.get_value([])
    assert clase["name"] == service and clase["url"] == f"http://127.0.0.1:{ns['PUERTO']}"
    assert clase["command"][1:] == ["-m", "solitaire_nb.classroom", "--hub", "--reto", ns["RETO"], "--registro", ns["REGISTRO"]]
    roles = {r["name"]: r for r in c.JupyterHub.load_roles.get_value([])}
    access = f"access:services!service={service}"
    assert access in roles["server"]["scopes"] and "access:servers!server" in roles["server"]["scopes"]
    assert roles[f"docentes-{service}"]["groups"] == [TEACHERS]
    assert c.JupyterHub.load_groups.get_value({})[TEACHERS]["users"] == ns["DOCENTES"]
    env = c.Spawner.environment.get_value({})
    assert env[HUB_URL_ENV] == f"http://127.0.0.1:{ns['PUERTO']}/services/{service}"
    assert c.Spawner.default_url == f"/voila/render/{ns['PAGINA']}"
    spanish = Path(c.JupyterHub.template_paths.get_value([])[0])  # before the hub's own
    assert (spanish / "login.html").is_file() and (spanish / "spawn_pending.html").is_file()


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
    port = int(clase["url"].rsplit(":", 1)[1])
    assert [p["port"] for p in v["hub"]["service"]["extraPorts"]] == [port]
    single = v["singleuser"]
    assert single["extraEnv"][HUB_URL_ENV] == f"{clase['url']}/services/{service}"
    assert single["defaultUrl"] == c.Spawner.default_url
    templates = next(line for line in (HUB / "jupyterhub_config.py").read_text(encoding="utf-8").splitlines()
                     if "template_paths" in line).split("  #")[0]  # fmt: skip
    assert templates in v["hub"]["extraConfig"]["solitaire_nb"].splitlines()
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
