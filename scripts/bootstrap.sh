#!/usr/bin/env bash
# Make .venv ready to run (or, with --dev, to test) Fairsheet. Idempotent: a second run
# only compares checksums, so `make run` and `make test` stay quick after the first time.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-run}
venv=.venv

find_python() {
  # Django 6 needs Python 3.12+; the system python3 may be older, so also look in pyenv.
  local candidates=(python3.13 python3.12 python3)
  if command -v pyenv >/dev/null 2>&1; then
    local root; root=$(pyenv root)
    for v in "$root"/versions/3.13* "$root"/versions/3.12*; do
      [ -x "$v/bin/python3" ] && candidates=("$v/bin/python3" "${candidates[@]}")
    done
  fi
  for py in "${candidates[@]}"; do
    if command -v "$py" >/dev/null 2>&1 &&
       "$py" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then
      command -v "$py"; return 0
    fi
  done
  return 1
}

if [ ! -x "$venv/bin/python" ] ||
   ! "$venv/bin/python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)'; then
  py=$(find_python) || { echo "Fairsheet needs Python 3.12 or newer: install one (or pyenv install 3.12) and retry." >&2; exit 1; }
  echo "Creating $venv with $py"
  rm -rf "$venv"
  "$py" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --upgrade pip
fi

install_requirements() {
  local file=$1 stamp="$venv/.installed-$(basename "$1")"
  local sum; sum=$(cat "$file" requirements.txt | sha256sum | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$sum" ]; then
    echo "Installing $file"
    "$venv/bin/python" -m pip install --quiet -r "$file"
    echo "$sum" > "$stamp"
  fi
}

# WeasyPrint needs Pango and HarfBuzz from the system; the tests also need a real
# Chromium (browser tests) and poppler-utils (pdftoppm renders PDF pages to PNG).
# fonts-noto-core: Noto Sans Symbols, for the symbols the shipped fonts lack (characters/pdf.py).
# gettext: msgfmt, which `make run` and `make test` use to compile the translations
# (manage.py compilemessages), and xgettext for `manage.py makemessages`.
debian_packages=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-noto-core gettext)
if [ "$mode" = dev ]; then
  debian_packages+=(chromium poppler-utils)
fi
missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for pkg in "${debian_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
  done
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing Debian packages: ${missing[*]}"
  sudo_cmd=(); [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

install_requirements requirements.txt
if [ "$mode" = dev ]; then
  install_requirements requirements-dev.txt
fi
