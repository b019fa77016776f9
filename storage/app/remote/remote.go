// Package remote runs vigil-storage against a VictoriaMetrics cluster instead of the embedded
// storage: writes are forwarded to vminsert and reads go to vmselect, one tenant (accountID)
// per workspace.
//
// Tenancy is enforced twice. Every workspace gets its own tenant in the URL path
// (/insert/<accountID>:<projectID>/…, /select/…), and every series still carries the
// vigil_workspace label, which every read filters on (extra_label) and strips from answers;
// label searches are verified against the workspace's own series (labelSearch), so even a
// shared tenant (-remote.clusterPaths=false, a single-node VictoriaMetrics) never leaks
// another workspace's label names or values.
//
// Tenants are collision-free: a workspace id is a UUID, and its tenant is its first 8 bytes
// (accountID = bytes 0-3, projectID = bytes 4-7), which the backend keeps unique among
// workspaces (the index uq_workspaces_storage_tenant) and which never has projectID 0 (the
// UUID's version digit lies in it). -remote.accountID pins a workspace to <accountID> (projectID
// 0) instead; ids that are no UUID (tests, internal workspaces) get the FNV-1a 32-bit hash of
// the id as accountID with projectID 0, which is also the scheme of vigil-storage releases
// before this one (-remote.legacyAccountIDs keeps it for every workspace).
package remote

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/flagutil"

	"vigil/storage/lib/apierror"
)

var (
	vminsertURL = flag.String("remote.vminsertURL", "", "Base URL of the VictoriaMetrics cluster's vminsert, e.g. http://vminsert:8480. "+
		"Together with -remote.vmselectURL it switches vigil-storage to remote mode: no embedded storage, writes and reads go to the cluster")
	vmselectURL  = flag.String("remote.vmselectURL", "", "Base URL of the VictoriaMetrics cluster's vmselect, e.g. http://vmselect:8481. See -remote.vminsertURL")
	clusterPaths = flag.Bool("remote.clusterPaths", true, "Whether to use the cluster URL layout /insert/<accountID>/… and /select/<accountID>/…. "+
		"Set to false to point remote mode at a single-node VictoriaMetrics (tenancy is then enforced by the vigil_workspace label alone)")
	accountIDs = flagutil.NewArrayString("remote.accountID", "Explicit workspace-to-accountID mapping as <workspace>=<accountID> (projectID 0), repeatable or comma-separated. "+
		"Workspaces not listed get the tenant <accountID>:<projectID> of the first 8 bytes of their id (a UUID), unique per workspace")
	legacyAccountIDs = flag.Bool("remote.legacyAccountIDs", false, "Give every workspace the tenant of releases before collision-free tenants: the FNV-1a 32-bit hash of its id as accountID, projectID 0. "+
		"Two workspaces may then share a tenant; only for reading a cluster written by such a release (or list its workspaces with -remote.accountID)")
	requestTimeout = flag.Duration("remote.requestTimeout", time.Minute, "Timeout for one request to vminsert or vmselect when the caller sets none")
	deleteSettle   = flag.Duration("remote.deleteSettle", 5*time.Second, "With -remote.clusterPaths, how long a workspace delete waits before deleting a second time, "+
		"for the series the cluster had not made searchable yet at the first (the workspace takes no writes meanwhile). 0 deletes once")
)

// Enabled reports whether remote mode was requested.
func Enabled() bool {
	return *vminsertURL != "" || *vmselectURL != ""
}

// Init validates the remote-mode flags. It must be called after flags are parsed and only
// when Enabled() is true.
func Init() error {
	if *vminsertURL == "" || *vmselectURL == "" {
		return fmt.Errorf("remote mode needs both -remote.vminsertURL and -remote.vmselectURL")
	}
	for _, u := range []string{*vminsertURL, *vmselectURL} {
		pu, err := url.Parse(u)
		if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			return fmt.Errorf("invalid remote URL %q: want http(s)://host[:port]", u)
		}
	}
	m, err := parseAccountIDs(*accountIDs)
	if err != nil {
		return err
	}
	seen := make(map[uint32]string, len(m))
	for ws, id := range m {
		if other, ok := seen[id]; ok {
			return fmt.Errorf("-remote.accountID gives workspaces %q and %q the same accountID %d: each workspace needs a tenant of its own", other, ws, id)
		}
		seen[id] = ws
	}
	accountOverrides = m
	return nil
}

var accountOverrides map[string]uint32

func parseAccountIDs(items []string) (map[string]uint32, error) {
	m := make(map[string]uint32)
	for _, item := range items {
		for _, pair := range strings.Split(item, ",") {
			pair = strings.TrimSpace(pair)
			if pair == "" {
				continue
			}
			ws, id, ok := strings.Cut(pair, "=")
			if !ok {
				return nil, fmt.Errorf("invalid -remote.accountID entry %q: want <workspace>=<accountID>", pair)
			}
			n, err := strconv.ParseUint(id, 10, 32)
			if err != nil {
				return nil, fmt.Errorf("invalid -remote.accountID entry %q: accountID must be a 32-bit unsigned integer", pair)
			}
			m[ws] = uint32(n)
		}
	}
	return m, nil
}

// Tenant is a VictoriaMetrics cluster tenant.
type Tenant struct {
	AccountID, ProjectID uint32
}

// String formats t as the cluster URLs want it: <accountID>:<projectID>.
func (t Tenant) String() string {
	return fmt.Sprintf("%d:%d", t.AccountID, t.ProjectID)
}

// TenantOf returns the VictoriaMetrics cluster tenant of workspace ws.
func TenantOf(ws string) Tenant {
	if id, ok := accountOverrides[ws]; ok {
		return Tenant{AccountID: id}
	}
	if !*legacyAccountIDs {
		if t, ok := uuidTenant(ws); ok {
			return t
		}
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(ws))
	id := h.Sum32()
	if id == 0 {
		id = 1
	}
	return Tenant{AccountID: id}
}

// uuidTenant reads the tenant from the first 8 bytes of a workspace id in the canonical
// lowercase UUID form the backend uses; false for any other id.
func uuidTenant(ws string) (Tenant, bool) {
	if len(ws) != 36 || ws[8] != '-' || ws[13] != '-' || ws[18] != '-' || ws[23] != '-' {
		return Tenant{}, false
	}
	for i := 0; i < len(ws); i++ {
		c := ws[i]
		if c != '-' && (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return Tenant{}, false
		}
	}
	account, err1 := strconv.ParseUint(ws[0:8], 16, 32)
	project, err2 := strconv.ParseUint(ws[9:13]+ws[14:18], 16, 32)
	if err1 != nil || err2 != nil || project == 0 {
		return Tenant{}, false
	}
	return Tenant{AccountID: uint32(account), ProjectID: uint32(project)}, true
}

// insertURL returns the URL of a vminsert Prometheus-API path for workspace ws.
func insertURL(ws, path string) string {
	return joinURL(*vminsertURL, "insert", ws, path)
}

// selectURL returns the URL of a vmselect Prometheus-API path for workspace ws.
func selectURL(ws, path string) string {
	return joinURL(*vmselectURL, "select", ws, path)
}

// deleteURL returns the URL of a delete path for workspace ws.
func deleteURL(ws, path string) string {
	return joinURL(*vmselectURL, "delete", ws, path)
}

func joinURL(base, kind, ws, path string) string {
	base = strings.TrimSuffix(base, "/")
	if *clusterPaths {
		return fmt.Sprintf("%s/%s/%s/prometheus%s", base, kind, TenantOf(ws), path)
	}
	return base + "/prometheus" + path
}

var client = &http.Client{Transport: &http.Transport{
	MaxIdleConnsPerHost: 16,
	IdleConnTimeout:     time.Minute,
}}

var errBodyTooLarge = errors.New("response body too large")

// do sends req and returns the response body when the status is 2xx. Remote 4xx become
// 422 execution errors carrying the remote message; transport failures and 5xx become 503.
func do(ctx context.Context, req *http.Request, maxBody int64) ([]byte, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *requestTimeout)
		defer cancel()
	}
	req = req.WithContext(ctx)
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, apierror.New(http.StatusServiceUnavailable, apierror.TypeTimeout, "remote storage did not answer in time: %s", err)
		}
		return nil, apierror.New(http.StatusServiceUnavailable, apierror.TypeUnavailable, "remote storage unavailable: %s", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, apierror.New(http.StatusServiceUnavailable, apierror.TypeUnavailable, "cannot read remote storage answer: %s", err)
	}
	if int64(len(body)) > maxBody {
		return nil, apierror.New(http.StatusUnprocessableEntity, apierror.TypeLimitExceeded, "remote storage answer exceeds %d bytes: %s", maxBody, errBodyTooLarge)
	}
	switch resp.StatusCode / 100 {
	case 2:
		return body, nil
	case 4:
		return nil, apierror.New(http.StatusUnprocessableEntity, apierror.TypeExecution, "remote storage refused the request (%d): %s", resp.StatusCode, remoteMessage(body))
	default:
		return nil, apierror.New(http.StatusServiceUnavailable, apierror.TypeUnavailable, "remote storage failed (%d): %s", resp.StatusCode, remoteMessage(body))
	}
}

// remoteMessage extracts the error text of a VictoriaMetrics answer, never quoting more than
// a short prefix.
func remoteMessage(body []byte) string {
	s := strings.TrimSpace(string(body))
	if len(s) > 512 {
		s = s[:512] + "…"
	}
	return s
}
