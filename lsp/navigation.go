package lsp

import (
	"context"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/syntax"
)

func location(uri string, f *syntax.File, r syntax.Range) protocol.Location {
	return protocol.Location{URI: uriOf(uri), Range: toRange(f, r)}
}

// definition goes from a use of a parameter or binder to where it is bound.
func (s *Server) definition(ctx context.Context, p *protocol.DefinitionParams) ([]protocol.Location, error) {
	vw, t, err := s.at(ctx, &p.TextDocumentPositionParams)
	if err != nil || t == nil {
		return nil, err
	}
	f := vw.file.Prog.Syntax.File
	switch {
	case t.sym != nil:
		return []protocol.Location{location(vw.uri, f, t.sym.Decl.Range)}, nil
	case t.defName:
		return []protocol.Location{location(vw.uri, f, t.fn.Def.Name.Range)}, nil
	}
	return nil, nil
}

// references lists the binder or parameter and every use of it.
func (s *Server) references(ctx context.Context, p *protocol.ReferenceParams) ([]protocol.Location, error) {
	vw, t, err := s.at(ctx, &p.TextDocumentPositionParams)
	if err != nil || t == nil || t.sym == nil {
		return []protocol.Location{}, err
	}
	f := vw.file.Prog.Syntax.File
	out := []protocol.Location{location(vw.uri, f, t.sym.Decl.Range)}
	for _, id := range t.sym.Uses {
		out = append(out, location(vw.uri, f, id.Range))
	}
	return out, nil
}

func (s *Server) prepareRename(ctx context.Context, p *protocol.PrepareRenameParams) (*protocol.Range, error) {
	vw, t, err := s.at(ctx, &p.TextDocumentPositionParams)
	if err != nil || t == nil || (t.sym == nil && !t.defName) {
		return nil, err
	}
	r := toRange(vw.file.Prog.Syntax.File, t.id.Range)
	return &r, nil
}

// rename renames a parameter, binder or definition throughout its definition, refusing names
// that are invalid or already bound there.
func (s *Server) rename(ctx context.Context, p *protocol.RenameParams) (*protocol.WorkspaceEdit, error) {
	vw, t, err := s.at(ctx, &p.TextDocumentPositionParams)
	if err != nil || t == nil {
		return nil, err
	}
	if !syntax.ValidName(p.NewName) {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%q is not a valid name: names start with a lowercase letter and are not keywords or combinators", p.NewName)
	}
	f := vw.file.Prog.Syntax.File
	var ranges []syntax.Range
	switch {
	case t.sym != nil:
		if other := t.fn.Symbols[p.NewName]; other != nil && other != t.sym {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s is already bound in %s", p.NewName, t.fn.Def.Name.Name)
		}
		ranges = append(ranges, t.sym.Decl.Range)
		for _, id := range t.sym.Uses {
			ranges = append(ranges, id.Range)
		}
	case t.defName:
		if vw.file.Prog.Syntax.Func(p.NewName) != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s is already defined", p.NewName)
		}
		ranges = append(ranges, t.fn.Def.Name.Range)
		if t.fn.Sig != nil {
			ranges = append(ranges, t.fn.Sig.Name.Range)
		}
	default:
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "only parameters, bindings and definitions can be renamed")
	}
	edits := make([]protocol.TextEdit, len(ranges))
	for i, r := range ranges {
		edits[i] = protocol.TextEdit{Range: toRange(f, r), NewText: p.NewName}
	}
	return &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{p.TextDocument.URI: edits}}, nil
}
