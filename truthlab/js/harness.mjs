// What JavaScript MCP clients really send a model for an MCP tool, found by running them.
//
//   node harness.mjs TARGET < tools.json > results.json
//
// stdin: a JSON array of MCP Tool objects ({name, description, inputSchema, outputSchema?}).
// Each tool is served alone by an in-process MCP server (serve.mjs: raw JSON-RPC over a linked pair
// of transports, so the client's own validation of tools/list runs), converted by the client's own
// code, and sent in one model request whose HTTP body a stub fetch captures (no network).
// stdout: one result per tool, in order:
//   {sent: {...}}     the tool as it appears in the captured request body (its `tools` entry)
//   {error: "..."}    the listing, the conversion or the request failed before anything was sent
//   {listed: true}    (mcp-sdk-client) the SDK's Client listed the tool
//
// TARGETS
//   ai-openai          ai + @ai-sdk/mcp (client.tools()) + @ai-sdk/openai, Chat Completions
//   ai-openai-responses  the same with the Responses API (the provider's default model)
//   ai-openai-compatible ai + @ai-sdk/mcp + @ai-sdk/openai-compatible
//   langchain-agent    langchain createAgent + @langchain/mcp-adapters + @langchain/openai ChatOpenAI
//   langchain-agent-native  the same with responseFormat: providerStrategy(...) (native structured output)
//   mcp-sdk-client     @modelcontextprotocol/sdk Client.listTools (zod result schema, Ajv on outputSchema)
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { serve } from './serve.mjs';

globalThis.AI_SDK_LOG_WARNINGS = false;
const target = process.argv[2];
let input = '';
for await (const chunk of process.stdin) input += chunk;
const tools = JSON.parse(input);

let served = [];

async function sdkClient() {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serve(serverSide, () => served);
  await serverSide.start();
  const client = new Client({ name: 'harness', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

// the AI SDK's MCP client takes any object with start/send/close and an onmessage hook
function aiTransport() {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serve(serverSide, () => served);
  const t = {
    async start() { await serverSide.start(); clientSide.onmessage = (m) => t.onmessage?.(m); await clientSide.start(); },
    async send(m) { await clientSide.send(m); },
    async close() { await clientSide.close(); },
  };
  return t;
}

let captured;
const CHAT = { id: 'x', object: 'chat.completion', created: 0, model: 'gpt-4o',
  choices: [{ index: 0, message: { role: 'assistant', content: '{"answer": "ok"}' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
const RESPONSE = { id: 'x', object: 'response', created_at: 0, model: 'gpt-4o', status: 'completed',
  output: [{ type: 'message', id: 'm', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: '{"answer": "ok"}', annotations: [] }] }],
  usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } };
async function stubFetch(url, init) {
  captured = JSON.parse(init.body);
  const body = String(url).endsWith('/responses') ? RESPONSE : CHAT;
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
}

function message(e) {
  return `${e?.constructor?.name ?? 'Error'}: ${e?.message ?? String(e)}`;
}

async function runAi(kind) {
  const { generateText } = await import('ai');
  const { createMCPClient } = await import('@ai-sdk/mcp');
  let model;
  if (kind === 'ai-openai-compatible') {
    const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
    model = createOpenAICompatible({ name: 'compat', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'x', fetch: stubFetch })('some-model');
  } else {
    const { createOpenAI } = await import('@ai-sdk/openai');
    const openai = createOpenAI({ apiKey: 'x', fetch: stubFetch });
    model = kind === 'ai-openai' ? openai.chat('gpt-4o') : openai('gpt-4o');
  }
  const client = await createMCPClient({ transport: aiTransport() });
  const out = [];
  for (const tool of tools) {
    served = [tool];
    captured = undefined;
    try {
      const set = await client.tools();
      const { warnings } = await generateText({ model, tools: set, prompt: 'hi' });
      const sent = captured?.tools?.[0];
      out.push(sent ? { sent, warnings: (warnings ?? []).map((w) => w.feature ?? w.type) } : { error: 'no tool in the request' });
    } catch (e) {
      out.push(captured ? { sent: captured.tools?.[0], late: message(e) } : { error: message(e) });
    }
  }
  await client.close();
  return out;
}

async function runLangchain(kind) {
  const { createAgent, providerStrategy } = await import('langchain');
  const { ChatOpenAI } = await import('@langchain/openai');
  const { loadMcpTools } = await import('@langchain/mcp-adapters');
  const client = await sdkClient();
  const model = new ChatOpenAI({ model: 'gpt-4o', apiKey: 'x', configuration: { fetch: stubFetch } });
  const out = [];
  for (const tool of tools) {
    served = [tool];
    captured = undefined;
    try {
      const lc = await loadMcpTools('s', client);
      const options = { model, tools: lc };
      if (kind === 'langchain-agent-native') {
        options.responseFormat = providerStrategy({ type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false });
      }
      await createAgent(options).invoke({ messages: [{ role: 'user', content: 'hi' }] });
      out.push(captured?.tools?.[0] ? { sent: captured.tools[0] } : { error: 'no tool in the request' });
    } catch (e) {
      out.push(captured?.tools?.[0] ? { sent: captured.tools[0], late: message(e) } : { error: message(e) });
    }
  }
  await client.close();
  return out;
}

async function runSdkClient() {
  const client = await sdkClient();
  const out = [];
  for (const tool of tools) {
    served = [tool];
    try {
      await client.listTools();
      out.push({ listed: true });
    } catch (e) {
      out.push({ error: message(e) });
    }
  }
  await client.close();
  return out;
}

const runners = {
  'ai-openai': runAi, 'ai-openai-responses': runAi, 'ai-openai-compatible': runAi,
  'langchain-agent': runLangchain, 'langchain-agent-native': runLangchain, 'mcp-sdk-client': runSdkClient,
};
if (!runners[target]) {
  process.stderr.write(`unknown target ${JSON.stringify(target)}: one of ${Object.keys(runners).join(', ')}\n`);
  process.exit(2);
}
process.stdout.write(JSON.stringify(await runners[target](target)));
