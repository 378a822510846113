package isolate

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/markii/markii/runtime/host"
	"github.com/markii/markii/runtime/netclient"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// The network benchmarks time one GET of a small JSON document from a
// server on 127.0.0.1 and report the median and 99th-percentile latency:
//
//	go test -run '^$' -bench GET -benchtime 300x ./runtime/isolate/
//
// BenchmarkGETThroughIsolate is the whole path a script's request takes
// (a run on a prewarmed worker whose script calls net.fetch_json, the call
// crossing the wire to the host broker, the pinned client with a
// literal-IP grant, the answer crossing back and being decoded, the value
// returned); the plain GETs are the baseline. The overhead is the
// difference of the medians.

const fetchScript = `local d = net.fetch_json(URL) return d.stars`

func jsonServer(b *testing.B) (*httptest.Server, *atomic.Int64) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"stars":42,"name":"markii"}`)
	}))
	b.Cleanup(srv.Close)
	return srv, &hits
}

// BenchmarkGETThroughIsolate: net.fetch_json in a script run through a
// prewarmed isolate worker, the host broker and the pinned client.
func BenchmarkGETThroughIsolate(b *testing.B) {
	srv, hits := jsonServer(b)
	pool := NewPool()
	defer pool.Close()
	pool.Prewarm()
	req := request(script.Limits{}, lua("get", "local URL = '"+srv.URL+"/' "+fetchScript))
	client := netclient.New(netclient.Options{Version: "bench"})
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		waitWarmB(b, pool)
		h := host.New(host.Options{Trigger: script.Manual, Hosts: []string{"127.0.0.1"}, Client: client})
		b.StartTimer()
		var got script.Outcome
		start := time.Now()
		err := pool.Run(context.Background(), req, h, func(o script.Outcome) { got = o })
		times = append(times, time.Since(start))
		if err != nil || got.Kind != value.Ok || string(got.Value) != "42" {
			b.Fatalf("run %d: %v %+v", i, err, got)
		}
	}
	b.StopTimer()
	if n := hits.Load(); n != int64(b.N) {
		b.Fatalf("the server saw %d requests for %d runs", n, b.N)
	}
	reportLatency(b, times)
}

// BenchmarkGETPlain: a plain net/http GET in this process, reusing its
// connection.
func BenchmarkGETPlain(b *testing.B) {
	benchPlainGET(b, &http.Transport{Proxy: nil})
}

// BenchmarkGETPlainFreshConnection: a plain net/http GET on a new
// connection each time, as the pinned client makes them.
func BenchmarkGETPlainFreshConnection(b *testing.B) {
	benchPlainGET(b, &http.Transport{Proxy: nil, DisableKeepAlives: true})
}

func benchPlainGET(b *testing.B, transport *http.Transport) {
	srv, hits := jsonServer(b)
	client := &http.Client{Transport: transport}
	defer transport.CloseIdleConnections()
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		resp, err := client.Get(srv.URL + "/")
		if err != nil {
			b.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		times = append(times, time.Since(start))
		if err != nil || len(body) == 0 {
			b.Fatalf("GET %d: %v", i, err)
		}
	}
	b.StopTimer()
	if n := hits.Load(); n != int64(b.N) {
		b.Fatalf("the server saw %d requests for %d GETs", n, b.N)
	}
	reportLatency(b, times)
}

// reportLatency reports the median and 99th-percentile of times.
func reportLatency(b *testing.B, times []time.Duration) {
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds()), "p99-µs")
}
