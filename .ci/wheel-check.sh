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
venv/bin/optimus sandbox doctor
# Full mode runs the folder's tests (pytest) in the sandbox: once on every backend that works here. With
# OPTIMUS_REQUIRE_SANDBOXES=1 (CI) a backend that does not work is a failure, not a skip.
solved=()
for backend in docker bwrap process; do
  if ! venv/bin/optimus sandbox doctor --json | venv/bin/python -c "import json, sys; sys.exit(not any(
      r['backend'] == '$backend' and r['works'] for r in json.load(sys.stdin)))"; then
    if [ "${OPTIMUS_REQUIRE_SANDBOXES:-}" = 1 ]; then
      echo "wheel-check: the $backend sandbox does not work here (OPTIMUS_REQUIRE_SANDBOXES=1)" >&2
      exit 1
    fi
    echo "wheel-check: skipping $backend (it does not work here; see the doctor above)" >&2
    continue
  fi
  venv/bin/optimus solve problem --llm reference --mode full --sandbox "$backend"
  solved+=("$backend")
done
[ "${#solved[@]}" -gt 0 ] || { echo "wheel-check: no sandbox backend works here" >&2; exit 1; }
# The Python API from the wheel, as a notebook uses it.
venv/bin/python -c "import optimus; r = optimus.solve('problem', llm='reference', mode='prompt', sandbox='${solved[-1]}'); \
assert r.status == 'solved', r.status; print('wheel-check: optimus.solve ->', r.status, f'{r.objective:.8g}')"
echo "wheel-check: the installed wheel validated and solved nlp4lp/12 outside the checkout (full mode; ${solved[*]})"
