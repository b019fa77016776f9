module vigil/storage

go 1.26.5

require (
	github.com/VictoriaMetrics/VictoriaMetrics v1.148.9
	github.com/VictoriaMetrics/metrics v1.44.0
	github.com/VictoriaMetrics/metricsql v0.87.3
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/golang/snappy v1.0.0
	github.com/klauspost/compress v1.20.4
)

require (
	cloud.google.com/go/compute/metadata v0.9.0 // indirect
	github.com/VictoriaMetrics/easyproto v1.2.0 // indirect
	github.com/VictoriaMetrics/fastcache v1.13.3 // indirect
	github.com/valyala/bytebufferpool v1.0.0 // indirect
	github.com/valyala/fastjson v1.6.10 // indirect
	github.com/valyala/fastrand v1.1.0 // indirect
	github.com/valyala/fasttemplate v1.2.2 // indirect
	github.com/valyala/gozstd v1.24.0 // indirect
	github.com/valyala/histogram v1.2.0 // indirect
	github.com/valyala/quicktemplate v1.8.0 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/oauth2 v0.36.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
)
