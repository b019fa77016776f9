// Package compose checks docker-compose.yml (and the production override
// docker-compose.prod.yml) without a Docker engine or the docker CLI: it loads them with
// compose-go — the loader `docker compose` itself uses, so schema, interpolation and
// references are validated as `docker compose config -q` would — and reads the Dockerfiles
// of the images they build, for what no loader can see: whether each data volume is the
// directory its process writes, owned by the user it runs as. Its tests are `make test`'s
// compose suite.
package compose

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
)

// Root is the repository root, relative to this package's directory.
const Root = "../.."

// Load loads the compose files (paths relative to the repository root) with env as the only
// environment, every profile enabled, as `docker compose -f … config` would: relative paths
// in them are relative to the first file's directory.
func Load(env map[string]string, files ...string) (*types.Project, error) {
	root, err := filepath.Abs(Root)
	if err != nil {
		return nil, err
	}
	var paths, kv []string
	for _, f := range files {
		paths = append(paths, filepath.Join(root, f))
	}
	for k, v := range env {
		kv = append(kv, k+"="+v)
	}
	opts, err := cli.NewProjectOptions(paths,
		cli.WithWorkingDirectory(filepath.Dir(paths[0])),
		cli.WithEnv(kv),
		cli.WithProfiles([]string{"*"}),
		cli.WithResolvedPaths(true),
	)
	if err != nil {
		return nil, err
	}
	p, err := opts.LoadProject(context.Background())
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Defaults reads infra/defaults.env, the one table of defaults.
func Defaults() (map[string]string, error) {
	f, err := os.Open(filepath.Join(Root, "infra", "defaults.env"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("infra/defaults.env: %q is not NAME=value", line)
		}
		out[k] = v
	}
	return out, sc.Err()
}

// Dockerfile reads the Dockerfile a service builds, nil when it runs a published image.
func Dockerfile(s types.ServiceConfig) (*Image, error) {
	if s.Build == nil {
		return nil, nil
	}
	name := s.Build.Dockerfile
	if name == "" {
		name = "Dockerfile"
	}
	if !filepath.IsAbs(name) {
		name = filepath.Join(s.Build.Context, name)
	}
	return ReadDockerfile(name)
}
