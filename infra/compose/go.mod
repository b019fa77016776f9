// Builds the docker compose v2 CLI plugin from the Go module proxy, so that `make test` can
// check docker-compose.yml with `docker compose config -q` on machines whose Docker client has
// no compose plugin. Only used by infra/compose/install.sh.
module vigil/infra/compose

go 1.25
