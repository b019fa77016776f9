package tenancy

import (
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite tenancy.go from storage's naming rules")

// source is storage's definition of the naming rules, from this directory.
const source = "../../../../storage/lib/tenancy/names.go"

const header = "// Code generated from storage/lib/tenancy/names.go by go test -run TestGenerated -update; DO NOT EDIT.\n\n"

// TestGenerated holds tenancy.go to its one definition in storage: the same file under a
// generated-code header. After changing storage's, run
// go test ./lib/tenancy -run TestGenerated -update.
func TestGenerated(t *testing.T) {
	src, err := os.ReadFile(source)
	if err != nil {
		t.Fatalf("the agent's naming rules are generated from storage's: %s", err)
	}
	want := header + string(src)
	if *update {
		if err := os.WriteFile("tenancy.go", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile("tenancy.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("tenancy.go is not %s under the generated header; run go test ./lib/tenancy -run TestGenerated -update", source)
	}
}
