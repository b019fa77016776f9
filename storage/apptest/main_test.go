package apptest

import (
	"fmt"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "vigil-apptest-bin-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "cannot create a temporary directory: %s\n", err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}
