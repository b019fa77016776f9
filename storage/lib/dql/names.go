package dql

import (
	"vigil/storage/lib/dql/parser"

	"context"
	"sort"
	"sync"
	"time"

	"github.com/VictoriaMetrics/metricsql"

	"vigil/storage/lib/tenancy"
)

// NameCacheSource is a Source that keeps the tag/field classification of its measurements
// across queries, so that a query does not list every tag and field of its measurement
// first (a label search over all the measurement's series).
//
// Its label searches must answer per UTC day, as VictoriaMetrics' per-day index does: a
// name is a tag or a field over [start, end] when a series of one of the days from start to
// end has it, and over ranges of more than 40 days when any series has it.
type NameCacheSource interface {
	Source
	// NameCache returns the cache of the source's workspace. Sources of different
	// workspaces never return the same cache; nil disables caching.
	NameCache() *NameCache
	// AnySeries reports whether at least one series matches filterss within [start, end].
	AnySeries(ctx context.Context, filterss [][]metricsql.LabelFilter, start, end int64) (bool, error)
}

// NameCache remembers which names are tags and which are fields of the measurements of one
// workspace, per range of days.
//
// Over a fixed range of days the set of series only grows (until series are deleted, see
// Reset), so a name once seen as a tag stays a tag. Whether a name is a field, or neither,
// can change when new series arrive: that answer is reused for TTL and then checked again,
// with one bounded existence search per name the query references. New tags and fields are
// therefore found within TTL of becoming searchable.
type NameCache struct {
	ttl time.Duration

	mu      sync.Mutex
	entries map[nameKey]*nameEntry
	resets  uint64 // answers obtained before a Reset are not recorded after it
}

// nameCacheMaxAge bounds the life of an entry: it is rebuilt from the storage afterwards,
// so names whose series left the retention period are eventually forgotten.
const nameCacheMaxAge = time.Minute

// nameCacheMaxEntries bounds the entries of one workspace's cache.
const nameCacheMaxEntries = 4096

// nameCacheMaxChecked bounds the names an entry remembers having looked up.
const nameCacheMaxChecked = 10_000

// NewNameCache returns an empty cache that reuses answers that can change for ttl.
func NewNameCache(ttl time.Duration) *NameCache {
	return &NameCache{ttl: ttl, entries: map[nameKey]*nameEntry{}}
}

// Reset forgets everything; call it after series were deleted.
func (c *NameCache) Reset() {
	c.mu.Lock()
	c.entries = map[nameKey]*nameEntry{}
	c.resets++
	c.mu.Unlock()
}

// nameKey is a measurement and the UTC days its label searches cover.
type nameKey struct {
	measurement    string
	minDay, maxDay int64 // both 0: the whole retention period
}

const msPerDay = 24 * 3600 * 1000

// maxDaysPerDaySearch mirrors VictoriaMetrics: longer ranges are searched in its global
// index, which ignores time.
const maxDaysPerDaySearch = 40

func keyOf(m string, start, end int64) nameKey {
	minDay, maxDay := start/msPerDay, end/msPerDay
	if start < 0 || end < start || maxDay-minDay > maxDaysPerDaySearch {
		return nameKey{measurement: m}
	}
	return nameKey{measurement: m, minDay: minDay, maxDay: maxDay}
}

type nameEntry struct {
	created time.Time
	tags    map[string]bool      // seen as tags; a tag stays a tag
	fields  map[string]bool      // seen as fields
	checked map[string]time.Time // when a name not in tags was last looked up
	listed  time.Time            // when every tag and field was last listed
	allTags []string             // sorted, as of listed
	allFlds []string             // sorted, as of listed
}

// verified returns when name's field-or-nothing answer was last confirmed.
func (e *nameEntry) verified(name string) time.Time {
	t := e.checked[name]
	if e.listed.After(t) {
		return e.listed
	}
	return t
}

// names is the classification a query needs.
type names struct {
	tags, fields     map[string]bool // of the referenced names (of every name when all)
	allTags, allFlds []string        // sorted; only when all
}

// entry returns the entry of key, creating or renewing it. c.mu must be held.
func (c *NameCache) entry(key nameKey, now time.Time) *nameEntry {
	e := c.entries[key]
	if e != nil && now.Sub(e.created) < nameCacheMaxAge {
		return e
	}
	if e == nil && len(c.entries) >= nameCacheMaxEntries {
		for k, old := range c.entries {
			if now.Sub(old.created) >= nameCacheMaxAge {
				delete(c.entries, k)
			}
		}
		for k := range c.entries {
			if len(c.entries) < nameCacheMaxEntries {
				break
			}
			delete(c.entries, k)
		}
	}
	e = &nameEntry{created: now, tags: map[string]bool{}, fields: map[string]bool{}, checked: map[string]time.Time{}}
	c.entries[key] = e
	return e
}

// classify tells tags from fields among refs (and lists every tag and field when all) in
// measurement m over [start, end], using the cache where its answer cannot be stale by more
// than its TTL.
func (c *NameCache) classify(ctx context.Context, src NameCacheSource, m string, refs []string, all bool, start, end int64) (*names, error) {
	key := keyOf(m, start, end)
	now := time.Now()
	c.mu.Lock()
	resets := c.resets
	out, stale, wasField, needList := c.cached(key, now, refs, all)
	c.mu.Unlock()

	// Storage calls run without the lock; their answers are recorded as of the time before
	// the calls, so an entry is never believed fresher than it is.
	if needList {
		listed, err := listNames(ctx, src, m, start, end)
		if err != nil {
			return nil, err
		}
		c.recordListed(key, now, resets, listed)
		return listed, nil
	}
	if len(stale) == 0 {
		return out, nil
	}
	looked, err := lookUpNames(ctx, src, m, stale, wasField, start, end)
	if err != nil {
		return nil, err
	}
	for n, l := range looked {
		if l.tag {
			out.tags[n] = true
		} else if l.field {
			out.fields[n] = true
		}
	}
	c.recordLooked(key, now, resets, looked)
	return out, nil
}

// cached answers from the entry of key what it can: the classification of refs (and every
// name when all) that is fresh enough, the names to look up again (stale, with whether each
// was a field), or needList when every name must be listed. c.mu must be held.
func (c *NameCache) cached(key nameKey, now time.Time, refs []string, all bool) (out *names, stale []string, wasField map[string]bool, needList bool) {
	out = &names{tags: make(map[string]bool, len(refs)), fields: make(map[string]bool, len(refs))}
	wasField = map[string]bool{}
	e := c.entry(key, now)
	if all && now.Sub(e.listed) >= c.ttl {
		return out, nil, wasField, true
	}
	if all {
		out.allTags, out.allFlds = e.allTags, e.allFlds
		for _, n := range e.allTags {
			out.tags[n] = true
		}
		for _, n := range e.allFlds {
			out.fields[n] = true
		}
	}
	for _, n := range refs {
		switch {
		case e.tags[n]:
			out.tags[n] = true
		case now.Sub(e.verified(n)) >= c.ttl:
			stale = append(stale, n)
			wasField[n] = e.fields[n]
		case e.fields[n]:
			out.fields[n] = true
		}
	}
	return out, stale, wasField, false
}

// recordListed records a listing of every tag and field made at now, unless the cache was
// reset since (resets).
func (c *NameCache) recordListed(key nameKey, now time.Time, resets uint64, listed *names) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.resets != resets {
		return
	}
	e := c.entry(key, now)
	for n := range listed.tags {
		e.tags[n] = true
	}
	for n := range listed.fields {
		e.fields[n] = true
	}
	if now.After(e.listed) {
		e.listed = now
		e.allTags, e.allFlds = listed.allTags, listed.allFlds
	}
}

// lookup is what storage said of one name: a tag, a field, or neither.
type lookup struct{ tag, field bool }

// lookUpNames asks storage, with one bounded existence search each, whether the names are
// tags or fields of measurement m; a name that was a field is not asked again whether it is
// one (series are only added).
func lookUpNames(ctx context.Context, src NameCacheSource, m string, stale []string, wasField map[string]bool, start, end int64) (map[string]lookup, error) {
	looked := make(map[string]lookup, len(stale))
	mf := measurementFilter(m)
	for _, n := range stale {
		if tenancy.IsReserved(n) {
			looked[n] = lookup{}
			continue
		}
		tag, err := src.AnySeries(ctx, [][]metricsql.LabelFilter{{mf, {Label: n, IsNegative: true}}}, start, end)
		if err != nil {
			return nil, err
		}
		field := wasField[n]
		if !tag && !field {
			field, err = src.AnySeries(ctx, [][]metricsql.LabelFilter{{mf, {Label: tenancy.FieldLabel, Value: n}}}, start, end)
			if err != nil {
				return nil, err
			}
		}
		looked[n] = lookup{tag: tag, field: field}
	}
	return looked, nil
}

// recordLooked records the answers of lookUpNames made at now, unless the cache was reset
// since (resets).
func (c *NameCache) recordLooked(key nameKey, now time.Time, resets uint64, looked map[string]lookup) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.resets != resets {
		return
	}
	e := c.entry(key, now)
	if len(e.checked) > nameCacheMaxChecked {
		// Names only ever looked up once (typos, probes) must not pile up.
		clear(e.checked)
	}
	for n, l := range looked {
		if l.tag {
			e.tags[n] = true
		}
		if l.field {
			e.fields[n] = true
		}
		if now.After(e.checked[n]) {
			e.checked[n] = now
		}
	}
}

// listNames lists every tag and field of measurement m over [start, end].
func listNames(ctx context.Context, src Source, m string, start, end int64) (*names, error) {
	mf := [][]metricsql.LabelFilter{{measurementFilter(m)}}
	labels, err := src.LabelNames(ctx, mf, start, end, 0)
	if err != nil {
		return nil, err
	}
	out := &names{tags: map[string]bool{}, fields: map[string]bool{}}
	for _, n := range labels {
		if !tenancy.IsReserved(n) {
			out.tags[n] = true
			out.allTags = append(out.allTags, n)
		}
	}
	flds, err := src.LabelValues(ctx, tenancy.FieldLabel, mf, start, end, 0)
	if err != nil {
		return nil, err
	}
	for _, f := range flds {
		out.fields[f] = true
	}
	out.allFlds = flds
	sort.Strings(out.allTags)
	sort.Strings(out.allFlds)
	return out, nil
}

// referencedNames returns the names a statement mentions, sorted and without duplicates.
func referencedNames(s *parser.QueryStmt) []string {
	set := map[string]bool{}
	add := func(e parser.Expr) {
		parser.Walk(e, func(x parser.Expr) bool {
			if n, ok := x.(*parser.NameExpr); ok {
				set[n.Name] = true
			}
			return true
		})
	}
	for _, t := range s.Targets {
		add(t.Expr)
		if t.Fill != nil {
			add(t.Fill.Value)
		}
	}
	add(s.Filter)
	add(s.Having)
	for _, n := range s.By {
		set[n.Name] = true
	}
	for _, o := range []*parser.OrderBy{s.OrderBy, s.SOrderBy} {
		if o != nil && o.Name != nil {
			set[o.Name.Name] = true
		}
	}
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
