package lsp

import (
	"context"
	"fmt"
	"sort"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/syntax"
)

// completion offers the combinators, the keywords, and the names in scope at the cursor (the
// parameters and bindings of the enclosing definition, with their kinds and sizes).
func (s *Server) completion(ctx context.Context, p *protocol.CompletionParams) ([]protocol.CompletionItem, error) {
	items := []protocol.CompletionItem{}
	for _, key := range syntax.Combinators {
		doc := combinatorDocs[key]
		labels := []string{key}
		if key == "mapN" {
			labels = []string{"map2", "map3"}
		}
		for _, label := range labels {
			items = append(items, protocol.CompletionItem{Label: label, Kind: protocol.CompletionItemKindKeyword, Detail: doc[0], Documentation: doc[1]})
		}
	}
	for _, k := range []string{"let", "in", "if", "then", "else"} {
		items = append(items, protocol.CompletionItem{Label: k, Kind: protocol.CompletionItemKindKeyword})
	}
	vw, err := s.view(ctx, string(p.TextDocument.URI))
	if err != nil || vw == nil {
		return items, err
	}
	fn, i := vw.funcAt(fromPosition(vw.file.Prog.Syntax.File, p.Position))
	if fn == nil {
		return items, nil
	}
	r := vw.file.Prog.Funcs[i]
	names := make([]string, 0, len(fn.Symbols))
	for n := range fn.Symbols {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		sym := fn.Symbols[n]
		detail := sym.Kind.String()
		if r != nil && sym.Kind == syntax.Array {
			if size := r.Size(n); size != nil {
				detail += " of size " + r.FormatSize(size, true)
			}
		}
		kind := protocol.CompletionItemKindVariable
		if sym.Param >= 0 {
			detail = "parameter, " + detail
		}
		items = append(items, protocol.CompletionItem{Label: n, Kind: kind, Detail: detail})
	}
	return items, nil
}

// combinatorParams are the parameters signature help shows for each combinator.
var combinatorParams = map[string][]string{
	"fold":      {"worker :: a -> b -> a", "start :: a", "xs :: Array b"},
	"map":       {"worker :: a -> b", "xs :: Array a"},
	"filter":    {"predicate :: a -> Bool", "xs :: Array a"},
	"generate":  {"size :: Nat", "worker :: Nat -> a"},
	"gather":    {"data :: Array a", "indices :: Array Nat"},
	"cross":     {"as :: Array a", "bs :: Array b"},
	"external":  {"f", "args ..."},
	"postscanl": {"worker :: a -> b -> a", "start :: a", "xs :: Array b"},
	"prescanl":  {"worker :: a -> b -> a", "start :: a", "xs :: Array b"},
	"indexed":   {"xs :: Array a"},
	"zip":       {"xs :: Array a", "ys :: Array b"},
	"unzip":     {"ps :: Array (a, b)"},
	"take":      {"n :: Int", "xs :: Array a"},
	"drop":      {"n :: Int", "xs :: Array a"},
	"slice":     {"start :: Int", "n :: Int", "xs :: Array a"},
	"tail":      {"xs :: Array a"},
	"append":    {"xs :: Array a", "ys :: Array a"},
	"length":    {"xs :: Array a"},
	"reverse":   {"xs :: Array a"},
}

// signatureHelp shows the combinator being applied at the cursor and which argument is next.
func (s *Server) signatureHelp(ctx context.Context, p *protocol.SignatureHelpParams) (*protocol.SignatureHelp, error) {
	vw, err := s.view(ctx, string(p.TextDocument.URI))
	if err != nil || vw == nil {
		return nil, err
	}
	off := fromPosition(vw.file.Prog.Syntax.File, p.Position)
	fn, _ := vw.funcAt(off)
	if fn == nil {
		return nil, nil
	}
	for _, b := range fn.Def.Bindings {
		if b.Rhs == nil || off < b.Start || off > b.End+1 {
			continue
		}
		call := syntax.CallOf(b.Rhs)
		name := call.Keyword.Name
		params := combinatorParams[name]
		key := name
		if n, ok := syntax.MapArity(name); ok && n > 1 {
			key = "mapN"
			params = []string{"worker"}
			for i := 1; i <= n; i++ {
				params = append(params, fmt.Sprintf("xs%d :: Array a%d", i, i))
			}
		}
		if params == nil {
			return nil, nil
		}
		active := 0
		for _, a := range call.Args {
			if a.Span().End < off {
				active++
			}
		}
		if active >= len(params) {
			active = len(params) - 1
		}
		info := protocol.SignatureInformation{Label: combinatorDocs[key][0], Documentation: combinatorDocs[key][1]}
		for _, prm := range params {
			info.Parameters = append(info.Parameters, protocol.ParameterInformation{Label: prm})
		}
		return &protocol.SignatureHelp{Signatures: []protocol.SignatureInformation{info}, ActiveParameter: uint32(active)}, nil
	}
	return nil, nil
}
