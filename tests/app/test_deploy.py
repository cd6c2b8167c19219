"""Production settings (config/settings.py): with DJANGO_DEBUG=0, a real secret key and the
proxy's HTTPS header, `manage.py check --deploy` has nothing to say, plain HTTP is
redirected (but for the health check), HSTS is sent; and every page sends a
Permissions-Policy header."""

import json
import os
import secrets
import subprocess
import sys

import pytest

from tests.conftest import ROOT

PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
    "DJANGO_AUDIT_KEY": f"2026:{secrets.token_urlsafe(32)}",
    "DJANGO_PROXY_SSL_HEADER": "X-Forwarded-Proto",
    "DJANGO_ALLOWED_HOSTS": "fairsheet.example",
}


def manage(*args, **env):
    # Not the browser tests' DJANGO_ALLOW_ASYNC_UNSAFE: a deployment never sets it.
    inherited = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**inherited, **PRODUCTION, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_has_nothing_to_say():
    process = manage("check", "--deploy", "--fail-level", "WARNING")
    assert (process.returncode, process.stderr) == (0, "")
    assert process.stdout == "System check identified no issues (0 silenced).\n"


@pytest.mark.parametrize("variable", ["DJANGO_SECRET_KEY", "DJANGO_AUDIT_KEY"])
def test_production_refuses_to_start_without_its_keys(variable):
    process = manage("check", "--deploy", **{variable: ""})
    assert process.returncode == 1
    assert f"Set {variable}" in process.stderr


def test_a_malformed_audit_key_stops_the_checks():
    process = manage("check", "--deploy", DJANGO_AUDIT_KEY="no-id-and-a-short-secret")
    assert process.returncode == 1
    assert "(characters.E001) DJANGO_AUDIT_KEY and DJANGO_AUDIT_OLD_KEYS take id:secret" in (
        process.stderr
    )


def test_a_proxy_that_redirects_itself_turns_the_redirect_off():
    process = manage("check", "--deploy", "--fail-level", "WARNING", DJANGO_SSL_REDIRECT="0")
    assert (process.returncode, process.stderr) == (0, "")
    assert process.stdout == "System check identified no issues (1 silenced).\n"


# A request through Django's test client in a process with the production settings.
PROBE = """
import json
from django.test import Client
client = Client(HTTP_HOST="fairsheet.example")
answers = {}
for name, path, extra in [
    ("plain", "/", {}),
    ("health", "/healthz", {}),
    ("https", "/", {"HTTP_X_FORWARDED_PROTO": "https"}),
]:
    response = client.get(path, **extra)
    answers[name] = [response.status_code, dict(response.headers)]
print(json.dumps(answers))
"""


def test_production_redirects_to_https_and_sends_hsts():
    process = manage("shell", "-c", PROBE)
    assert process.returncode == 0, process.stderr
    answers = json.loads(process.stdout.splitlines()[-1])
    status, headers = answers["plain"]
    assert (status, headers["Location"]) == (301, "https://fairsheet.example/")
    status, headers = answers["health"]
    assert status == 200  # the load balancer's probe stays on plain HTTP
    status, headers = answers["https"]
    assert status == 200
    assert headers["Strict-Transport-Security"] == ("max-age=31536000; includeSubDomains; preload")
    assert "camera=()" in headers["Permissions-Policy"]


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/healthz"])
def test_every_page_sends_a_permissions_policy(client, db, path):
    policy = client.get(path)["Permissions-Policy"]
    features = dict(item.split("=") for item in policy.split(", "))
    assert features["camera"] == features["microphone"] == features["geolocation"] == "()"
    assert features["payment"] == features["usb"] == "()"
    assert len(features) == 15
