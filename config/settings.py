"""Fairsheet settings: one module, driven by environment variables.

DATABASE_URL     PostgreSQL (the database of record) as postgres://user@host:port/name;
                 unset: an SQLite file in the project folder, for a quick local run.
DATABASE_OWNER_URL  PostgreSQL only: the role that owns the tables and migrates them; then
                 DATABASE_URL's role is the runtime role, which owns nothing (README).
DJANGO_DEBUG     "1" for development (the default under `make run`), "0" in production.
DJANGO_SECRET_KEY required when DJANGO_DEBUG is 0.
DJANGO_AUDIT_KEY  "id:secret", the audit trail's MAC key; required when DJANGO_DEBUG is 0.
DJANGO_ALLOWED_HOSTS  comma-separated; defaults to the loopback names.
DJANGO_HTTPS, DJANGO_PROXY_SSL_HEADER, DJANGO_SSL_REDIRECT, DJANGO_HSTS_*: production over
                 HTTPS, below; DJANGO_CLIENT_IP_HEADER: the client's address behind a proxy.
"""

import os
import re
import warnings
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = os.environ.get("DJANGO_DEBUG", "1") == "1"
# Django's technical pages for a missing page or an error (the URL patterns, the settings, a
# traceback) only when asked: under DEBUG the site shows its own 404 and 500 pages too, as in
# production, to whoever `make run` serves (characters.middleware.SiteErrorPagesMiddleware).
DEBUG_PAGES = DEBUG and os.environ.get("DJANGO_DEBUG_PAGES", "0") == "1"
DEFAULT_EXCEPTION_REPORTER = "characters.middleware.SiteErrorReporter"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("Set DJANGO_SECRET_KEY when DJANGO_DEBUG=0.")
    SECRET_KEY = "dev-only-not-secret-fairsheet"
# The key every audit event's MAC is made with (characters.audit_chain), "id:secret": kept out
# of the database, so no database role can sign an event. Older keys, "id:secret,...", still
# verify the events signed with them after a rotation.
AUDIT_KEY = os.environ.get("DJANGO_AUDIT_KEY", "")
if not AUDIT_KEY:
    if not DEBUG:
        raise RuntimeError("Set DJANGO_AUDIT_KEY (id:secret) when DJANGO_DEBUG=0.")
    AUDIT_KEY = "dev:dev-only-not-secret-fairsheet-audit"
AUDIT_OLD_KEYS = [key for key in os.environ.get("DJANGO_AUDIT_OLD_KEYS", "").split(",") if key]
ALLOWED_HOSTS = os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]").split(",")

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "django_tasks_db",
    "characters",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "characters.middleware.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions, before CommonMiddleware (Django's order): the language cookie, else the
    # browser's Accept-Language, else LANGUAGE_CODE (docs/translations.md).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Before the token's check and LoginRequired: a Foundry page's preflight carries no token,
    # and a refused token's answer still says which origin may read it.
    "characters.api_auth.FoundryOriginsMiddleware",
    # Before CSRF and LoginRequired: a Bearer token's user is on the request when they check.
    "characters.api_auth.ApiTokenMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    # After sessions and auth: a signed-in person's own choice of language wins over the
    # cookie and the browser (characters/middleware.py).
    "characters.middleware.AccountLanguageMiddleware",
    "characters.middleware.GmWordsMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Inside sessions, auth and messages: its page is the site's, with the header.
    "characters.middleware.MethodNotAllowedPageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "characters.middleware.VaryOnHtmxMiddleware",
    # Innermost: the site's own 404 page under DEBUG too (DEBUG_PAGES above), every header
    # of the middleware around it on it, request.htmx set for it.
    "characters.middleware.SiteErrorPagesMiddleware",
]

ROOT_URLCONF = "config.urls"
# An expired form, said as a page or (htmx) in the page's alerts.
CSRF_FAILURE_VIEW = "characters.views.errors.csrf_failure"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                # Django's csrf processor (built in) masks the token at every render: once
                # a request here.
                "characters.csrf.csrf",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "characters.selectors.notifications.header_notifications",
            ],
        },
    },
]

# Django's form renderer with the plainest widgets drawn in Python: the builder page draws
# some 240 of them (characters/forms/renderer.py).
FORM_RENDERER = "characters.forms.renderer.QuickRenderer"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=60
    )
}
# -- database roles (hardening): the app runs as a role that owns nothing; migrations run
# as the owner (`manage.py migrate` then defaults to --database owner, and grants the
# runtime role its rights: characters/db_roles.py). Tests create their database as the
# owner and run as the runtime role, on the same test database (TEST MIRROR).
if os.environ.get("DATABASE_OWNER_URL") and DATABASES["default"]["ENGINE"].endswith("postgresql"):
    DATABASES["owner"] = dj_database_url.parse(os.environ["DATABASE_OWNER_URL"])
    DATABASES["owner"]["TEST"] = {"MIRROR": "default"}
    DATABASE_ROUTERS = ["characters.db_roles.OwnerWhileMigratingRouter"]
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # Prepared statements (issue 40): PostgreSQL planned the builder's character query in
    # 0.39 ms and ran it in 0.15. With the values bound by the server, psycopg prepares a
    # statement a connection has run PREPARE_AFTER times, and the same statement with other
    # values is then run without planning it again: 1.5 ms less a trait edit. `0` turns it
    # off, for a pooler that cannot keep prepared statements (PgBouncer in transaction mode
    # before 1.21, or without max_prepared_statements): the values are then bound here, as
    # Django does by default.
    PREPARE_AFTER = int(os.environ.get("DATABASE_PREPARE_AFTER", "5"))
    if PREPARE_AFTER:  # beside what DATABASE_URL's query string asks (sslmode=require...)
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=PREPARE_AFTER
        )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL and a busy timeout let the dev server and a second tab write without "locked".
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
# -- cache (hardening): in the database, so every app server shares it. `manage.py migrate`
# makes its table. (The throttles of characters/throttle.py count in a table of their own,
# ThrottleCount, raised and read in one statement.) For Redis instead:
# {"BACKEND": "django.core.cache.backends.redis.RedisCache",
#  "LOCATION": "redis://127.0.0.1:6379"}.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "fairsheet_cache",
        "OPTIONS": {"MAX_ENTRIES": 100_000},
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# -- throttling (hardening, characters/throttle.py): where the client's address is. Behind a
# proxy, the header it sets, e.g. DJANGO_CLIENT_IP_HEADER=HTTP_X_FORWARDED_FOR.
CLIENT_IP_HEADER = os.environ.get("DJANGO_CLIENT_IP_HEADER", "REMOTE_ADDR")
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "home"

# -- languages (issue 30; docs/translations.md). English is the source language: every string
# is written in it and a missing translation falls back to it. A language is one .po file in
# locale/<code>/LC_MESSAGES/django.po; `make run` and `make test` compile it (the .mo files are
# built, never committed). Numbers and dates follow the active language (Django always
# localises them: "1,5" in French).
LANGUAGE_CODE = "en-gb"
LANGUAGES = [("en-gb", "English"), ("fr", "Français"), ("es", "Español"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
# The language cookie lives a year, like a setting: the account keeps it across browsers.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True  # no script reads it

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# WhiteNoise serves static files in production straight from the apps' and static/ folders
# (no collectstatic step needed for a small deployment).
WHITENOISE_USE_FINDERS = True
# So STATIC_ROOT is only where an optional collectstatic would write: WhiteNoise need not warn
# at every worker's start that it is missing.
warnings.filterwarnings(
    "ignore", message=re.escape(f"No directory at: {STATIC_ROOT}"), category=UserWarning
)
# Files the app writes, outside the database: finished campaign packs (services.printing),
# tens of MB each, streamed from here on download. A folder on this machine by default
# (FAIRSHEET_FILES_DIR); web servers and workers on several machines share one storage, e.g.
# S3-compatible through django-storages (README, "Background workers").
MEDIA_ROOT = Path(os.environ.get("FAIRSHEET_FILES_DIR", BASE_DIR / "media"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "packs": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": MEDIA_ROOT / "packs"},
    },
}

# Django's built-in Content Security Policy: only our own scripts, styles and fonts.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}
SESSION_COOKIE_HTTPONLY = True
# A session's row names its user, read with it in one statement (characters/sessions.py).
SESSION_ENGINE = "characters.sessions"
AUTHENTICATION_BACKENDS = ["characters.sessions.SessionUserBackend"]
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# -- production over HTTPS (hardening; README, "Production settings"). With DJANGO_DEBUG=0
# the site is HTTPS only unless DJANGO_HTTPS=0 (a plain-HTTP run on 127.0.0.1, as the web
# benchmark's). Behind a proxy that ends TLS, DJANGO_PROXY_SSL_HEADER names the header it
# sets for an HTTPS request (X-Forwarded-Proto: https); DJANGO_SSL_REDIRECT=0 when the
# proxy itself redirects plain HTTP. `manage.py check --deploy` then has nothing to say.
if not DEBUG and os.environ.get("DJANGO_HTTPS", "1") == "1":
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = os.environ.get("DJANGO_SSL_REDIRECT", "1") == "1"
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # a load balancer probes over plain HTTP
    if not SECURE_SSL_REDIRECT:
        SILENCED_SYSTEM_CHECKS = ["security.W008"]  # the proxy redirects instead
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", 365 * 24 * 3600))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = os.environ.get("DJANGO_HSTS_SUBDOMAINS", "1") == "1"
    SECURE_HSTS_PRELOAD = os.environ.get("DJANGO_HSTS_PRELOAD", "1") == "1"
    if os.environ.get("DJANGO_PROXY_SSL_HEADER"):
        header = os.environ["DJANGO_PROXY_SSL_HEADER"].upper().replace("-", "_")
        SECURE_PROXY_SSL_HEADER = (f"HTTP_{header}", "https")
# Browser features Fairsheet never uses, switched off for its pages and anything they embed
# (characters/middleware.py sends the Permissions-Policy header).
PERMISSIONS_POLICY = {
    feature: []
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "encrypted-media",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "publickey-credentials-get",
        "screen-wake-lock",
        "usb",
        "xr-spatial-tracking",
    )
}

# -- print: background tasks and the PDF cache (docs/sheets.md) --
# Campaign packs render on Django's tasks framework with a database-backed queue
# (django-tasks-db): `manage.py db_worker` runs them, on this machine (`make run` starts
# one) or on any other that reaches the same database.
# Campaign packs have a queue of their own ("packs", `db_worker --queue-name packs`): nothing
# else takes a pack worker's turn. E-mail is no task: it waits in the outbox (MAIL_* below).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["packs", "webhooks"]}}
# Campaign webhooks (characters/services/webhooks.py): each roll is posted by the "webhooks"
# queue's worker, which waits WEBHOOK_TIMEOUT_SECONDS for an answer; a failed post is tried
# again after WEBHOOK_RETRY_SECONDS, twice as long each time up to WEBHOOK_RETRY_MOST_SECONDS,
# WEBHOOK_ATTEMPTS times in all. Only https on public addresses: WEBHOOK_ALLOW_LOOPBACK (the
# tests' setting, no variable) also lets posts go to 127.0.0.1 over plain http.
WEBHOOK_TIMEOUT_SECONDS = float(os.environ.get("FAIRSHEET_WEBHOOK_TIMEOUT", "10"))
WEBHOOK_RETRY_SECONDS = float(os.environ.get("FAIRSHEET_WEBHOOK_RETRY", "30"))
WEBHOOK_RETRY_MOST_SECONDS = 3600
WEBHOOK_ATTEMPTS = 10
WEBHOOK_ALLOW_LOOPBACK = False
# Fair shares of the PDF renderer in the web server (characters/render_slots.py): renders
# one user may run at once across every process, requests one process lets render or wait
# (the rest of its threads stay free for pages), and how long a request waits for its turn
# before it is told to try again.
PDF_RENDERS_PER_USER = int(os.environ.get("FAIRSHEET_PDF_PER_USER", "1"))
PDF_RENDERS_PER_PROCESS = int(os.environ.get("FAIRSHEET_PDF_PER_PROCESS", "2"))
PDF_WAIT_SECONDS = float(os.environ.get("FAIRSHEET_PDF_WAIT", "2"))
# Portraits (characters/images.py): pictures one web process decodes at once, and how long
# an upload waits for its turn before it is told to try again (a 503 with Retry-After).
PORTRAIT_DECODES_PER_PROCESS = int(os.environ.get("FAIRSHEET_PORTRAIT_DECODES", "1"))
PORTRAIT_WAIT_SECONDS = float(os.environ.get("FAIRSHEET_PORTRAIT_WAIT", "2"))
# A pack's worker says it is alive at every step and every quarter of this; a running pack
# without a word for this long lost its worker, and is queued again (services.printing).
PACK_LEASE_SECONDS = int(os.environ.get("FAIRSHEET_PACK_LEASE", "60"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}

# -- interop (issue 14): API tokens for scripts, docs/api.md ------------------------------------
# How many requests one token may make, per window of seconds; past it the answer is 429 with
# Retry-After. FAIRSHEET_API_RATE sets the requests a minute.
API_TOKEN_THROTTLE = (int(os.environ.get("FAIRSHEET_API_RATE", "120")), 60)
# The Foundry VTT servers whose pages may read a character's Foundry actor with a token, for
# the pull macro (docs/foundry.md): "https://foundry.example.org http://localhost:30000".
# Cross-origin reads are allowed for that one address only (characters/api_auth.py).
FOUNDRY_ORIGINS = frozenset(
    origin.rstrip("/").lower()
    for origin in os.environ.get("FAIRSHEET_FOUNDRY_ORIGINS", "").replace(",", " ").split()
)
# It counts in the database (ThrottleCount), like every throttle of characters/throttle.py:
# every app server sees the same count, raised and read in one statement.

# Notifications go out by e-mail to players who gave an address (services.notifications).
# In development the console: nothing leaves the machine. In production an SMTP server,
# DJANGO_EMAIL_HOST (README, "E-mail").
_MAIL_BACKEND = os.environ.get(
    "DJANGO_EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
# Mail waits in the outbox (OutgoingMail) until `manage.py send_mail_outbox` sends it
# (services.mail_outbox): a slow server delays only that sender, each of its socket waits at
# most MAIL_TIMEOUT_SECONDS. A sender holds a mail for MAIL_LEASE_SECONDS, more than an SMTP
# conversation's half-dozen waits: a mail still held past it lost its sender (killed
# mid-send), and another sends it. A failed send is tried again after MAIL_RETRY_SECONDS,
# twice as long each time up to MAIL_RETRY_MOST_SECONDS, and given up after MAIL_ATTEMPTS
# tries or MAIL_GIVE_UP_SECONDS since it was queued.
MAIL_TIMEOUT_SECONDS = float(os.environ.get("FAIRSHEET_MAIL_TIMEOUT", "10"))
MAIL_LEASE_SECONDS = float(
    os.environ.get("FAIRSHEET_MAIL_LEASE", str(6 * MAIL_TIMEOUT_SECONDS + 30))
)
MAIL_RETRY_SECONDS = float(os.environ.get("FAIRSHEET_MAIL_RETRY", "60"))
MAIL_RETRY_MOST_SECONDS = 3600
MAIL_ATTEMPTS = 30
MAIL_GIVE_UP_SECONDS = 24 * 3600
_MAIL_OPTIONS = {}
if _MAIL_BACKEND.endswith(".smtp.EmailBackend"):
    _MAIL_OPTIONS = {
        "host": os.environ.get("DJANGO_EMAIL_HOST", "localhost"),
        "port": int(os.environ.get("DJANGO_EMAIL_PORT", "25")),
        "username": os.environ.get("DJANGO_EMAIL_USER", ""),
        "password": os.environ.get("DJANGO_EMAIL_PASSWORD", ""),
        "use_tls": os.environ.get("DJANGO_EMAIL_TLS", "0") == "1",
        "timeout": MAIL_TIMEOUT_SECONDS,
    }
MAILERS = {"default": {"BACKEND": _MAIL_BACKEND, "OPTIONS": _MAIL_OPTIONS}}
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_EMAIL_FROM", "Fairsheet <fairsheet@localhost>")
