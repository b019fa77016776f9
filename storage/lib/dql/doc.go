// Package dql is the DQL engine: it evaluates the statements of package parser (the
// language) over a Source (raw samples and MetricsQL range queries), as specified in
// /work/shared/DQL.md and restated in this package's README, and pushes exact aggregations
// down to MetricsQL (compile.go).
//
// Evaluation follows DQL.md §9: select timelines by the tag part of the filter, fetch the
// referenced fields in [start, end), join them by timestamp into rows, drop rows failing the
// filter, run transforms, roll up per bucket, group by the BY tags, project, then fill,
// HAVING, ORDER BY, LIMIT/OFFSET per series and SORDER BY, SLIMIT/SOFFSET across series.
//
// Names are classified once per query: a tag key of the measurement is a tag, a value of
// __field__ is a field; an unknown name compared with a string is treated as an absent tag
// ("") and otherwise as an absent field (null). A Source with a name cache (NameCacheSource,
// the embedded storage) answers from its workspace's NameCache and looks up only the names
// the query references, with one existence search each once the cached answer is older than
// the cache's TTL; other Sources list every tag and field with Source.LabelNames and
// Source.LabelValues.
//
// The Source is already scoped to one workspace; this package never names the tenant label,
// and the parser's checker has refused reserved label names anywhere in a query.
//
// The README lists what is implemented and which EXT constructs remain.
package dql
