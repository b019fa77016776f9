package compose

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
)

// published describes what the published images the stack runs do with their data, from
// their Dockerfiles and entrypoints: postgres' docker-entrypoint.sh starts as root and gives
// PGDATA to the postgres user; apache/kafka runs as appuser, writes KAFKA_LOG_DIRS (by
// default /tmp/kraft-combined-logs) and creates /var/lib/kafka/data for appuser.
var published = map[string]struct {
	dataDir  func(env map[string]string) string
	asRoot   bool
	prepared []string
}{
	"postgres:15":        {dataDir: envOr("PGDATA", "/var/lib/postgresql/data"), asRoot: true},
	"apache/kafka:4.1.1": {dataDir: envOr("KAFKA_LOG_DIRS", "/tmp/kraft-combined-logs"), prepared: []string{"/var/lib/kafka/data"}},
}

func envOr(name, def string) func(map[string]string) string {
	return func(env map[string]string) string {
		if v := env[name]; v != "" {
			return v
		}
		return def
	}
}

// dataFlags are the flags with which our binaries name the directory they write.
var dataFlags = map[string]func(string) string{
	"storageDataPath": func(v string) string { return v },
	"buffer.path":     path.Dir, // the agent creates its buffer directory inside this one
}

// Environment is a service's environment after env_file and interpolation.
func Environment(s types.ServiceConfig) map[string]string {
	out := map[string]string{}
	for k, v := range s.Environment {
		if v != nil {
			out[k] = *v
		}
	}
	return out
}

// StartFlags are the -name=value flags the service's process starts with: the image's
// ENTRYPOINT with the compose command (or the image's CMD) appended.
func StartFlags(s types.ServiceConfig, img *Image) (map[string]string, error) {
	entry, cmd := img.Entrypoint, img.Cmd
	if len(s.Entrypoint) > 0 {
		entry, cmd = s.Entrypoint, nil
	}
	if len(s.Command) > 0 {
		cmd = s.Command
	}
	flags, err := Flags(append(slices.Clone(entry), cmd...))
	if err != nil {
		return nil, fmt.Errorf("%s: reading the start command: %w", s.Name, err)
	}
	return flags, nil
}

// CheckDataVolumes lists what keeps a service's data from surviving its container: a
// directory its process writes that is on no named volume, a named volume where it writes
// nothing, a fresh volume its user cannot write.
func CheckDataVolumes(p *types.Project) ([]string, error) {
	var problems []string
	for _, name := range sortedNames(p) {
		s := p.Services[name]
		var writes []string
		var writable func(string) bool
		img, err := Dockerfile(s)
		if err != nil {
			return nil, err
		}
		if img != nil {
			flags, err := StartFlags(s, img)
			if err != nil {
				return nil, err
			}
			for flag, value := range flags {
				if dir, ok := dataFlags[flag]; ok {
					writes = append(writes, dir(value))
				}
			}
			writable = img.Writable
		} else {
			facts, ok := published[s.Image]
			if !ok {
				return nil, fmt.Errorf("%s: image %s is not in the table of what published images write", name, s.Image)
			}
			writes = append(writes, facts.dataDir(Environment(s)))
			writable = func(dir string) bool { return facts.asRoot || slices.Contains(facts.prepared, path.Clean(dir)) }
		}
		sort.Strings(writes)
		for _, dir := range writes {
			if !slices.ContainsFunc(s.Volumes, func(v types.ServiceVolumeConfig) bool {
				return v.Type == types.VolumeTypeVolume && within(dir, v.Target)
			}) {
				problems = append(problems, fmt.Sprintf("%s writes %s, which is on no named volume", name, dir))
			}
		}
		for _, v := range s.Volumes {
			if v.Type != types.VolumeTypeVolume {
				continue
			}
			if !slices.ContainsFunc(writes, func(dir string) bool { return within(dir, v.Target) }) {
				problems = append(problems, fmt.Sprintf("%s: volume %s is mounted at %s, where the process writes nothing (it writes %s)",
					name, v.Source, v.Target, strings.Join(writes, ", ")))
			} else if !writable(v.Target) {
				problems = append(problems, fmt.Sprintf("%s: volume %s at %s is not writable by the user the process runs as", name, v.Source, v.Target))
			}
		}
	}
	return problems, nil
}

func within(dir, mount string) bool {
	dir, mount = path.Clean(dir), path.Clean(mount)
	return dir == mount || strings.HasPrefix(dir, mount+"/")
}

// CheckHealth lists the services without a healthcheck (in the compose file or in their
// image) and the dependencies that do not wait for one to be healthy.
func CheckHealth(p *types.Project) ([]string, error) {
	var problems []string
	for _, name := range sortedNames(p) {
		s := p.Services[name]
		img, err := Dockerfile(s)
		if err != nil {
			return nil, err
		}
		switch {
		case s.HealthCheck != nil && s.HealthCheck.Disable:
			problems = append(problems, name+": healthcheck disabled")
		case s.HealthCheck != nil && len(s.HealthCheck.Test) > 0:
		case img != nil && len(img.Healthcheck) > 0:
		default:
			problems = append(problems, name+": no healthcheck in the compose file or in its image")
		}
		deps := make([]string, 0, len(s.DependsOn))
		for dep := range s.DependsOn {
			deps = append(deps, dep)
		}
		sort.Strings(deps)
		for _, dep := range deps {
			if c := s.DependsOn[dep].Condition; c != types.ServiceConditionHealthy {
				problems = append(problems, fmt.Sprintf("%s depends on %s until %s, not %s", name, dep, c, types.ServiceConditionHealthy))
			}
		}
	}
	return problems, nil
}

// CheckKafkaListeners lists what keeps the host or the containers from using the kafka
// service: each published port must be a listener that advertises 127.0.0.1 (or localhost)
// and the published port; the inter-broker listener advertises kafka:<port>, and the
// services bootstrap from it.
func CheckKafkaListeners(p *types.Project) []string {
	kafka, ok := p.Services["kafka"]
	if !ok {
		return []string{"no kafka service"}
	}
	var problems []string
	env := Environment(kafka)
	listeners := listenerMap(env["KAFKA_LISTENERS"])
	advertised := listenerMap(env["KAFKA_ADVERTISED_LISTENERS"])
	controller := env["KAFKA_CONTROLLER_LISTENER_NAMES"]
	for _, port := range kafka.Ports {
		name := ""
		for n, addr := range listeners {
			if _, p, _ := strings.Cut(addr, ":"); p == fmt.Sprint(port.Target) {
				name = n
			}
		}
		if name == "" || name == controller {
			problems = append(problems, fmt.Sprintf("kafka publishes container port %d, where no broker listener listens (%s)", port.Target, env["KAFKA_LISTENERS"]))
			continue
		}
		if a := advertised[name]; a != "127.0.0.1:"+port.Published && a != "localhost:"+port.Published {
			problems = append(problems, fmt.Sprintf("kafka listener %s on the published port advertises %q; host clients need 127.0.0.1:%s", name, a, port.Published))
		}
	}
	internal := env["KAFKA_INTER_BROKER_LISTENER_NAME"]
	if internal == "" {
		internal = "PLAINTEXT"
	}
	if host, _, _ := strings.Cut(advertised[internal], ":"); host != "kafka" {
		problems = append(problems, fmt.Sprintf("kafka's inter-broker listener %s advertises %q; containers need kafka:<port>", internal, advertised[internal]))
	}
	for _, name := range sortedNames(p) {
		if b, ok := Environment(p.Services[name])["VIGIL_KAFKA_BOOTSTRAP"]; ok && b != advertised[internal] {
			problems = append(problems, fmt.Sprintf("%s bootstraps from %q, not kafka's internal listener %q", name, b, advertised[internal]))
		}
	}
	return problems
}

func listenerMap(s string) map[string]string {
	out := map[string]string{}
	for _, l := range strings.Split(s, ",") {
		if name, addr, ok := strings.Cut(strings.TrimSpace(l), "://"); ok {
			out[name] = addr
		}
	}
	return out
}

func sortedNames(p *types.Project) []string {
	names := p.ServiceNames()
	sort.Strings(names)
	return names
}
