#!/usr/bin/env bash
# Build vmagent (VictoriaMetrics' agent, same version as vigil-storage embeds) into $VIGIL_BIN.
source "$(dirname "$0")/../lib.sh"
out="$VIGIL_BIN/vmagent"
if [ -x "$out" ] && [ "$out" -nt "$VIGIL_ROOT/infra/vmagent/go.mod" ]; then ok "vmagent current"; exit 0; fi
say "building vmagent $VIGIL_VM_VERSION from the Go module proxy"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp "$VIGIL_ROOT/infra/vmagent/go.mod" "$VIGIL_ROOT/infra/vmagent/go.sum" "$work/"
build() {
  (cd "$work" && GOFLAGS=-mod=mod go mod download github.com/VictoriaMetrics/VictoriaMetrics \
    && GOFLAGS=-mod=mod go build -o "$out.tmp" github.com/VictoriaMetrics/VictoriaMetrics/app/vmagent)
}
retry 2 build || die "could not build vmagent $VIGIL_VM_VERSION"
mv "$out.tmp" "$out"
ok "vmagent built"
