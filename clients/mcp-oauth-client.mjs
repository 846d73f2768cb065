// Test client, not a recipe: the MCP TypeScript SDK's OAuth client against lokal, driven by
// rest/app's end-to-end test. It connects with the MCP URL alone: the SDK discovers the
// authorization server from lokal's 401, identifies itself by a Client ID Metadata Document
// (LOKAL_CLIENT_ID_URL) or, without one, by dynamic registration, and prints the
// authorization URL; the test approves it on the consent page in Chromium, and the code
// comes back to this script's loopback redirect listener.
//
//   LOKAL_MCP_URL=http://127.0.0.1:8080/api/<project>/mcp LOKAL_REDIRECT_URL=http://127.0.0.1:0/callback \
//   [LOKAL_CLIENT_ID_URL=https://.../client.json] node --import ./loopback-only.mjs mcp-oauth-client.mjs
//
// Protocol: one JSON object per line. Out (stdout): {"event": "listening", "redirect_url"}
// first, then {"event": "authorize", "url"},
// {"event": "tokens", "access_token", "refresh_token", "scope", "expires_in"} on every
// token saved, {"event": "connected"}, {"event": "tools", "names"}, {"event": "result",
// "is_error", "text", "structured"}, {"event": "error", "message", "code"}. In (stdin):
// {"op": "authorize"} (start over: forget the tokens, authorize, connect), {"op": "list"},
// {"op": "call", "name", "arguments"}, {"op": "quit"}. Tokens are printed because the test
// replays them (another audience, a rotated refresh token); no real client would.
import http from 'node:http'
import readline from 'node:readline'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'

const { LOKAL_MCP_URL, LOKAL_REDIRECT_URL, LOKAL_CLIENT_ID_URL } = process.env
const mcpURL = new URL(LOKAL_MCP_URL)
// Port 0 takes a free port: the URL listened on is printed first, before any client
// metadata naming it is needed.
const redirectURL = new URL(LOKAL_REDIRECT_URL)

const emit = (event, fields = {}) => process.stdout.write(JSON.stringify({ event, ...fields }) + '\n')

// The provider keeps everything in memory: one run is one client installation.
class Provider {
  constructor() {
    this.clientMetadataUrl = LOKAL_CLIENT_ID_URL || undefined
    this._client = undefined
    this._tokens = undefined
    this._verifier = undefined
    this._discovery = undefined
    this._state = undefined
  }
  get redirectUrl() { return redirectURL.href }
  get clientMetadata() {
    return {
      client_name: 'lokal e2e (TypeScript SDK)',
      redirect_uris: [redirectURL.href],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }
  }
  state() {
    this._state = crypto.randomUUID()
    return this._state
  }
  clientInformation() { return this._client }
  saveClientInformation(info) { this._client = info }
  tokens() { return this._tokens }
  saveTokens(tokens) {
    this._tokens = tokens
    emit('tokens', { access_token: tokens.access_token, refresh_token: tokens.refresh_token, scope: tokens.scope, expires_in: tokens.expires_in })
  }
  redirectToAuthorization(url) { emit('authorize', { url: url.href }) }
  saveCodeVerifier(v) { this._verifier = v }
  codeVerifier() { return this._verifier }
  saveDiscoveryState(s) { this._discovery = s }
  discoveryState() { return this._discovery }
  invalidateCredentials(scope) {
    if (scope === 'all' || scope === 'client') this._client = undefined
    if (scope === 'all' || scope === 'tokens') this._tokens = undefined
    if (scope === 'all' || scope === 'verifier') this._verifier = undefined
    if (scope === 'all' || scope === 'discovery') this._discovery = undefined
  }
}

// The loopback redirect listener (RFC 8252): every authorization response lands here.
let pending = null
const listener = http.createServer((req, res) => {
  const u = new URL(req.url, redirectURL)
  if (u.pathname !== redirectURL.pathname) {
    res.writeHead(404).end()
    return
  }
  res.writeHead(200, { 'content-type': 'text/plain' }).end('lokal e2e: you may close this window')
  if (pending) {
    const p = pending
    pending = null
    p(u.searchParams)
  }
})
await new Promise((resolve, reject) => {
  listener.once('error', reject)
  listener.listen(Number(redirectURL.port || 80), redirectURL.hostname, resolve)
})
redirectURL.port = String(listener.address().port)
emit('listening', { redirect_url: redirectURL.href })

const provider = new Provider()
let client = null

async function connect() {
  const transport = new StreamableHTTPClientTransport(mcpURL, { authProvider: provider })
  const c = new Client({ name: 'lokal-e2e', version: '1.0.0' })
  await c.connect(transport)
  return { c, transport }
}

// authorize runs the whole flow: discovery and the authorization request (printed), the
// code from the redirect (state and RFC 9207 iss checked), the token request, connect.
async function authorize() {
  provider.invalidateCredentials('tokens')
  if (client) await client.close().catch(() => {})
  client = null
  const code = new Promise((resolve) => { pending = resolve })
  try {
    ;({ c: client } = await connect())
    return // tokens were still good: nothing to authorize
  } catch (err) {
    if (!(err instanceof UnauthorizedError)) throw err
  }
  const params = await code
  if (params.get('error')) throw new Error(`authorization refused: ${params.get('error')}: ${params.get('error_description') ?? ''}`)
  if (params.get('state') !== provider._state) throw new Error(`state ${params.get('state')} is not the one sent`)
  const issuer = provider._discovery?.authorizationServerMetadata?.issuer
  if (!issuer || params.get('iss') !== issuer) throw new Error(`iss ${params.get('iss')} is not the issuer ${issuer}`)
  const transport = new StreamableHTTPClientTransport(mcpURL, { authProvider: provider })
  await transport.finishAuth(params.get('code'))
  ;({ c: client } = await connect())
  emit('connected')
}

function describe(err) {
  return { message: String(err?.message ?? err), code: err?.code ?? null, name: err?.constructor?.name ?? null }
}

async function run(cmd) {
  switch (cmd.op) {
    case 'authorize':
      await authorize()
      return
    case 'list': {
      const { tools } = await client.listTools()
      emit('tools', { names: tools.map((t) => t.name) })
      return
    }
    case 'call': {
      const r = await client.callTool({ name: cmd.name, arguments: cmd.arguments ?? {} })
      emit('result', { is_error: !!r.isError, text: r.content?.[0]?.text ?? '', structured: r.structuredContent ?? null })
      return
    }
    case 'quit':
      await client?.close().catch(() => {})
      listener.close()
      process.exit(0)
    default:
      throw new Error(`unknown op ${cmd.op}`)
  }
}

const lines = readline.createInterface({ input: process.stdin })
for await (const line of lines) {
  if (!line.trim()) continue
  try {
    await run(JSON.parse(line))
  } catch (err) {
    emit('error', describe(err))
  }
}
listener.close()
