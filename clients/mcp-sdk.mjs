// An MCP client, the TypeScript SDK over Streamable HTTP: list lokal's tools and call one.
//
//   LOKAL_URL=http://127.0.0.1:8080 LOKAL_PROJECT=<project id> LOKAL_TOKEN=<personal token> node mcp-sdk.mjs
//
// A personal token attributes the assistant's writes to its owner; a read-only key is
// offered the read tools only.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

const { LOKAL_URL, LOKAL_PROJECT, LOKAL_TOKEN } = process.env

const transport = new StreamableHTTPClientTransport(new URL(`${LOKAL_URL}/api/${LOKAL_PROJECT}/mcp`), {
  requestInit: { headers: { Authorization: `Bearer ${LOKAL_TOKEN}` } },
})
const client = new Client({ name: 'my-assistant', version: '1.0.0' })
await client.connect(transport)

const { tools } = await client.listTools()
console.log(tools.map((tool) => tool.name).join(' '))

const result = await client.callTool({
  name: 'get_translations',
  arguments: { language: 'nb', namespace_key: 'common', format: 'json' },
})
if (result.isError) {
  console.error(`lokal: get_translations failed: ${result.content[0].text}`)
  process.exitCode = 1
} else {
  console.log(result.structuredContent.content.trim())
}
await client.close()
