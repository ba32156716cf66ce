package lsp

import (
	"context"
	"sort"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/syntax"
)

// tokenTypes is the semantic-token legend: combinators are macros (they expand into loops), host
// functions functions, parameters parameters, other names variables; scalars carry the readonly
// modifier, so arrays and scalars look different.
var tokenTypes = []string{"macro", "function", "parameter", "variable"}

const (
	tokCombinator = iota
	tokHost
	tokParam
	tokVariable
)

const (
	modDeclaration = 1 << iota
	modScalar
)

type semToken struct {
	r         syntax.Range
	typ, mods int
}

func (s *Server) semanticTokens(ctx context.Context, p *protocol.SemanticTokensParams) (*protocol.SemanticTokens, error) {
	vw, err := s.view(ctx, string(p.TextDocument.URI))
	if err != nil || vw == nil {
		return &protocol.SemanticTokens{Data: []uint32{}}, err
	}
	var toks []semToken
	for _, fn := range vw.file.Prog.Syntax.Funcs {
		toks = append(toks, semToken{fn.Def.Name.Range, tokHost, modDeclaration})
		for id, sym := range fn.Refs {
			t := semToken{r: id.Range, typ: tokVariable}
			if sym.Param >= 0 {
				t.typ = tokParam
			}
			if id == sym.Decl {
				t.mods |= modDeclaration
			}
			if sym.Kind == syntax.Scalar {
				t.mods |= modScalar
			}
			toks = append(toks, t)
		}
		for _, b := range fn.Def.Bindings {
			if b.Rhs != nil {
				toks = append(toks, semToken{r: syntax.CallOf(b.Rhs).Keyword.Range, typ: tokCombinator})
			}
		}
		for _, h := range fn.Hosts {
			toks = append(toks, semToken{r: h.Range, typ: tokHost})
		}
	}
	sort.Slice(toks, func(i, j int) bool { return toks[i].r.Start < toks[j].r.Start })
	f := vw.file.Prog.Syntax.File
	data := []uint32{}
	var prevLine, prevChar uint32
	var last syntax.Pos = -1
	for _, t := range toks {
		if t.r.Start == last {
			continue // one token per place
		}
		last = t.r.Start
		start, end := toPosition(f, t.r.Start), toPosition(f, t.r.End)
		if end.Line != start.Line || end.Character <= start.Character {
			continue
		}
		dl := start.Line - prevLine
		dc := start.Character
		if dl == 0 {
			dc = start.Character - prevChar
		}
		data = append(data, dl, dc, end.Character-start.Character, uint32(t.typ), uint32(t.mods))
		prevLine, prevChar = start.Line, start.Character
	}
	return &protocol.SemanticTokens{Data: data}, nil
}
