#!/usr/bin/env bash
# Install everything the stack needs, idempotently: Debian packages, Kafka jars, the Python
# virtualenv, the Go binaries and the built UI. Each step is skipped when its output is current.
#   infra/install.sh            everything
#   infra/install.sh test       also the test-only tools (Chromium, Playwright, gcc, vmagent, the bench references)
source "$(dirname "$0")/lib.sh"
want_test=${1:-}

# --- requirements, checked up front ------------------------------------------------------------
# What the stack needs, and the oldest version that works. A missing or too old tool is
# installed from Debian's packages when this release has a version that works; otherwise
# install.sh stops and says what to install.
go_min=$(sed -n 's/^go \([0-9.]*\)$/\1/p' "$VIGIL_ROOT"/storage/go.mod "$VIGIL_ROOT"/ingest/agent/go.mod \
  "$VIGIL_ROOT"/infra/compose/go.mod "$VIGIL_ROOT"/infra/vmagent/go.mod "$VIGIL_ROOT"/infra/promtool/go.mod | sort -V | tail -n 1)
node_min=20.19 # Vite: ^20.19 or >= 22.12
java_min=17    # Kafka 4
python_min=3.11
pg_min=15
python=${VIGIL_PYTHON:-python3}

apt_updated=
apt_update() {
  [ -z "$apt_updated" ] || return 0
  retry 3 apt-get update -qq || die "apt-get update failed"
  apt_updated=1
}
# debian_version PACKAGE: the upstream version apt would install (1.19 for 2:1.19~1), or "".
debian_version() {
  [ "$(id -u)" = 0 ] || return 0
  apt_update
  local v
  v=$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2}' | sed -E 's/^[0-9]+://; s/^\(none\)$//')
  case $1 in default-jre*) v=${v#1.} ;; esac # 2:1.17-74 is Java 17
  printf '%s\n' "${v%%[+~-]*}"
}
need=()
# want NAME HAVE MIN PACKAGE HOWTO: queue PACKAGE when HAVE is older than MIN and Debian's is new
# enough; stop with HOWTO otherwise.
want() {
  local name=$1 have=$2 min=$3 pkg=$4 howto=$5 cand
  if version_ge "$have" "$min"; then return 0; fi
  cand=$(debian_version "$pkg")
  if version_ge "$cand" "$min"; then need+=("$pkg"); return 0; fi
  if [ "$(id -u)" != 0 ] && [ -z "$cand" ]; then cand="unknown (run as root to look it up)"; fi
  die "$name $min or newer is required; found ${have:-none}, and this system's package $pkg is ${cand:-not available}. $howto"
}
want Go "$(go env GOVERSION 2>/dev/null | sed -E 's/^go//; s/[^0-9.].*//')" "$go_min" golang-go \
  "Install Go $go_min or newer (https://go.dev/dl/, or your distribution's backports) and put its bin/ first on PATH."
want Node.js "$(node -v 2>/dev/null | sed 's/^v//')" "$node_min" nodejs \
  "Install Node.js $node_min or newer with npm (NodeSource's nodejs package or nvm) and put it first on PATH."
# Debian ships npm apart from nodejs
if [[ " ${need[*]} " == *" nodejs "* ]] || ! command -v npm >/dev/null; then need+=(npm); fi
want Java "$(java -version 2>&1 | sed -nE '1s/.*version "([0-9]+)(\.[0-9]+)*.*/\1/p')" "$java_min" default-jre-headless \
  "Install a Java runtime $java_min or newer (e.g. apt-get install openjdk-17-jre-headless)."
command -v mvn >/dev/null || need+=(maven)
command -v curl >/dev/null || need+=(curl)
have_py=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || true)
want Python "$have_py" "$python_min" python3 "Install Python $python_min or newer and point VIGIL_PYTHON at it."
# Debian splits venv and ensurepip out of python3
if [ -n "$have_py" ] && ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
  if [ "$python" = python3 ] && [ "$(id -u)" = 0 ]; then need+=(python3-venv); else
    die "$python has no venv module: apt-get install python3-venv (or the venv package of your Python)"; fi
fi
if [ -z "${VIGIL_PG_BIN:-}" ]; then
  pg=$(debian_version postgresql)
  version_ge "$pg" "$pg_min" || die "PostgreSQL $pg_min or newer is required (server binaries under /usr/lib/postgresql/<version>/bin, or VIGIL_PG_BIN); this system's package postgresql is ${pg:-not available}."
  need+=("postgresql-${pg%%.*}" "postgresql-client-${pg%%.*}")
fi
if [ "$want_test" = test ]; then
  [ -x /usr/bin/chromium ] || need+=(chromium fonts-liberation)
  command -v gcc >/dev/null || need+=(gcc libc6-dev) # Go's race detector (make -C storage race)
fi
if [ ${#need[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || die "missing Debian packages (${need[*]}); install them as root: apt-get install ${need[*]}"
  apt_update
  say "installing Debian packages: ${need[*]}"
  retry 3 env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null \
    || die "could not install Debian packages: ${need[*]}"
  if [ -z "${VIGIL_PG_BIN:-}" ]; then source "$VIGIL_ROOT/infra/lib.sh"; fi # finds the new server binaries
fi
[ -n "${VIGIL_PG_BIN:-}" ] || die "no PostgreSQL server binaries under /usr/lib/postgresql/<version>/bin (set VIGIL_PG_BIN)"
ok "requirements present (Go >= $go_min, Node.js >= $node_min, Java >= $java_min, Python >= $python_min, PostgreSQL >= $pg_min in $VIGIL_PG_BIN)"

# --- Kafka -------------------------------------------------------------------------------------
"$VIGIL_ROOT/infra/kafka/install.sh"

# --- Python: one virtualenv for the ingest services, the backend and the benchmarks ----------------
# The dependencies are infra/requirements-dev.lock's (make lock writes it), hash-checked; the
# three parts go on top as editable installs, offline, which also proves that the lock holds
# everything their pyproject.toml files ask for. A changed lock rebuilds the virtualenv, so that
# it holds exactly what the lock says; a changed pyproject.toml reinstalls the parts.
lock="$VIGIL_ROOT/infra/requirements-dev.lock"
stamp="$VIGIL_VENV/.installed"
lock_sum=$(sha256sum "$lock" | cut -d' ' -f1)
parts=("$VIGIL_ROOT/ingest" "$VIGIL_ROOT/backend" "$VIGIL_ROOT/bench")
py_current() {
  [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$lock_sum" ] || return 1
  for p in "${parts[@]}"; do [ "$p/pyproject.toml" -ot "$stamp" ] || return 1; done
}
if py_current; then ok "python virtualenv current ($VIGIL_VENV)"; else
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" != "$lock_sum" ]; then
    say "infra/requirements-dev.lock changed: rebuilding the virtualenv"
    rm -rf "$VIGIL_VENV"
  fi
  say "installing Python packages into $VIGIL_VENV"
  [ -x "$VIGIL_VENV/bin/python" ] || "$python" -m venv "$VIGIL_VENV" || die "could not create a virtualenv (apt-get install python3-venv)"
  piplog="$VIGIL_LOG/install-pip.log"
  # only PyPI, and only the lock's files (a find-links directory of the machine is ignored)
  pip=(env -u PIP_FIND_LINKS "$VIGIL_VENV/bin/pip" --disable-pip-version-check)
  retry 3 "${pip[@]}" install -q --require-hashes --no-deps -r "$lock" >> "$piplog" 2>&1 \
    || { tail -n 30 "$piplog" >&2; die "pip install -r infra/requirements-dev.lock failed (see $piplog)"; }
  editable=()
  for p in "${parts[@]}"; do editable+=(-e "$p[test]"); done
  # --no-index: everything they need must already be there, from the lock
  if ! "${pip[@]}" install -q --no-index --no-build-isolation "${editable[@]}" >> "$piplog" 2>&1; then
    tail -n 5 "$piplog" >&2
    die "a pyproject.toml asks for a package or version infra/requirements-dev.lock does not have: run make lock (see $piplog)"
  fi
  echo "$lock_sum" > "$stamp"
  ok "python packages installed"
fi

# --- Go binaries ---------------------------------------------------------------------------------
build_go() { # name dir
  local name=$1 dir=$2 out="$VIGIL_BIN/$1"
  if [ -x "$out" ] && [ -z "$(find "$dir" -newer "$out" \( -name '*.go' -o -name go.mod -o -name go.sum \) -print -quit)" ]; then
    ok "$name current"; return 0
  fi
  say "building $name (first build downloads Go modules)"
  retry 2 make -s -C "$dir" build BIN_DIR="$VIGIL_BIN" || die "building $name failed"
  ok "$name built"
}
build_go vigil-storage "$VIGIL_ROOT/storage"
build_go vigil-agent "$VIGIL_ROOT/ingest/agent"

# --- UI --------------------------------------------------------------------------------------------
npm_ci() { # dir
  local dir=$1
  if [ -d "$dir/node_modules" ] && [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]; then return 0; fi
  say "installing npm packages in ${dir#"$VIGIL_ROOT"/}"
  (cd "$dir" && retry 3 npm ci --no-audit --no-fund --loglevel=error) || die "npm ci failed in $dir"
}
npm_ci "$VIGIL_ROOT/frontend"
if [ -f "$VIGIL_UI_DIR/index.html" ] && [ -z "$(find "$VIGIL_ROOT/frontend/src" "$VIGIL_ROOT/frontend/index.html" "$VIGIL_ROOT/frontend/vite.config.ts" "$VIGIL_ROOT/frontend/package-lock.json" -newer "$VIGIL_UI_DIR/index.html" -print -quit)" ]; then
  ok "UI build current"
else
  say "building the UI"
  (cd "$VIGIL_ROOT/frontend" && npm run -s build >/dev/null) || die "UI build failed (cd frontend && npm run build)"
  ok "UI built into ${VIGIL_UI_DIR#"$VIGIL_ROOT"/}"
fi

# --- test-only tools -----------------------------------------------------------------------------
if [ "$want_test" = test ]; then
  npm_ci "$VIGIL_ROOT/e2e"
  "$VIGIL_ROOT/infra/vmagent/install.sh"
  "$VIGIL_ROOT/infra/promtool/install.sh" # backend: tests/api/routes/test_promtool.py
  "$VIGIL_ROOT/infra/golangci-lint/install.sh" # make lint
  "$VIGIL_ROOT/bench/install.sh" || die "building the benchmark reference systems failed (bench/install.sh)"
fi
