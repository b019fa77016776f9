// Package tenancy authenticates internal callers and scopes every request to one workspace.
//
// vigil-storage trusts only callers that present the internal token, and takes the
// workspace only from the X-Vigil-Workspace header: never from a payload or a query.
package tenancy

import (
	"crypto/subtle"
	"flag"
	"net/http"
	"os"
	"strings"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/logger"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/storage"
	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/apierror"
	libtenancy "vigil/storage/lib/tenancy"
)

var internalTokenFile = flag.String("tenancy.internalTokenFile", "", "Path to the file holding the internal token. Every request except GET /health "+
	"must carry it as 'Authorization: Bearer <token>'. Surrounding whitespace in the file is ignored. Required")

// WorkspaceHeader is the request header that names the workspace.
const WorkspaceHeader = "X-Vigil-Workspace"

var token []byte

// Init reads the internal token. It must be called after flags are parsed.
func Init() {
	if *internalTokenFile == "" {
		logger.Fatalf("missing -tenancy.internalTokenFile; vigil-storage refuses to run without an internal token")
	}
	data, err := os.ReadFile(*internalTokenFile)
	if err != nil {
		logger.Fatalf("cannot read -tenancy.internalTokenFile=%q: %s", *internalTokenFile, err)
	}
	if err := SetToken(strings.TrimSpace(string(data))); err != nil {
		logger.Fatalf("invalid -tenancy.internalTokenFile=%q: %s", *internalTokenFile, err)
	}
}

// SetToken sets the internal token; it is exported for tests.
func SetToken(t string) error {
	if len(t) < 16 {
		return apierror.BadData("the internal token must have at least 16 characters; got %d", len(t))
	}
	token = []byte(t)
	return nil
}

// CheckToken returns a 401 error unless r carries the internal token.
func CheckToken(r *http.Request) error {
	auth := r.Header.Get("Authorization")
	const prefix = "Bearer "
	if len(auth) <= len(prefix) || !strings.EqualFold(auth[:len(prefix)], prefix) {
		return apierror.New(http.StatusUnauthorized, apierror.TypeUnauthorized, "missing 'Authorization: Bearer <internal token>' header")
	}
	got := []byte(strings.TrimSpace(auth[len(prefix):]))
	if len(token) == 0 || subtle.ConstantTimeCompare(got, token) != 1 {
		return apierror.New(http.StatusUnauthorized, apierror.TypeUnauthorized, "invalid internal token")
	}
	return nil
}

// Workspace returns the workspace named by the X-Vigil-Workspace header, or a 400 error.
func Workspace(r *http.Request) (string, error) {
	values := r.Header.Values(WorkspaceHeader)
	if len(values) == 0 || values[0] == "" {
		return "", apierror.BadData("missing %s header", WorkspaceHeader)
	}
	if len(values) > 1 {
		return "", apierror.BadData("%s header must be given once; got %d values", WorkspaceHeader, len(values))
	}
	if err := libtenancy.ValidateWorkspaceID(values[0]); err != nil {
		return "", apierror.BadData("%s: %s", WorkspaceHeader, err)
	}
	if values[0] == libtenancy.UsageWorkspace {
		return "", apierror.BadData("%s: workspace id %q is reserved", WorkspaceHeader, values[0])
	}
	return values[0], nil
}

// TagFilterss returns the enforced storage filter that restricts a search to workspace ws,
// in the shape of promql.EvalConfig.EnforcedTagFilterss.
func TagFilterss(ws string) [][]storage.TagFilter {
	return [][]storage.TagFilter{{{Key: []byte(libtenancy.Label), Value: []byte(ws)}}}
}

// LabelFilter returns the MetricsQL label filter for workspace ws.
func LabelFilter(ws string) metricsql.LabelFilter {
	return metricsql.LabelFilter{Label: libtenancy.Label, Value: ws}
}

// ScopeFilterss adds the workspace filter to every filter list of lfss and returns the
// result as storage filters. An empty lfss selects every series of the workspace.
func ScopeFilterss(ws string, lfss [][]metricsql.LabelFilter) [][]storage.TagFilter {
	if len(lfss) == 0 {
		return TagFilterss(ws)
	}
	tfss := make([][]storage.TagFilter, 0, len(lfss))
	for _, lfs := range lfss {
		tfs := make([]storage.TagFilter, 0, len(lfs)+1)
		for _, lf := range lfs {
			key := []byte(lf.Label)
			if lf.Label == "__name__" {
				key = nil
			}
			tfs = append(tfs, storage.TagFilter{Key: key, Value: []byte(lf.Value), IsNegative: lf.IsNegative, IsRegexp: lf.IsRegexp})
		}
		tfs = append(tfs, storage.TagFilter{Key: []byte(libtenancy.Label), Value: []byte(ws)})
		tfss = append(tfss, tfs)
	}
	return tfss
}

// StripLabels removes the tenant label from a storage metric name in place.
func StripLabels(mn *storage.MetricName) {
	mn.RemoveTag(libtenancy.Label)
}
