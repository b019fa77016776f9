#!/usr/bin/env bash
# Builds the reference systems the benchmark lab compares against and caches the binaries
# under $VIGIL_HOME/bin. Idempotent: a binary that already reports the right version is kept.
#
#   bench/install.sh            # both
#   bench/install.sh vm         # stock VictoriaMetrics only
#   bench/install.sh influxdb   # InfluxDB 1.8.10 only
#
# Needs Go and the Go module proxy; PostgreSQL comes from Debian (/usr/lib/postgresql/<version>/bin).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
VIGIL_HOME="${VIGIL_HOME:-$repo/.vigil}"
# the VictoriaMetrics vigil-storage embeds (infra/defaults.env), unless overridden
VIGIL_VM_VERSION="${VIGIL_VM_VERSION:-$(sed -n 's/^VIGIL_VM_VERSION=//p' "$repo/infra/defaults.env")}"
VIGIL_INFLUXDB_VERSION="${VIGIL_INFLUXDB_VERSION:-v1.8.10}"
bin="${VIGIL_BIN:-$VIGIL_HOME/bin}"
mkdir -p "$bin"

log() { printf '[bench/install] %s\n' "$*" >&2; }

# retry N CMD...: run CMD up to N times, backing off between attempts (module downloads
# from the proxy occasionally time out).
retry() {
	local n="$1" i=1
	shift
	until "$@"; do
		if ((i >= n)); then
			log "giving up after $n attempts: $*"
			return 1
		fi
		log "attempt $i failed, retrying in $((i * 5)) s: $*"
		sleep $((i * 5))
		i=$((i + 1))
	done
}

# scratch_module DIR MODULE: an empty module in DIR used only to resolve and build MODULE's
# commands with its own go.mod honoured (go install pkg@version refuses modules that carry
# replace directives).
scratch_module() {
	local dir="$1"
	rm -rf "$dir"
	mkdir -p "$dir"
	(cd "$dir" && go mod init vigil.local/benchbuild >/dev/null 2>&1)
}

install_vm() {
	local out="$bin/victoria-metrics"
	# Other builds may share this path without stamping a version: trust the module version
	# recorded in the binary.
	if [[ -x "$out" ]] && go version -m "$out" 2>/dev/null |
		grep -Eq "^[[:space:]]+mod[[:space:]]+github.com/VictoriaMetrics/VictoriaMetrics[[:space:]]+$VIGIL_VM_VERSION[[:space:]]"; then
		log "victoria-metrics $VIGIL_VM_VERSION already built: $out"
		return 0
	fi
	local dir
	dir="$(mktemp -d)"
	scratch_module "$dir"
	log "building stock victoria-metrics $VIGIL_VM_VERSION"
	(
		cd "$dir"
		retry 3 go get "github.com/VictoriaMetrics/VictoriaMetrics/app/victoria-metrics@$VIGIL_VM_VERSION"
		retry 2 go build -trimpath \
			-ldflags "-X github.com/VictoriaMetrics/VictoriaMetrics/lib/buildinfo.Version=victoria-metrics-$VIGIL_VM_VERSION" \
			-o "$out.tmp" github.com/VictoriaMetrics/VictoriaMetrics/app/victoria-metrics
	)
	mv "$out.tmp" "$out"
	rm -rf "$dir"
	log "built $out"
}

install_influxdb() {
	local out="$bin/influxd"
	if [[ -x "$out" ]] && "$out" version 2>/dev/null | grep -q -- "${VIGIL_INFLUXDB_VERSION#v}"; then
		log "influxd $VIGIL_INFLUXDB_VERSION already built: $out"
		return 0
	fi
	local gobin
	gobin="$(mktemp -d)"
	log "building influxd $VIGIL_INFLUXDB_VERSION"
	local ldflags="-X main.version=${VIGIL_INFLUXDB_VERSION#v} -X main.branch=1.8 -X main.commit=$VIGIL_INFLUXDB_VERSION"
	if ! retry 2 env GOBIN="$gobin" go install -ldflags "$ldflags" \
		"github.com/influxdata/influxdb/cmd/influxd@$VIGIL_INFLUXDB_VERSION"; then
		log "go install refused; building from a scratch module instead"
		local dir
		dir="$(mktemp -d)"
		scratch_module "$dir"
		(
			cd "$dir"
			retry 3 go get "github.com/influxdata/influxdb/cmd/influxd@$VIGIL_INFLUXDB_VERSION"
			retry 2 go build -ldflags "$ldflags" -o "$gobin/influxd" github.com/influxdata/influxdb/cmd/influxd
		)
		rm -rf "$dir"
	fi
	mv "$gobin/influxd" "$out"
	rm -rf "$gobin"
	log "built $out"
}

case "${1:-all}" in
vm | victoriametrics) install_vm ;;
influxdb | influxd) install_influxdb ;;
all)
	install_vm
	install_influxdb
	;;
*)
	echo "usage: $0 [all|vm|influxdb]" >&2
	exit 2
	;;
esac
