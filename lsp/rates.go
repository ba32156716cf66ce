package lsp

import (
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/cnf-tools/cnf/internal/ratesfile"
)

// rates is the state of the cnf.solver.rates setting: the measured filter rates file the
// clustering weighs filters by (`cnf run --profile` writes it; cluster.Graph.SetRates). The
// file is read when the setting names it and again whenever it has changed when a document's
// new version is analysed (a profile run again), so that the next clustering uses it.
type rates struct {
	path string    // absolute; "" when the setting is empty
	mod  time.Time // the file's modification time when last read
	size int64
}

// workspaceRoot is the directory that a relative cnf.solver.rates is resolved in: the first
// workspace folder, else the root URI (file: URIs only); "" when the client gave neither.
func workspaceRoot(p *initializeParams) string {
	uris := []string{}
	for _, f := range p.WorkspaceFolders {
		uris = append(uris, f.URI)
	}
	if p.RootURI != nil {
		uris = append(uris, *p.RootURI)
	}
	for _, u := range uris {
		if parsed, err := url.Parse(u); err == nil && parsed.Scheme == "file" && parsed.Path != "" {
			return filepath.FromSlash(parsed.Path)
		}
	}
	return ""
}

// setRates applies a new value of cnf.solver.rates: "" stops using measured rates; a path
// (absolute, or relative to the workspace root) is read now. A file that cannot be read or
// is not a rates file is refused with a warning, and the rates used so far stay. It reports
// whether the rates changed (the open documents are then analysed again).
func (s *Server) setRates(value string) bool {
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	if value == "" {
		s.rates = rates{}
		cfg := s.engine.Config()
		had := cfg.Rates != nil
		cfg.Rates = nil
		s.engine.SetConfig(cfg)
		return had
	}
	path := value
	if !filepath.IsAbs(path) {
		s.mu.Lock()
		root := s.root
		s.mu.Unlock()
		if root == "" {
			s.warnUser("cnf.solver.rates: %s is relative and the workspace has no folder: give an absolute path", value)
			return false
		}
		path = filepath.Join(root, path)
	}
	return s.loadRates(path)
}

// refreshRates reads the rates file again if it has changed since it was read, and reports
// whether the rates changed.
func (s *Server) refreshRates() bool {
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	if s.rates.path == "" {
		return false
	}
	st, err := os.Stat(s.rates.path)
	if err != nil || st.ModTime().Equal(s.rates.mod) && st.Size() == s.rates.size {
		return false // gone: the rates read last stay (loadRates warned when the setting named it)
	}
	return s.loadRates(s.rates.path)
}

// loadRates reads path into the engine's configuration and reports whether it did; s.cfgMu
// is held.
func (s *Server) loadRates(path string) bool {
	st, err := os.Stat(path)
	if err != nil {
		s.warnUser("cnf.solver.rates: %v (the filters' rates stay as they were)", err)
		return false
	}
	r, err := ratesfile.Read(path)
	if err != nil {
		s.warnUser("cnf.solver.rates: %v (the filters' rates stay as they were)", err)
		s.rates = rates{path: path, mod: st.ModTime(), size: st.Size()} // not read again until it changes
		return false
	}
	s.rates = rates{path: path, mod: st.ModTime(), size: st.Size()}
	cfg := s.engine.Config()
	cfg.Rates = r
	s.engine.SetConfig(cfg)
	s.log.Printf("measured filter rates from %s (%d definitions)", path, len(r))
	return true
}

// reanalyseAll analyses every open document's current version again except skip's (whose
// version is being analysed already): the rates changed, and what they show is recomputed.
func (s *Server) reanalyseAll(skip string) {
	s.mu.Lock()
	versions := map[string]int32{}
	for u, d := range s.docs {
		if u != skip && d.cur != nil {
			versions[u] = d.cur.number
		}
	}
	s.mu.Unlock()
	for u, v := range versions {
		s.reanalyse(u, v)
	}
}
