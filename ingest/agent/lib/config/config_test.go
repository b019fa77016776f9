package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDefaultsAndEnv(t *testing.T) {
	c, err := Load(nil, env(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Output.URL != "http://127.0.0.1:8001" || time.Duration(c.Interval) != 10*time.Second || c.Buffer.MaxBytes != 512<<20 ||
		c.Output.Target != "gateway" || c.Host == "" || len(c.Collectors) != 9 || c.Buffer.Path != "vigil-agent-buffer" {
		t.Fatalf("unexpected defaults: %+v", c)
	}
	c, err = Load(nil, env("VIGIL_GATEWAY_URL", "http://gw:1", "VIGIL_INGEST_KEY", "vgi_env", "VIGIL_HOME", "/h", "VIGIL_AGENT_INTERVAL", "5s"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Output.URL != "http://gw:1" || c.Output.Token != "vgi_env" || c.Buffer.Path != "/h/data/agent/buffer" || time.Duration(c.Interval) != 5*time.Second {
		t.Fatalf("environment not applied: %+v", c)
	}
}

func TestPrecedence(t *testing.T) {
	path := writeFile(t, "agent.toml", `
host = "web-1"
interval = "30s"
collectors = ["cpu", "mem"]

[tags]
env = "prod"

[output]
url = "http://file:8001"
token = "vgi_file"

[batch]
max_lines = 100

[buffer]
path = "/var/lib/vigil-agent"
max_bytes = 10485760

[scrape]
targets = ["http://127.0.0.1:9100/metrics"]
`)
	// The file beats the environment; flags beat the file.
	c, err := Load([]string{"-config", path, "-interval=1m", "-collectors=disk"}, env("VIGIL_GATEWAY_URL", "http://env:1", "VIGIL_INGEST_KEY", "vgi_env"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Host != "web-1" || time.Duration(c.Interval) != time.Minute || strings.Join(c.Collectors, ",") != "disk" ||
		c.Output.URL != "http://file:8001" || c.Output.Token != "vgi_file" || c.Batch.MaxLines != 100 || c.Batch.MaxBytes != 1<<20 ||
		c.Buffer.Path != "/var/lib/vigil-agent" || c.Buffer.MaxBytes != 10<<20 || c.Tags["env"] != "prod" || len(c.Scrape.Targets) != 1 {
		t.Fatalf("unexpected config: %+v", c)
	}
}

func TestTokenFile(t *testing.T) {
	path := writeFile(t, "token", "  vgi_from_file\n")
	c, err := Load([]string{"-token=ignored", "-token.file=" + path}, env(), nil)
	if err != nil || c.Output.Token != "vgi_from_file" {
		t.Fatalf("token=%q err=%v", c.Output.Token, err)
	}
	// The storage target falls back to the internal token, not the ingest key.
	c, err = Load([]string{"-target=storage", "-storage.workspace=ws"}, env("VIGIL_INGEST_KEY", "vgi_x", "VIGIL_INTERNAL_TOKEN", "internal"), nil)
	if err != nil || c.Output.Token != "internal" {
		t.Fatalf("token=%q err=%v", c.Output.Token, err)
	}
}

func TestScrapeBearerTokenFile(t *testing.T) {
	path := writeFile(t, "internal_token", "tok-123\n")
	c, err := Load([]string{"-scrape.bearerTokenFile=" + path}, env(), nil)
	if err != nil || c.Scrape.BearerToken != "tok-123" {
		t.Fatalf("token=%q err=%v", c.Scrape.BearerToken, err)
	}
	c, err = Load([]string{"-config=" + writeFile(t, "c.toml", "[scrape]\nbearer_token_file = \""+path+"\"\n")}, env(), nil)
	if err != nil || c.Scrape.BearerToken != "tok-123" {
		t.Fatalf("from TOML: token=%q err=%v", c.Scrape.BearerToken, err)
	}
}

func TestExampleConfigLoads(t *testing.T) {
	c, err := Load([]string{"-config=../../vigil-agent.example.toml"}, env(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Output.URL == "" || len(c.Collectors) == 0 {
		t.Fatalf("example config incomplete: %+v", c)
	}
}

func TestErrors(t *testing.T) {
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	f := func(args []string, fileContent, want string) {
		t.Helper()
		if fileContent != "" {
			args = append(args, "-config="+writeFile(t, "c.toml", fileContent))
		}
		_, err := Load(args, env(), devnull)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("args %v: want error containing %q, got %v", args, want, err)
		}
	}
	f([]string{"-interval=soon"}, "", `invalid value "soon" for flag -interval: want a duration such as 10s or 1m, got "soon"`)
	f([]string{"-interval=0s"}, "", "interval must be positive, got 0s")
	f([]string{"-precision=h"}, "", `precision must be ns, us, ms or s, got "h"`)
	f([]string{"-target=kafka"}, "", `target must be one of [gateway storage vm influx], got "kafka"`)
	f([]string{"-collectors=cpu,gpu"}, "", `collectors: unknown collector "gpu"`)
	f([]string{"-tags=host=x"}, "", `tags: "host" is reserved`)
	for _, k := range []string{"vigil_workspace", "vm_account_id", "vm_project_id", "__x"} {
		f([]string{"-tags=" + k + "=x"}, "", `tags: "`+k+`" is reserved`)
	}
	f([]string{"-tags=novalue"}, "", `want key=value pairs, got "novalue"`)
	f([]string{"-buffer.maxBytes=1000"}, "", "buffer.maxBytes (1000) must be at least batch.maxBytes (1048576)")
	f([]string{"extra"}, "", `unexpected argument "extra"`)
	f([]string{"-send.retryMinInterval=2m"}, "", "send.retryMinInterval must be positive and at most send.retryMaxInterval, got 2m0s and 1m0s")
	f(nil, "intervl = \"5s\"\n[output]\nurll = \"x\"\n", "unknown keys intervl, output.urll")
	f(nil, "interval = \"often\"\n", `invalid duration "often"`)
	f(nil, "interval = [\n", "cannot read config file")
	f([]string{"-token.file=/nonexistent/token"}, "", "cannot read -token.file")
	f([]string{"-scrape.bearerTokenFile=/nonexistent/token"}, "", "cannot read -scrape.bearerTokenFile")
}

func TestHelpHidesToken(t *testing.T) {
	out, err := os.CreateTemp(t.TempDir(), "help")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Load([]string{"-help"}, env("VIGIL_INGEST_KEY", "vgi_secret_key"), out)
	if err == nil {
		t.Fatal("-help must return flag.ErrHelp")
	}
	data, _ := os.ReadFile(out.Name())
	if strings.Contains(string(data), "vgi_secret_key") || !strings.Contains(string(data), "-simulate.backfill") {
		t.Fatalf("help output leaks the key or lacks flags:\n%s", data)
	}
}
