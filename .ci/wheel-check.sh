#!/usr/bin/env bash
# The package as a user installs it: build the wheel, install it into a fresh venv outside the checkout, and run
# validate, an offline solve and the sandbox doctor from there — nothing may read files from the checkout.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --upgrade pip 2> >(grep -v "^WARNING: Location" >&2)
"$work/venv/bin/pip" wheel --quiet --no-deps -w "$work/dist" "$repo" 2> >(grep -v "^WARNING: Location" >&2)
"$work/venv/bin/pip" install --quiet "$work"/dist/optimus-*.whl 2> >(grep -v "^WARNING: Location" >&2)
cp -r "$repo/nlp4lp/12" "$work/problem"
rm -rf "$work/problem/runs"
cd "$work"
export OPTIMUS_HOME="$work/home"
venv/bin/optimus validate problem
venv/bin/optimus solve problem --llm reference --mode full
venv/bin/optimus sandbox doctor
echo "wheel-check: the installed wheel validated and solved nlp4lp/12 outside the checkout"
