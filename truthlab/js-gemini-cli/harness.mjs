// What gemini-cli does with an MCP server's tools, found by running its own discovery code.
//
//   node harness.mjs < tools.json > results.json     (after npm ci in this folder)
//
// stdin: a JSON array of MCP Tool objects. Each tool is served alone by an in-process MCP server
// (raw JSON-RPC over a linked pair of transports), listed by the MCP SDK Client that
// @google/gemini-cli-core pins and passed through its discoverTools (mcp-client.js), as the CLI
// does for every configured server. stdout: one result per tool, in order:
//   {sent: FunctionDeclaration, diags}   the declaration gemini-cli gives the model
//   {error: "..."}                       the diagnostic it emits when discovery fails (no tool)
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { discoverTools } from '@google/gemini-cli-core/dist/src/tools/mcp-client.js';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const tools = JSON.parse(input);
let served = [];
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
serverSide.onmessage = async (msg) => {
  if (msg.id === undefined) return;
  let result;
  if (msg.method === 'initialize') {
    result = { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'harness', version: '1.0.0' } };
  } else if (msg.method === 'tools/list') {
    result = { tools: served };
  } else {
    await serverSide.send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'not found' } });
    return;
  }
  await serverSide.send({ jsonrpc: '2.0', id: msg.id, result });
};
await serverSide.start();
const client = new Client({ name: 'harness', version: '1.0.0' });
await client.connect(clientSide);

// discoverTools reads only emitMcpDiagnostic of the CLI's config here; every other member is a no-op
let diags = [];
const cliConfig = new Proxy({ emitMcpDiagnostic: (_level, message) => diags.push(message) }, {
  get(target, key) { return key in target ? target[key] : () => undefined; },
});
const out = [];
for (const tool of tools) {
  served = [tool];
  diags = [];
  try {
    const found = await discoverTools('srv', {}, client, cliConfig, undefined);
    out.push(found.length ? { sent: found[0].schema, diags } : { error: diags.join('\n') || 'no tool discovered' });
  } catch (e) {
    out.push({ error: diags.join('\n') || `${e?.constructor?.name}: ${e?.message}` });
  }
}
// exit once the output is flushed: the SDK client's timers would keep node alive
process.stdout.write(JSON.stringify(out), () => process.exit(0));
