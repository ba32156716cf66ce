-- check.lua drives `cnf lsp` from headless Neovim 0.7.2's built-in LSP client (a second real
-- editor) and checks diagnostics, hover, code lenses, a command, a size error after an edit
-- and a quick fix, on examples/normalize2.cnf. Run:
--   CNF=bin/cnf FILE=examples/normalize2.cnf nvim --headless -u NONE -i NONE -c 'luafile check.lua'
-- Exit status 0 when every check holds.
local cnf = os.getenv('CNF') or 'cnf'
local file = os.getenv('FILE') or 'examples/normalize2.cnf'
local failures = 0
local function out(...) io.stdout:write(table.concat({ ... }, ' ') .. '\n') end
local function check(ok, what)
  out((ok and 'ok  ' or 'FAIL') .. ' ' .. what)
  if not ok then failures = failures + 1 end
end
local function finish()
  out(failures == 0 and 'neovim client: all checks passed' or ('neovim client: ' .. failures .. ' checks failed'))
  io.stdout:flush()
  vim.cmd(failures == 0 and 'qall!' or 'cquit 1')
end
vim.defer_fn(function() out('FAIL timed out after 60 s'); failures = failures + 1; finish() end, 60000)

vim.cmd('edit ' .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
vim.bo[buf].filetype = 'cnf'
local id = vim.lsp.start_client({ name = 'cnf', cmd = { cnf, 'lsp', '--debounce', '20ms' }, root_dir = vim.fn.getcwd() })
check(id ~= nil, 'the server starts')
vim.lsp.buf_attach_client(buf, id)
local client
vim.wait(10000, function() client = vim.lsp.get_client_by_id(id); return client and client.initialized end, 20)
check(client and client.initialized, 'initialize')

local function fusion_diags()
  local n = 0
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.severity == vim.diagnostic.severity.HINT and d.message:find('cannot share a loop', 1, true) then n = n + 1 end
  end
  return n
end
vim.wait(20000, function() return fusion_diags() == 2 end, 20)
check(fusion_diags() == 2, 'two Hint diagnostics (the default) on fusion-preventing edges')

local uri = vim.uri_from_bufnr(buf)
local line = 0
for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
  if l:sub(1, 13) == 'normalize2 xs' then line = i - 1 end
end
local function request(method, params)
  local res = vim.lsp.buf_request_sync(buf, method, params, 10000) or {}
  for _, r in pairs(res) do return r.result, r.err end
end
local hover = request('textDocument/hover', { textDocument = { uri = uri }, position = { line = line, character = 2 } })
check(hover and hover.contents.value:find('∀k1. (xs : k1) → (ys1 : k1, ys2 : k1)', 1, true) ~= nil, 'hover shows the size scheme')

local lenses = request('textDocument/codeLens', { textDocument = { uri = uri } }) or {}
local found = false
for _, l in ipairs(lenses) do
  if l.command and l.command.title:sub(1, 7) == '2 loops' then found = true end
end
check(found, 'code lens "2 loops ..."')

local cl = request('workspace/executeCommand', { command = 'cnf.showClustering', arguments = { uri, 'normalize2' } })
check(cl and cl.summary.loops == 2 and cl.dot:find('cluster_1', 1, true) ~= nil, 'cnf.showClustering returns both clusters')

-- replace_line replaces the lines of the buffer that contain text with replacement.
local function replace_line(text, replacement)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if l:find(text, 1, true) then
      vim.api.nvim_buf_set_lines(buf, i - 1, i, false, { replacement })
    end
  end
end

-- Type a broken binding: a size error appears.
replace_line('ys2  = map', '      ys2  = map2 (+) gts ys1')
local function size_error()
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.severity == vim.diagnostic.severity.ERROR and d.message:find('map2 needs gts and ys1', 1, true) then return true end
  end
  return false
end
vim.wait(20000, size_error, 20)
check(size_error(), 'a size error appears after typing a broken binding')

-- A misspelt combinator: the quick fix from textDocument/codeAction, applied as Neovim applies
-- a workspace edit, puts it right and the error goes away.
replace_line('ys2  = map2', '      ys2  = mapp (/ sum2) xs')
local function typo()
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.message:find('did you mean map?', 1, true) then return d end
  end
end
vim.wait(20000, function() return typo() ~= nil end, 20)
local d = typo()
local actions = {}
if d then
  local range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } }
  actions = request('textDocument/codeAction', {
    textDocument = { uri = uri }, range = range,
    context = { diagnostics = { { range = range, message = d.message, severity = 1 } } },
  }) or {}
end
local fix
for _, a in ipairs(actions) do
  if a.title == 'change to map' then fix = a end
end
check(fix ~= nil, 'quick fix "change to map" for mapp')
if fix then vim.lsp.util.apply_workspace_edit(fix.edit, 'utf-16') end
vim.wait(20000, function() return typo() == nil end, 20)
local fixed = false
for _, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
  if l == '      ys2  = map (/ sum2) xs' then fixed = true end
end
check(fixed and typo() == nil, 'the quick fix applied: map again, and the error is gone')

client.stop()
vim.wait(5000, function() return vim.lsp.get_client_by_id(id) == nil end, 20)
finish()
