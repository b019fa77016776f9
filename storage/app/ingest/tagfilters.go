package ingest

import (
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"github.com/VictoriaMetrics/VictoriaMetrics/app/vmstorage"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/lrucache"
	"github.com/VictoriaMetrics/VictoriaMetrics/lib/storage"
)

// VictoriaMetrics (v1.148.9) caches, per partition's index, which series a set of tag filters
// matches — "none" included — and drops that cache at once only when a forced flush
// (vigil-storage's visibility flusher) finds new index entries still pending; when its own
// once-a-second background flush moved them first, the drop waits for a 10 s timer
// (lib/mergeset/table.go, defaultFlushCallbackInterval), so a query asked just before a series
// was created keeps answering without it for up to 10 s. Neither the drop nor the storage it
// belongs to is exported (app/vmstorage keeps the *storage.Storage to itself since v1.13x),
// so they are reached through the fields below, checked by name and type: a VictoriaMetrics
// that moves them fails checkStorageInternals at start-up, and
// TestNewSeriesVisibleAfterNegativeLookup fails if the drop stops having an effect.
var (
	typeStorage = reflect.TypeFor[*storage.Storage]()
	typeCache   = reflect.TypeFor[*lrucache.Cache]()
	typeMutex   = reflect.TypeFor[sync.Mutex]()
)

// embeddedStorage is the storage app/vmstorage opened: the field s of the *VMStorage behind
// vmstorage.VMInsertAPI.
func embeddedStorage() (*storage.Storage, error) {
	v := reflect.ValueOf(vmstorage.VMInsertAPI)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return nil, fmt.Errorf("vmstorage.VMInsertAPI is %T, not the embedded storage; call vmstorage.Init first", vmstorage.VMInsertAPI)
	}
	s, err := field(v.Elem(), "s", typeStorage)
	if err != nil {
		return nil, err
	}
	return (*storage.Storage)(s.UnsafePointer()), nil
}

// tagFiltersCaches calls reset on the tag-filters cache of every partition's index of s,
// holding the table's partition lock so that no partition is dropped meanwhile.
func tagFiltersCaches(s *storage.Storage, reset func(*lrucache.Cache)) error {
	tb, err := field(reflect.ValueOf(s).Elem(), "tb", nil)
	if err != nil {
		return err
	}
	if tb.Kind() != reflect.Pointer || tb.IsNil() {
		return fmt.Errorf("storage.Storage.tb is %s, not an open table", tb.Type())
	}
	lock, err := field(tb.Elem(), "ptwsLock", typeMutex)
	if err != nil {
		return err
	}
	ptws, err := field(tb.Elem(), "ptws", nil)
	if err != nil {
		return err
	}
	mu := (*sync.Mutex)(unsafe.Pointer(lock.UnsafeAddr()))
	mu.Lock()
	defer mu.Unlock()
	for i := range ptws.Len() {
		pt, err := field(ptws.Index(i).Elem(), "pt", nil)
		if err != nil {
			return err
		}
		idb, err := field(pt.Elem(), "idb", nil)
		if err != nil {
			return err
		}
		c, err := field(idb.Elem(), "tagFiltersToMetricIDsCache", typeCache)
		if err != nil {
			return err
		}
		reset((*lrucache.Cache)(c.UnsafePointer()))
	}
	return nil
}

// field is v's field name, checked to be of type want (when not nil).
func field(v reflect.Value, name string, want reflect.Type) (reflect.Value, error) {
	if v.Kind() != reflect.Struct {
		return reflect.Value{}, fmt.Errorf("VictoriaMetrics' storage layout changed: %s is not a struct (looking for %s)", v.Type(), name)
	}
	f := v.FieldByName(name)
	if !f.IsValid() {
		return reflect.Value{}, fmt.Errorf("VictoriaMetrics' storage layout changed: %s has no field %s", v.Type(), name)
	}
	if want != nil && f.Type() != want {
		return reflect.Value{}, fmt.Errorf("VictoriaMetrics' storage layout changed: %s.%s is %s, not %s", v.Type(), name, f.Type(), want)
	}
	return f, nil
}

// invalidateTagFiltersCaches drops every partition's tag-filters cache of s.
func invalidateTagFiltersCaches(s *storage.Storage) error {
	return tagFiltersCaches(s, (*lrucache.Cache).Reset)
}

// EmbeddedStorage is the storage app/vmstorage opened (after vmstorage.Init), for the reads
// app/vmstorage does not expose, such as a workspace's stored blocks.
func EmbeddedStorage() (*storage.Storage, error) {
	return embeddedStorage()
}

// checkStorageInternals fails when the fields above are not where this file expects them.
func checkStorageInternals() (*storage.Storage, error) {
	s, err := embeddedStorage()
	if err != nil {
		return nil, err
	}
	if err := tagFiltersCaches(s, func(*lrucache.Cache) {}); err != nil {
		return nil, err
	}
	return s, nil
}

// seriesCreated is how many series the storage has created since it started.
func seriesCreated(s *storage.Storage) uint64 {
	var m storage.Metrics
	s.UpdateMetrics(&m)
	return m.NewTimeseriesCreated
}
