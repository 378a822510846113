package netclient

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func benchServer(b *testing.B) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"stars":42,"name":"markii"}`)
	}))
	b.Cleanup(srv.Close)
	return srv
}

// BenchmarkPinnedGET is a GET through the pinned client (fresh connection
// per request, by design).
func BenchmarkPinnedGET(b *testing.B) {
	srv := benchServer(b)
	c := New(Options{})
	req := Request{Method: "GET", URL: srv.URL + "/", Granted: func(h string) bool { return h == "127.0.0.1" }}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.Do(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlainGET is a plain net/http GET with connection reuse.
func BenchmarkPlainGET(b *testing.B) {
	benchPlain(b, false)
}

// BenchmarkPlainGETNoKeepAlive is a plain net/http GET on a fresh
// connection each time, like the pinned client.
func BenchmarkPlainGETNoKeepAlive(b *testing.B) {
	benchPlain(b, true)
}

func benchPlain(b *testing.B, noKeepAlive bool) {
	srv := benchServer(b)
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: noKeepAlive}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		resp, err := client.Get(srv.URL + "/")
		if err != nil {
			b.Fatal(err)
		}
		io.ReadAll(resp.Body)
		resp.Body.Close()
	}
}
