package compose

import (
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/types"
	"golang.org/x/mod/modfile"
)

const (
	composeFile = "docker-compose.yml"
	prodFile    = "docker-compose.prod.yml"
)

// devEnv is what docker-compose.yml's header asks for.
var devEnv = map[string]string{"VIGIL_INTERNAL_TOKEN": "check-internal-token", "VIGIL_SECRET_KEY": "check-secret-key"}

func load(t *testing.T, files ...string) *types.Project {
	t.Helper()
	p, err := Load(devEnv, files...)
	if err != nil {
		t.Fatalf("loading %s: %s", strings.Join(files, " + "), err)
	}
	return p
}

func TestComposeFilesLoad(t *testing.T) {
	p := load(t, composeFile)
	want := []string{"agent", "backend", "consumer", "gateway", "kafka", "postgres", "storage"}
	if got := p.ServiceNames(); !slices.Equal(sortedCopy(got), want) {
		t.Fatalf("services: got %q, want %q", sortedCopy(got), want)
	}
	load(t, composeFile, prodFile)
}

func TestLoadRefusesAnUnknownKey(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yml")
	if err := os.WriteFile(bad, []byte("services:\n  a:\n    image: x\n    helthcheck: {test: [CMD, true]}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(mustAbs(t, Root), bad)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Load(nil, rel); err == nil || !strings.Contains(err.Error(), "helthcheck") {
		t.Fatalf("a misspelt key must be refused naming it, got %v", err)
	}
}

// Every data volume is the directory its process writes, and a fresh named volume there is
// writable by the user the process runs as; every directory a process writes is on a volume.
// Every service has a healthcheck and whatever depends on it waits until it is healthy.
// Kafka is usable from the host and from the containers.
func TestComposeKeepsDataStartsInOrderAndReachesKafka(t *testing.T) {
	p := load(t, composeFile)
	for _, problem := range problems(t, p) {
		t.Error(problem)
	}
	// the order that matters on a slow host
	for svc, deps := range map[string][]string{
		"gateway":  {"postgres", "kafka"},
		"consumer": {"kafka", "storage"},
		"backend":  {"postgres", "storage"},
		"agent":    {"gateway"},
	} {
		for _, d := range deps {
			if _, ok := p.Services[svc].DependsOn[d]; !ok {
				t.Errorf("%s does not wait for %s", svc, d)
			}
		}
	}
}

// The checks find each mistake docker-compose.yml once had (testdata/broken, with its
// Dockerfile for storage).
func TestChecksFindTheMistakesComposeOnceHad(t *testing.T) {
	got := problems(t, load(t, "infra/compose/testdata/broken/docker-compose.yml"))
	want := []string{
		"kafka writes /tmp/kraft-combined-logs, which is on no named volume",
		"kafka: volume kafka is mounted at /var/lib/kafka/data, where the process writes nothing (it writes /tmp/kraft-combined-logs)",
		"storage: volume storage at /data is not writable by the user the process runs as",
		"consumer: no healthcheck in the compose file or in its image",
		"consumer depends on kafka until service_started, not service_healthy",
		"consumer depends on storage until service_started, not service_healthy",
		"kafka: no healthcheck in the compose file or in its image",
		"storage: no healthcheck in the compose file or in its image",
		`kafka listener PLAINTEXT on the published port advertises "kafka:9092"; host clients need 127.0.0.1:59092`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("problems found:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func problems(t *testing.T, p *types.Project) []string {
	t.Helper()
	volumes, err := CheckDataVolumes(p)
	if err != nil {
		t.Fatal(err)
	}
	health, err := CheckHealth(p)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Concat(volumes, health, CheckKafkaListeners(p))
}

func mustFlags(t *testing.T, s types.ServiceConfig, img *Image) map[string]string {
	t.Helper()
	flags, err := StartFlags(s, img)
	if err != nil {
		t.Fatal(err)
	}
	return flags
}

// One retention, from infra/defaults.env: storage's -retentionPeriod and the gateway's
// VIGIL_RETENTION in compose, the storage image and `make up`.
func TestOneRetentionFromDefaults(t *testing.T) {
	defaults, err := Defaults()
	if err != nil {
		t.Fatal(err)
	}
	want := defaults["VIGIL_RETENTION"]
	if want == "" {
		t.Fatal("infra/defaults.env has no VIGIL_RETENTION")
	}
	p := load(t, composeFile, prodFile)
	for _, name := range []string{"storage", "gateway"} {
		if got := Environment(p.Services[name])["VIGIL_RETENTION"]; got != want {
			t.Errorf("%s gets VIGIL_RETENTION=%q; want %q from infra/defaults.env", name, got, want)
		}
	}
	s := p.Services["storage"]
	img, err := Dockerfile(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := mustFlags(t, s, img)["retentionPeriod"]; !strings.Contains(got, "$VIGIL_RETENTION") && !strings.Contains(got, "${VIGIL_RETENTION") {
		t.Errorf("storage starts with -retentionPeriod=%q; want it from $VIGIL_RETENTION", got)
	}
	if v, ok := img.Env["VIGIL_RETENTION"]; ok {
		t.Errorf("storage/Dockerfile sets VIGIL_RETENTION=%s: a second default", v)
	}
	up, err := os.ReadFile(filepath.Join(Root, "infra", "up.sh"))
	if err != nil {
		t.Fatal(err)
	}
	calls, err := ShellCalls(string(up))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range calls {
		for _, w := range c {
			if strings.HasPrefix(w, "-retentionPeriod=") {
				found = true
				if w != "-retentionPeriod=$VIGIL_RETENTION" {
					t.Errorf("infra/up.sh starts storage with %s; want -retentionPeriod=$VIGIL_RETENTION", w)
				}
			}
		}
	}
	if !found {
		t.Error("infra/up.sh starts storage without -retentionPeriod")
	}
}

// Secrets reach every service as files where it reads them: storage's
// -tenancy.internalTokenFile, the Python services' $VIGIL_HOME.
func TestSecretsAreFilesWhereEachServiceReadsThem(t *testing.T) {
	for _, files := range [][]string{{composeFile}, {composeFile, prodFile}} {
		p := load(t, files...)
		mounted := func(s types.ServiceConfig) map[string]bool {
			out := map[string]bool{}
			for _, sec := range s.Secrets {
				target := sec.Target
				if target == "" {
					target = sec.Source
				}
				if !path.IsAbs(target) {
					target = "/run/secrets/" + target
				}
				out[target] = true
			}
			return out
		}
		s := p.Services["storage"]
		img, err := Dockerfile(s)
		if err != nil {
			t.Fatal(err)
		}
		if f := mustFlags(t, s, img)["tenancy.internalTokenFile"]; !mounted(s)[f] {
			t.Errorf("%s: storage reads its token from %q, where no secret is mounted", files, f)
		}
		need := map[string][]string{"gateway": {"internal_token"}, "consumer": {"internal_token"}, "backend": {"internal_token", "secret_key"}}
		for name, secrets := range need {
			svc := p.Services[name]
			home := Environment(svc)["VIGIL_HOME"]
			for _, sec := range secrets {
				if !mounted(svc)[path.Join(home, sec)] {
					t.Errorf("%s: %s reads %s from $VIGIL_HOME=%q, where it is not mounted", files, name, sec, home)
				}
			}
			for k := range Environment(svc) {
				if k == "VIGIL_INTERNAL_TOKEN" || k == "VIGIL_SECRET_KEY" {
					t.Errorf("%s: %s gets %s in its environment; secrets travel as files", files, name, k)
				}
			}
		}
	}
}

// The production override: secrets from files only, and only the backend and the gateway
// published.
func TestProductionOverride(t *testing.T) {
	p := load(t, composeFile, prodFile)
	for name, sec := range p.Secrets {
		if sec.File == "" || sec.Environment != "" {
			t.Errorf("secret %s: file %q, environment %q; production reads secrets from files only", name, sec.File, sec.Environment)
		}
	}
	for _, name := range sortedCopy(p.ServiceNames()) {
		s := p.Services[name]
		public := name == "backend" || name == "gateway"
		if public != (len(s.Ports) > 0) {
			t.Errorf("%s publishes %+v; in production only the backend and the gateway publish a port", name, s.Ports)
		}
		for k, v := range Environment(s) {
			if strings.Contains(k, "PASSWORD") && !strings.HasSuffix(k, "_FILE") {
				t.Errorf("%s: %s in the environment; production reads it from a file", name, k)
			}
			if u, err := url.Parse(v); err == nil && u.User != nil {
				if _, has := u.User.Password(); has {
					t.Errorf("%s: %s carries a password in its URL", name, k)
				}
			}
		}
	}
	if got := Environment(p.Services["backend"])["VIGIL_ENVIRONMENT"]; got != "production" {
		t.Errorf("backend VIGIL_ENVIRONMENT=%q; want production (refuses placeholder secrets)", got)
	}
	for _, name := range []string{"backend", "gateway"} {
		env := Environment(p.Services[name])
		if f := env["PGPASSFILE"]; !slices.ContainsFunc(p.Services[name].Secrets, func(s types.ServiceSecretConfig) bool {
			return "/run/secrets/"+s.Source == f
		}) {
			t.Errorf("%s: PGPASSFILE=%q is not a mounted secret", name, f)
		}
	}
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// vigil-storage, the stock VictoriaMetrics of the benchmarks and tests, and vmagent are one
// VictoriaMetrics version: infra/defaults.env's VIGIL_VM_VERSION.
func TestOneVictoriaMetricsVersion(t *testing.T) {
	defaults, err := Defaults()
	if err != nil {
		t.Fatal(err)
	}
	want := defaults["VIGIL_VM_VERSION"]
	for _, mod := range []string{"storage/go.mod", "infra/vmagent/go.mod"} {
		data, err := os.ReadFile(filepath.Join(Root, mod))
		if err != nil {
			t.Fatal(err)
		}
		f, err := modfile.ParseLax(mod, data, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, r := range f.Require {
			if r.Mod.Path == "github.com/VictoriaMetrics/VictoriaMetrics" {
				got = r.Mod.Version
			}
		}
		if got != want {
			t.Errorf("%s requires VictoriaMetrics %q; infra/defaults.env says VIGIL_VM_VERSION=%s", mod, got, want)
		}
	}
}
