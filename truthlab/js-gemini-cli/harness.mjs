// What gemini-cli does with an MCP server's tools, found by running its own discovery code.
//
//   node harness.mjs < tools.json > results.json     (after npm ci in this folder)
//
// stdin: a JSON array of MCP Tool objects. Each tool is served alone by an in-process MCP server
// (../js/serve.mjs, shared with the other clients' harness: raw JSON-RPC over a linked pair of
// transports), listed by the MCP SDK Client that @google/gemini-cli-core pins and passed through
// its discoverTools (mcp-client.js), as the CLI does for every configured server. stdout: one
// result per tool, in order:
//   {sent: FunctionDeclaration, diags}   the declaration gemini-cli gives the model
//   {error: "..."}                       the diagnostic it emits when discovery fails (no tool)
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { discoverTools } from '@google/gemini-cli-core/dist/src/tools/mcp-client.js';
import { serve } from '../js/serve.mjs';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const tools = JSON.parse(input);
let served = [];
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
serve(serverSide, () => served);
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
