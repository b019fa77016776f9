package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/prompb"

	"vigil/storage/app/ingest"
	"vigil/storage/lib/tenancy"
)

// Write forwards samples of workspace ws to vminsert's /api/v1/import (JSON lines), under
// the workspace's accountID. The samples already carry the tenant label.
func Write(ctx context.Context, ws string, samples []ingest.Sample) error {
	if len(samples) == 0 {
		return nil
	}
	body, err := importBody(ws, samples)
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, insertURL(ws, "/api/v1/import"), bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("BUG: cannot build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/stream+json")
	_, err = do(ctx, req, 1<<20)
	return err
}

// importBody groups samples by series and encodes them in VictoriaMetrics' JSON-lines import
// format. Every series must carry the tenant label of ws.
func importBody(ws string, samples []ingest.Sample) ([]byte, error) {
	type series struct {
		metric     map[string]string
		values     []float64
		timestamps []int64
	}
	var order []string
	bySeries := make(map[string]*series)
	var key strings.Builder
	for i := range samples {
		s := &samples[i]
		key.Reset()
		for _, l := range s.Labels {
			key.WriteString(l.Name)
			key.WriteByte(0)
			key.WriteString(l.Value)
			key.WriteByte(0)
		}
		k := key.String()
		sr := bySeries[k]
		if sr == nil {
			sr = &series{metric: labelMap(s.Labels)}
			if sr.metric[tenancy.Label] != ws {
				return nil, fmt.Errorf("BUG: sample of workspace %q without its tenant label: %s", ws, prompb.LabelsToString(s.Labels))
			}
			bySeries[k] = sr
			order = append(order, k)
		}
		sr.values = append(sr.values, s.Value)
		sr.timestamps = append(sr.timestamps, s.Timestamp)
	}
	var buf bytes.Buffer
	for _, k := range order {
		sr := bySeries[k]
		m, err := json.Marshal(sr.metric)
		if err != nil {
			return nil, err
		}
		buf.WriteString(`{"metric":`)
		buf.Write(m)
		buf.WriteString(`,"values":[`)
		for i, v := range sr.values {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.WriteString(formatValue(v))
		}
		buf.WriteString(`],"timestamps":[`)
		for i, t := range sr.timestamps {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.WriteString(strconv.FormatInt(t, 10))
		}
		buf.WriteString("]}\n")
	}
	return buf.Bytes(), nil
}

func labelMap(labels []prompb.Label) map[string]string {
	m := make(map[string]string, len(labels))
	for _, l := range labels {
		name := l.Name
		if name == "" {
			name = "__name__"
		}
		m[name] = l.Value
	}
	return m
}

// formatValue writes a sample value the way VictoriaMetrics' import parser reads it
// (it accepts Inf, -Inf and NaN as bare words).
func formatValue(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
