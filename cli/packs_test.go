package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestPacksList(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ana := filepath.Join(dir, "ana")
	os.MkdirAll(filepath.Join(ana, "scripts"), 0o755)
	os.WriteFile(filepath.Join(ana, "pack.json"), []byte(`{"name":"ana","engine":"react","version":"1.0.0","components":{"timeline":"t.js","stat":"s.js"}}`), 0o644)
	os.WriteFile(filepath.Join(ana, "scripts", "http.lua"), []byte("return {}"), 0o644)
	writeTestZip(t, filepath.Join(dir, "bad.mkp"), map[string]string{"pack.json": `{"name":"Bad"}`, "webview.js": ""})

	env := newTestEnv(t)
	env.writeSettings(t, map[string]any{"packs": []string{dir}})
	var out, errOut bytes.Buffer
	code := Main([]string{"packs", "list"}, env.stdio(&out, &errOut))
	want := "ana 1.0.0 (engine react) " + ana + "\n  components: ana_stat, ana_timeline\n  modules: http\n"
	if code != ExitOK || out.String() != want {
		t.Fatalf("exit %d\n got  %q\n want %q", code, out.String(), want)
	}
	if !bytes.Contains(errOut.Bytes(), []byte(`markii: pack `+filepath.Join(dir, "bad.mkp")+` was not loaded: pack.json is invalid: "name" must be`)) {
		t.Fatalf("stderr %q", errOut.String())
	}

	env = newTestEnv(t)
	out.Reset()
	if code := Main([]string{"packs", "list"}, env.stdio(&out, &errOut)); code != ExitOK || out.String() != "No pack folders are configured (add \"packs\" to your markii config).\n" {
		t.Fatalf("exit %d %q", code, out.String())
	}
	if code := Main([]string{"packs"}, env.stdio(&out, &errOut)); code != ExitUsage {
		t.Fatalf("exit %d", code)
	}
}

// The real command reads pack folders from the user's own config file only.
func TestPacksListReadsUserConfig(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	packDir := filepath.Join(t.TempDir(), "dash")
	os.MkdirAll(packDir, 0o755)
	os.WriteFile(filepath.Join(packDir, "pack.json"), []byte(`{"name":"dash","engine":"react","components":{"chart":"c.js"}}`), 0o644)
	os.MkdirAll(filepath.Join(home, "markii"), 0o700)
	cfg, _ := json.Marshal(map[string]any{"packs": []string{packDir}})
	os.WriteFile(filepath.Join(home, "markii", "config.json"), cfg, 0o600)
	var out, errOut bytes.Buffer
	code := Main([]string{"packs", "list"}, Stdio{Out: &out, Err: &errOut})
	if code != ExitOK || out.String() != "dash - (engine react) "+packDir+"\n  components: dash_chart\n" {
		t.Fatalf("exit %d %q %q", code, out.String(), errOut.String())
	}
}
