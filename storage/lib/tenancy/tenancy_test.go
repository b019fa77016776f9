package tenancy

import (
	"testing"
)

func TestValidateWorkspaceID(t *testing.T) {
	f := func(id string, ok bool) {
		t.Helper()
		err := ValidateWorkspaceID(id)
		if (err == nil) != ok {
			t.Fatalf("ValidateWorkspaceID(%q) = %v; want ok=%v", id, err, ok)
		}
	}
	f("3f0e6c1a-8d5b-4a43-9c1e-2b7d9f0a1c22", true)
	f("A", true)
	f("ws_1", true)
	f("", false)
	f("-ws", false)
	f("ws b", false)
	f(`ws"`, false)
	f("ws\n", false)
}

func TestCheckExpr(t *testing.T) {
	f := func(q, wantErr string) {
		t.Helper()
		_, err := ParseQuery(q)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != wantErr {
			t.Fatalf("ParseQuery(%q)\ngot error  %q\nwant error %q", q, got, wantErr)
		}
	}
	f(`cpu:usage_user`, "")
	f(`sum by (host) (rate({__name__=~"cpu:.+"}[5m]))`, "")
	f(`label_replace(up, "dst", "$1", "src", "(.*)")`, "")
	f(`up{vigil_workspace="B"}`, `the query must not reference the reserved label "vigil_workspace"`)
	f(`up{host="a" or vigil_workspace=~".+"}`, `the query must not reference the reserved label "vigil_workspace"`)
	f(`up or {vm_account_id="1"}`, `the query must not reference the reserved label "vm_account_id"`)
	f(`up unless on (vigil_workspace) down`, `the query must not reference the reserved label "vigil_workspace"`)
	f(`up * on (host) group_left (vm_project_id) down`, `the query must not reference the reserved label "vm_project_id"`)
	f(`sum by (vigil_workspace) (up)`, `the query must not reference the reserved label "vigil_workspace"`)
	f(`count_values("vigil_workspace", up)`, `the query must not reference the reserved label "vigil_workspace"`)
	f(`label_replace(up, "vigil_workspace", "B", "", "")`, `the query must not reference the reserved label "vigil_workspace"`)
	f(`label_set(up, "vigil_workspace", "B")`, `the query must not reference the reserved label "vigil_workspace"`)
	f(`with (w = {vigil_workspace="B"}) up{w}`, `the query must not reference the reserved label "vigil_workspace"`)
	f(`rate(up[5m:1m])`, "")
}

func TestParseSeriesSelector(t *testing.T) {
	f := func(s, wantErr string) {
		t.Helper()
		_, err := ParseSeriesSelector(s)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != wantErr {
			t.Fatalf("ParseSeriesSelector(%q)\ngot error  %q\nwant error %q", s, got, wantErr)
		}
	}
	f(`{__measurement__="cpu"}`, "")
	f(`cpu:usage_user{host="a" or host="b"}`, "")
	f(`{vigil_workspace="B"}`, `the query must not reference the reserved label "vigil_workspace"`)
	f(`sum(up)`, `"sum(up)" is not a series selector`)
}
