#!/usr/bin/env bash
# Make `docker compose` available for checking docker-compose.yml. Uses the machine's plugin
# when there is one; otherwise builds compose v2 from the Go module proxy into
# $VIGIL_CACHE/docker/cli-plugins (select it with DOCKER_CONFIG=$VIGIL_CACHE/docker).
source "$(dirname "$0")/../lib.sh"
version=${VIGIL_COMPOSE_VERSION:-v2.40.3}
plugin="$VIGIL_CACHE/docker/cli-plugins/docker-compose"
command -v docker >/dev/null || die "the docker client is missing (apt-get install docker.io or docker-ce-cli)"
if docker compose version >/dev/null 2>&1; then ok "docker compose present"; exit 0; fi
if [ -x "$plugin" ]; then ok "docker compose plugin present ($plugin)"; exit 0; fi
say "building docker compose $version from the Go module proxy (once)"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp "$VIGIL_ROOT/infra/compose/go.mod" "$work/go.mod"
build() {
  (cd "$work" && GOFLAGS=-mod=mod go get "github.com/docker/compose/v2@$version" \
    && GOFLAGS=-mod=mod go build -o "$plugin.tmp" github.com/docker/compose/v2/cmd)
}
mkdir -p "$(dirname "$plugin")"
retry 2 build || die "could not build docker compose $version from the Go module proxy"
mv "$plugin.tmp" "$plugin"
ok "docker compose plugin built ($plugin)"
