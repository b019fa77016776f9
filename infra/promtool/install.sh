#!/usr/bin/env bash
# Build promtool (Prometheus' command-line client, pinned in infra/promtool/go.mod) into $VIGIL_BIN.
source "$(dirname "$0")/../lib.sh"
out="$VIGIL_BIN/promtool"
if [ -x "$out" ] && [ "$out" -nt "$VIGIL_ROOT/infra/promtool/go.mod" ]; then ok "promtool current"; exit 0; fi
say "building promtool from the Go module proxy (the first build downloads Prometheus' modules)"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp "$VIGIL_ROOT/infra/promtool/go.mod" "$VIGIL_ROOT/infra/promtool/go.sum" "$work/"
build() {
  (cd "$work" && GOFLAGS=-mod=mod go build -o "$out.tmp" github.com/prometheus/prometheus/cmd/promtool)
}
retry 2 build || die "could not build promtool"
mv "$out.tmp" "$out"
ok "promtool built"
