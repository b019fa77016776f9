package main

import (
	"net/http"
	"time"

	"vigil/storage/app/dqlapi"
	"vigil/storage/app/querylimits"
	"vigil/storage/app/retention"
	"vigil/storage/app/vmsource"
	"vigil/storage/lib/dql"
)

// newDQLSource returns the DQL source of workspace ws, reading nothing older than notBefore
// (ms; 0: all): the embedded storage unless remote mode replaced it.
var newDQLSource = func(ws string, maxSeries int, notBefore int64) dql.Source {
	src := vmsource.New(ws)
	src.MaxSeries = maxSeries
	src.NotBefore = notBefore
	return src
}

// queryRawHandler serves POST /v1/query/raw: DQL over the embedded storage, scoped to ws.
func queryRawHandler(w http.ResponseWriter, r *http.Request, ws string) error {
	lim, err := querylimits.FromRequest(r)
	if err != nil {
		return err
	}
	// The source keeps its reads within the retention whatever the DQL layer asks of it.
	notBefore := retention.Oldest(time.Now().UnixMilli(), lim.Retention)
	dqlapi.HandleQueryRaw(w, r, newDQLSource(ws, lim.MaxSeries, notBefore), dqlapi.Limits{
		Timeout:     lim.Timeout,
		MaxPoints:   lim.MaxPoints,
		MaxDuration: lim.MaxDuration,
		MaxSeries:   lim.MaxSeries,
		Retention:   lim.Retention,
	})
	return nil
}
