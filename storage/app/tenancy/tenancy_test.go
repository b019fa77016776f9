package tenancy

import (
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/storage"
	"github.com/VictoriaMetrics/metricsql"
)

func TestCheckToken(t *testing.T) {
	if err := SetToken("short"); err == nil {
		t.Fatalf("expected an error for a short token")
	}
	if err := SetToken("0123456789abcdef0123"); err != nil {
		t.Fatalf("unexpected error: %s", err)
	}
	f := func(auth, wantErr string) {
		t.Helper()
		r := httptest.NewRequest("GET", "/api/v1/labels", nil)
		if auth != "" {
			r.Header.Set("Authorization", auth)
		}
		err := CheckToken(r)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != wantErr {
			t.Fatalf("CheckToken(%q)\ngot  %q\nwant %q", auth, got, wantErr)
		}
	}
	f("Bearer 0123456789abcdef0123", "")
	f("bearer 0123456789abcdef0123", "")
	f("", "missing 'Authorization: Bearer <internal token>' header")
	f("Bearer ", "missing 'Authorization: Bearer <internal token>' header")
	f("Token 0123456789abcdef0123", "missing 'Authorization: Bearer <internal token>' header")
	f("Bearer 0123456789abcdef012", "invalid internal token")
	f("Bearer 0123456789abcdef01234", "invalid internal token")
}

func TestWorkspace(t *testing.T) {
	f := func(values []string, want, wantErr string) {
		t.Helper()
		r := httptest.NewRequest("GET", "/api/v1/labels", nil)
		for _, v := range values {
			r.Header.Add(WorkspaceHeader, v)
		}
		got, err := Workspace(r)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != want || gotErr != wantErr {
			t.Fatalf("Workspace(%q) = %q, %q; want %q, %q", values, got, gotErr, want, wantErr)
		}
	}
	f([]string{"3f0e6c1a-8d5b-4a43-9c1e-2b7d9f0a1c22"}, "3f0e6c1a-8d5b-4a43-9c1e-2b7d9f0a1c22", "")
	f(nil, "", "missing X-Vigil-Workspace header")
	f([]string{""}, "", "missing X-Vigil-Workspace header")
	f([]string{"a", "b"}, "", "X-Vigil-Workspace header must be given once; got 2 values")
	f([]string{`a"b`}, "", `X-Vigil-Workspace: invalid workspace id "a\"b": want 1-64 characters of [A-Za-z0-9_-], starting with a letter or digit`)
	// storage's own figures about workspaces: no caller reads or writes them as a workspace
	f([]string{"vigil-usage"}, "", `X-Vigil-Workspace: workspace id "vigil-usage" is reserved`)
}

func TestScopeFilterss(t *testing.T) {
	got := ScopeFilterss("ws1", [][]metricsql.LabelFilter{
		{{Label: "__name__", Value: "cpu:.*", IsRegexp: true}, {Label: "host", Value: "a", IsNegative: true}},
		{{Label: "__measurement__", Value: "disk"}},
	})
	want := [][]storage.TagFilter{
		{{Key: nil, Value: []byte("cpu:.*"), IsRegexp: true}, {Key: []byte("host"), Value: []byte("a"), IsNegative: true}, {Key: []byte("vigil_workspace"), Value: []byte("ws1")}},
		{{Key: []byte("__measurement__"), Value: []byte("disk")}, {Key: []byte("vigil_workspace"), Value: []byte("ws1")}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("unexpected filters\ngot  %+v\nwant %+v", got, want)
	}
	if got, want := ScopeFilterss("ws1", nil), TagFilterss("ws1"); !reflect.DeepEqual(got, want) {
		t.Fatalf("an empty selector must select the whole workspace\ngot  %+v\nwant %+v", got, want)
	}
}
