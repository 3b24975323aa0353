"""The files of ``deploy/`` say the production topology: PostgreSQL, Redis, two ``punto
serve`` processes sharing them and a secret from the environment, a TLS-terminating proxy
publishing 443 in front of both; the image runs ``punto serve`` without ``--demo``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from punto.server.config import Settings

yaml = pytest.importorskip("yaml")

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
PUNTO = ("punto-1", "punto-2")


def _compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return loaded


def _interpolate(text: str, values: dict[str, str]) -> str:
    """Compose's ``${NAME}``, ``${NAME:?message}`` and ``${NAME:-default}`` with ``values``."""

    def one(match: re.Match[str]) -> str:
        name, how, rest = match.group(1), match.group(2), match.group(3)
        if name in values:
            return values[name]
        assert how == ":-", f"${{{name}}} has no value and no default"
        return rest

    return re.sub(r"\$\{(\w+)(?:(:[?-])([^}]*))?\}", one, text)


def _entrypoint() -> list[str]:
    lines = (DEPLOY / "Containerfile").read_text().splitlines()
    (entry,) = [line for line in lines if line.startswith("ENTRYPOINT")]
    command: list[str] = json.loads(entry.removeprefix("ENTRYPOINT"))
    return command


def test_compose_runs_postgres_redis_two_servers_and_a_proxy() -> None:
    services = _compose()["services"]
    assert set(services) == {"postgres", "redis", *PUNTO, "proxy"}
    assert services["postgres"]["image"].split("/")[-1].startswith("postgres:")
    assert services["redis"]["image"].split("/")[-1].startswith("redis:")
    assert services["proxy"]["image"].split("/")[-1].startswith("caddy:")
    for name in PUNTO:
        punto = services[name]
        assert punto["build"] == {"context": "..", "dockerfile": "deploy/Containerfile"}
        assert punto["image"] == services["punto-1"]["image"]
        assert set(punto["depends_on"]) == {"postgres", "redis"}
        assert "ports" not in punto  # reached only through the proxy
        env = punto["environment"]
        assert env["PUNTO_SECRET"].startswith("${PUNTO_SECRET:?")  # from the env, never here
        assert env["PUNTO_PROCESS_ID"] == name
    shared = ("PUNTO_SECRET", "PUNTO_DATABASE_URL", "PUNTO_REDIS_URL", "PUNTO_ENV")
    one, two = (services[name]["environment"] for name in PUNTO)
    assert {k: one[k] for k in shared} == {k: two[k] for k in shared}


def test_the_servers_settings_are_production_on_the_shared_database_and_redis() -> None:
    secret = "s" * 64
    for name in PUNTO:
        env = {
            key: _interpolate(str(value), {"PUNTO_SECRET": secret, "POSTGRES_PASSWORD": "pw"})
            for key, value in _compose()["services"][name]["environment"].items()
        }
        settings = Settings.from_env(env)
        assert settings.production_problems() == []
        assert settings.environment == "production"
        assert not settings.demo
        assert settings.secret == secret
        assert settings.database_url == "postgresql+asyncpg://punto:pw@postgres:5432/punto"
        assert settings.redis_url == "redis://redis:6379/0"
        assert settings.process_id == name
        # uvicorn trusts the proxy's X-Forwarded-* from the compose network
        assert env["FORWARDED_ALLOW_IPS"] == "*"
    postgres = _compose()["services"]["postgres"]["environment"]
    assert (postgres["POSTGRES_USER"], postgres["POSTGRES_DB"]) == ("punto", "punto")


def test_the_proxy_publishes_443_and_balances_both_servers() -> None:
    proxy = _compose()["services"]["proxy"]
    published = [_interpolate(p, {}) for p in proxy["ports"]]
    assert "443:443" in published
    assert "80:80" in published  # ACME's HTTP challenge and the redirect to HTTPS
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    port = _entrypoint()[_entrypoint().index("--port") + 1]
    env = proxy["environment"]
    assert (env["PUNTO_UPSTREAM_1"], env["PUNTO_UPSTREAM_2"]) == (
        f"punto-1:{port}",
        f"punto-2:{port}",
    )
    caddyfile = (DEPLOY / "Caddyfile").read_text()
    assert "reverse_proxy {$PUNTO_UPSTREAM_1:punto-1:8000} {$PUNTO_UPSTREAM_2:punto-2:8000}" in (
        caddyfile
    )
    assert "health_uri /healthz" in caddyfile
    assert "tls {$PUNTO_TLS:internal}" in caddyfile


def test_the_image_serves_without_demo_as_a_user() -> None:
    command = _entrypoint()
    assert command[:2] == ["punto", "serve"]
    assert "--demo" not in command
    assert command[command.index("--host") + 1] == "0.0.0.0"
    text = (DEPLOY / "Containerfile").read_text()
    users = re.findall(r"^USER (\S+)", text, flags=re.MULTILINE)
    assert users
    assert users[-1] not in ("root", "0")
    assert "PUNTO_ENV=production" in text
    (health,) = [line for line in text.splitlines() if "urlopen(" in line]
    url = f"127.0.0.1:{command[command.index('--port') + 1]}/healthz"
    assert url in health
    for name in PUNTO:  # said again in compose.yaml: podman's OCI images carry no HEALTHCHECK
        assert url in " ".join(_compose()["services"][name]["healthcheck"]["test"])


def test_no_secret_is_committed() -> None:
    example = dict(
        line.split("=", 1)
        for line in (DEPLOY / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert example["PUNTO_SECRET"] == ""
    assert example["POSTGRES_PASSWORD"] == ""
    ignored = (DEPLOY.parent / ".gitignore").read_text().splitlines()
    assert "deploy/.env" in ignored
