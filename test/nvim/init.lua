-- Neovim (0.7+) as a second LSP client of the Hermes Prompt Lens server, run headless by
-- test/nvim/nvim.test.ts:
--   nvim --headless --clean -u test/nvim/init.lua
-- It starts `node dist/server.js --stdio`, attaches it to a SOUL.md of a generated Hermes home,
-- requests hover, code lens and code actions, executes the refresh command of the first code
-- action, edits and saves the file, keeps the session list from the server's changes (full list,
-- then deltas), and writes everything it saw as JSON to $HERMES_LENS_RESULTS
-- (the test checks the figures and reads the state.db itself). Every wait is vim.wait() on a
-- condition (a response or a notification arriving), never a fixed sleep.
local env = function(name)
  local v = os.getenv(name)
  assert(v and v ~= '', name .. ' is not set')
  return v
end
local NODE = env('HERMES_LENS_NODE')
local SERVER = env('HERMES_LENS_SERVER')
local HOME = env('HERMES_LENS_HOME')
local SOUL = env('HERMES_LENS_SOUL')
local OUT = env('HERMES_LENS_RESULTS')
local TIMEOUT = tonumber(os.getenv('HERMES_LENS_NVIM_TIMEOUT') or '20000')

local results = {
  nvim = vim.version(),
  configurationRequests = {},
  statuses = {},
  sessionLists = 0,
  sessionListDeltas = 0,
  sessionPatches = 0,
  fullListRequests = 0,
}

local function write_results()
  local f = assert(io.open(OUT .. '.tmp', 'w'))
  f:write(vim.fn.json_encode(results))
  f:close()
  assert(os.rename(OUT .. '.tmp', OUT))
end

local settings = { hermesLens = { home = HOME, profiles = {}, confirmRefresh = false } }

-- Neovim 0.7 answers workspace/configuration but does not announce it; the server pulls settings
-- only from clients that do (as the LSP says), so announce it, as Neovim 0.8+ does by default.
local capabilities = vim.lsp.protocol.make_client_capabilities()
capabilities.workspace = capabilities.workspace or {}
capabilities.workspace.configuration = true

local function wait_for(what, cond)
  local ok = vim.wait(TIMEOUT, cond, 20)
  if not ok then error('timed out after ' .. TIMEOUT .. ' ms waiting for ' .. what) end
end

local function only_result(responses, err, method)
  if not responses then error(method .. ' failed: ' .. tostring(err)) end
  for _, r in pairs(responses) do
    if r.error then error(method .. ' returned an error: ' .. vim.inspect(r.error)) end
    return r.result
  end
  error(method .. ': no response')
end

-- hermes/sessionListChanged is the full list (no `base`) or a delta against revision `base`
-- (shared/protocol.ts): per profile, sessions `changed` whole (new ones, or replacing the one
-- held), `patched` as groups of sessions that changed in the same fields, in columns (the i-th
-- session named by `at`, runs of positions {first, count, ...} counted from 0 in the list held once
-- the `removed` ids are out, gets each fields[f] set to values[f][i]; never null, which Neovim's
-- decoder would drop); applied as shared/sessionListChanges.ts applies it: the sessions held keep
-- their order, new ones go at the end. nil: it does not fit the list held (another revision, other
-- profiles, a position the list does not have), and the full list must be requested.
local function apply_profile_delta(before, delta)
  local gone = {}
  for _, id in ipairs(delta.removed) do gone[id] = true end
  local sessions, at = {}, {}
  for _, held in ipairs(before.sessions) do
    if not gone[held.id] then
      table.insert(sessions, held)
      at[held.id] = #sessions
    end
  end
  for _, group in ipairs(delta.patched) do
    local i = 0
    for run = 1, #group.at, 2 do
      local first, count = group.at[run], group.at[run + 1]
      -- A position this list does not have: not the list the server diffed.
      if count == nil or first < 0 or first + count > #sessions then return nil end
      for p = first + 1, first + count do
        i = i + 1
        local session = vim.tbl_extend('force', {}, sessions[p])
        for f, field in ipairs(group.fields) do session[field] = group.values[f][i] end
        sessions[p] = session
      end
    end
  end
  for _, s in ipairs(delta.changed) do
    -- A session held is replaced; one not held is new (order carries no meaning).
    if at[s.id] then sessions[at[s.id]] = s else table.insert(sessions, s) end
  end
  local profile = { sessions = sessions }
  for k, v in pairs(delta) do
    if k ~= 'changed' and k ~= 'patched' and k ~= 'removed' then profile[k] = v end
  end
  return profile
end

local function apply_session_change(list, change)
  if change.base == nil then return change end
  if list == nil or list.revision ~= change.base or #list.profiles ~= #change.profiles then return nil end
  local profiles = {}
  for i, delta in ipairs(change.profiles) do
    if list.profiles[i].name ~= delta.name then return nil end
    profiles[i] = apply_profile_delta(list.profiles[i], delta)
    if profiles[i] == nil then return nil end
  end
  return { revision = change.revision, home = change.home, problem = change.problem, profiles = profiles }
end

local fetching_full_list = false

local function on_session_list_changed(_, change, ctx)
  results.sessionLists = results.sessionLists + 1
  if change.base ~= nil then
    results.sessionListDeltas = results.sessionListDeltas + 1
    for _, p in ipairs(change.profiles) do
      for _, group in ipairs(p.patched) do
        for run = 2, #group.at, 2 do results.sessionPatches = results.sessionPatches + group.at[run] end
      end
    end
  end
  local list = apply_session_change(results.lastSessionList, change)
  if list then
    results.lastSessionList = list
    return
  end
  if fetching_full_list then return end
  fetching_full_list = true
  results.fullListRequests = results.fullListRequests + 1
  vim.lsp.get_client_by_id(ctx.client_id).request('hermes/sessionList', {}, function(err, full)
    fetching_full_list = false
    if err then error('hermes/sessionList failed: ' .. vim.inspect(err)) end
    results.lastSessionList = full
  end)
end

local function main()
  vim.cmd('filetype on')
  vim.cmd('edit ' .. vim.fn.fnameescape(SOUL))
  local bufnr = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(bufnr)

  local client_id = vim.lsp.start_client({
    name = 'hermes-prompt-lens',
    cmd = { NODE, SERVER, '--stdio' },
    root_dir = HOME,
    settings = settings,
    capabilities = capabilities,
    handlers = {
      ['workspace/configuration'] = function(err, params, ctx, config)
        for _, item in ipairs(params.items or {}) do
          table.insert(results.configurationRequests, item.section or vim.NIL)
        end
        return vim.lsp.handlers['workspace/configuration'](err, params, ctx, config)
      end,
      ['hermes/status'] = function(_, params)
        table.insert(results.statuses, params)
      end,
      ['hermes/sessionListChanged'] = on_session_list_changed,
    },
  })
  assert(client_id, 'vim.lsp.start_client failed')
  assert(vim.lsp.buf_attach_client(bufnr, client_id), 'buf_attach_client failed')
  local client = vim.lsp.get_client_by_id(client_id)
  wait_for('the client to be initialized', function() return client.initialized end)
  results.serverCapabilities = client.server_capabilities

  local doc = { uri = uri }
  local top = { start = { line = 0, character = 0 }, ['end'] = { line = 0, character = 0 } }

  -- Hover and code lens asked at once, as a user opening the file does: the server answers them
  -- once it has read the home, not before with nothing.
  local r, e = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', { textDocument = doc, position = { line = 1, character = 4 } }, TIMEOUT)
  results.hover = only_result(r, e, 'textDocument/hover')

  r, e = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeLens', { textDocument = doc }, TIMEOUT)
  results.codeLens = only_result(r, e, 'textDocument/codeLens')

  -- The server pulled the hermesLens settings, read the home, and reported its status.
  wait_for('a hermes/status with the home read', function()
    local last = results.statuses[#results.statuses]
    return last ~= nil and last.stale ~= nil and last.stale > 0
  end)

  r, e = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', { textDocument = doc, range = top, context = { diagnostics = {} } }, TIMEOUT)
  results.codeActions = only_result(r, e, 'textDocument/codeAction')

  results.sessionListBeforeSave = results.lastSessionList

  -- Edit and save: didChange + didSave; the server re-evaluates and pushes a new status.
  local stale_before = results.statuses[#results.statuses].stale
  vim.api.nvim_buf_set_lines(bufnr, -1, -1, false, { 'Prefer small, reversible changes.' })
  vim.cmd('write')
  wait_for('a hermes/status with more stale sessions after the save', function()
    return results.statuses[#results.statuses].stale > stale_before
  end)
  results.statusAfterSave = results.statuses[#results.statuses]
  r, e = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeLens', { textDocument = doc }, TIMEOUT)
  results.codeLensAfterSave = only_result(r, e, 'textDocument/codeLens')

  -- Run the first code action's command (refresh the profile's stale sessions) as a user's pick would.
  local action = results.codeActions[1]
  assert(action and action.command, 'no code action with a command')
  r, e = vim.lsp.buf_request_sync(bufnr, 'workspace/executeCommand', { command = action.command.command, arguments = action.command.arguments }, TIMEOUT)
  results.executeCommand = only_result(r, e, 'workspace/executeCommand')
  -- A refresh of the profile: its every stale session turns pending.
  wait_for('a session list without a stale session in profile default', function()
    for _, p in ipairs(results.lastSessionList and results.lastSessionList.profiles or {}) do
      if p.name == 'default' then
        for _, s in ipairs(p.sessions) do
          if s.state == 'stale' then return false end
        end
        return true
      end
    end
    return false
  end)
  results.sessionListAfterRefresh = results.lastSessionList

  -- The list kept from the changes against the server's full list at the same revision.
  r, e = vim.lsp.buf_request_sync(bufnr, 'hermes/sessionList', {}, TIMEOUT)
  results.fullListAtEnd = only_result(r, e, 'hermes/sessionList')
  wait_for('the kept list at the revision of the full list', function()
    return results.lastSessionList.revision >= results.fullListAtEnd.revision
  end)
  results.keptListAtEnd = results.lastSessionList

  -- shutdown + exit, and wait for the server process to go.
  vim.lsp.stop_client(client_id)
  wait_for('the server to stop', function() return vim.lsp.client_is_stopped(client_id) end)
  results.stopped = true
end

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  callback = function()
    local ok, err = xpcall(main, debug.traceback)
    if not ok then results.error = tostring(err) end
    local wrote, werr = pcall(write_results)
    if not wrote then io.stderr:write('cannot write results: ' .. tostring(werr) .. '\n') end
    vim.cmd(ok and wrote and 'qall!' or 'cquit 1')
  end,
})
