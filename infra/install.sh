#!/usr/bin/env bash
# Install everything the stack needs, idempotently: Debian packages, Kafka jars, the Python
# virtualenv, the Go binaries and the built UI. Each step is skipped when its output is current.
#   infra/install.sh            everything
#   infra/install.sh test       also the test-only tools (Chromium, Playwright, gcc, vmagent, the bench references)
source "$(dirname "$0")/lib.sh"
want_test=${1:-}

# --- Debian packages -------------------------------------------------------------------------
apt_updated=
apt_install() {
  [ "$(id -u)" = 0 ] || die "missing Debian packages ($*); install them as root: apt-get install $*"
  if [ -z "$apt_updated" ]; then retry 3 apt-get update -qq || die "apt-get update failed"; apt_updated=1; fi
  say "installing Debian packages: $*"
  retry 3 env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null \
    || die "could not install Debian packages: $*"
}
need=()
command -v curl >/dev/null || need+=(curl)
command -v java >/dev/null || need+=(openjdk-17-jre-headless)
command -v mvn >/dev/null || need+=(maven)
command -v go >/dev/null || need+=(golang-go)
command -v node >/dev/null || need+=(nodejs npm)
[ -x /usr/lib/postgresql/15/bin/initdb ] || need+=(postgresql-15 postgresql-client-15)
if [ "$want_test" = test ]; then
  [ -x /usr/bin/chromium ] || need+=(chromium fonts-liberation)
  command -v gcc >/dev/null || need+=(gcc libc6-dev) # Go's race detector (make -C storage race)
fi
[ ${#need[@]} -eq 0 ] || apt_install "${need[@]}"
ok "system packages present"

# --- Kafka -------------------------------------------------------------------------------------
"$VIGIL_ROOT/infra/kafka/install.sh"

# --- Python: one virtualenv for the ingest services and the backend ------------------------------
stamp="$VIGIL_VENV/.installed"
py_inputs=("$VIGIL_ROOT/ingest/pyproject.toml" "$VIGIL_ROOT/backend/pyproject.toml" "$VIGIL_ROOT/bench/pyproject.toml")
py_current() {
  [ -f "$stamp" ] || return 1
  for f in "${py_inputs[@]}"; do [ ! -f "$f" ] || [ "$f" -ot "$stamp" ] || return 1; done
}
if py_current; then ok "python virtualenv current ($VIGIL_VENV)"; else
  say "installing Python packages into $VIGIL_VENV"
  python=${VIGIL_PYTHON:-python3}
  "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || die "Python 3.11+ is required ($python is $("$python" -V 2>&1))"
  [ -x "$VIGIL_VENV/bin/python" ] || "$python" -m venv "$VIGIL_VENV" || die "could not create a virtualenv (apt-get install python3-venv)"
  piplog="$VIGIL_LOG/install-pip.log"
  retry 3 "$VIGIL_VENV/bin/pip" install -q --upgrade pip >> "$piplog" 2>&1 || die "pip upgrade failed (see $piplog)"
  args=()
  for f in "${py_inputs[@]}"; do [ -f "$f" ] && args+=(-e "$(dirname "$f")[test]"); done
  pip_install() { "$VIGIL_VENV/bin/pip" install -q "${args[@]}" >> "$piplog" 2>&1; }
  retry 3 pip_install || { tail -n 30 "$piplog" >&2; die "pip install failed for ${args[*]} (see $piplog)"; }
  touch "$stamp"
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
  "$VIGIL_ROOT/bench/install.sh" || die "building the benchmark reference systems failed (bench/install.sh)"
fi
