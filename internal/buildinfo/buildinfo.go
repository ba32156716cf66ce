// Package buildinfo says which cnf this is: the module version and the revision it was built
// from, for `cnf version`, the language server's serverInfo and every --json output.
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// version is set by release builds: go build -ldflags "-X
// github.com/cnf-tools/cnf/internal/buildinfo.version=v0.2.0".
var version string

// Version is the version of this build: the stamped release version, or the module's version
// (v0.2.0 when installed with go install ...@v0.2.0), or "(devel)"; followed by the VCS
// revision when the build recorded one: "v0.2.0", "(devel) 1a2b3c4d5e6f", "(devel)
// 1a2b3c4d5e6f+dirty".
func Version() string {
	v := version
	info, ok := debug.ReadBuildInfo()
	if v == "" {
		v = "(devel)"
		if ok && info.Main.Version != "" {
			v = info.Main.Version
		}
	}
	if rev := Revision(); rev != "" && !strings.Contains(v, rev) {
		v += " " + rev
	}
	return v
}

// Revision is the VCS revision the build was made from (12 hex digits, "+dirty" when the
// working tree had changes), or "" when the build did not record one (go test, go run).
func Revision() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var rev string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" && dirty {
		rev += "+dirty"
	}
	return rev
}
