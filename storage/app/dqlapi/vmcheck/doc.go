// Package vmcheck holds tests that run the DQL engine against the VictoriaMetrics storage
// embedded in vigil-storage (app/vmsource), to prove on the real backend what lib/dql proves
// on its in-memory fake: every corpus query gives the golden result, and push-down equals
// engine-side evaluation. It has no non-test code.
package vmcheck
