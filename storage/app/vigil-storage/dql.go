package main

import (
	"net/http"

	"vigil/storage/app/dqlapi"
	"vigil/storage/app/querylimits"
	"vigil/storage/app/vmsource"
	"vigil/storage/lib/dql"
)

// newDQLSource returns the DQL source of workspace ws: the embedded storage unless remote
// mode replaced it.
var newDQLSource = func(ws string, maxSeries int) dql.Source {
	src := vmsource.New(ws)
	src.MaxSeries = maxSeries
	return src
}

// queryRawHandler serves POST /v1/query/raw: DQL over the embedded storage, scoped to ws.
func queryRawHandler(w http.ResponseWriter, r *http.Request, ws string) error {
	lim, err := querylimits.FromRequest(r)
	if err != nil {
		return err
	}
	dqlapi.HandleQueryRaw(w, r, newDQLSource(ws, lim.MaxSeries), dqlapi.Limits{
		Timeout:     lim.Timeout,
		MaxPoints:   lim.MaxPoints,
		MaxDuration: lim.MaxDuration,
		MaxSeries:   lim.MaxSeries,
		Retention:   lim.Retention,
	})
	return nil
}
