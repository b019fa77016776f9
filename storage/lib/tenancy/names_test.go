package tenancy

import "testing"

func TestSplitMetricName(t *testing.T) {
	f := func(name, wantM, wantF string) {
		t.Helper()
		m, fl := SplitMetricName(name)
		if m != wantM || fl != wantF {
			t.Fatalf("SplitMetricName(%q) = (%q, %q); want (%q, %q)", name, m, fl, wantM, wantF)
		}
	}
	f("node_cpu_seconds_total", "node", "cpu_seconds_total")
	f("cpu:usage_user", "cpu", "usage_user")
	f("job:http_requests:rate5m", "job", "http_requests:rate5m")
	f("up", "up", "value")
	f("_x", "_x", "value")
	f("x_", "x_", "value")
	f("go_goroutines", "go", "goroutines")
	f("job:rate_5m", "job", "rate_5m")
}

func TestIsReserved(t *testing.T) {
	f := func(name string, want bool) {
		t.Helper()
		if got := IsReserved(name); got != want {
			t.Fatalf("IsReserved(%q) = %v; want %v", name, got, want)
		}
	}
	f("vigil_workspace", true)
	f("vm_account_id", true)
	f("vm_project_id", true)
	f("__name__", true)
	f("__measurement__", true)
	f("__x", true)
	f("host", false)
	f("_host", false)
	f("workspace", false)
	f("vigil_workspace_x", false)
}
