#!/usr/bin/env bash
# Build golangci-lint, the Go linters of `make lint` (config: .golangci.yml), from the Go
# module proxy into $VIGIL_BIN, once per VIGIL_GOLANGCI_LINT_VERSION (infra/defaults.env).
# Quiet when the binary is current; the first build takes a few minutes.
source "$(dirname "$0")/../lib.sh"
v="$VIGIL_GOLANGCI_LINT_VERSION"
out="$VIGIL_BIN/golangci-lint"
if [ -x "$out" ] && [ "$("$out" version --short 2>/dev/null)" = "${v#v}" ]; then exit 0; fi
say "building golangci-lint $v from the Go module proxy (a few minutes, once)"
build() { (cd "$VIGIL_BIN" && GOFLAGS= GOBIN="$VIGIL_BIN" go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$v"); }
retry 2 build || die "could not build golangci-lint $v"
ok "golangci-lint $v built"
