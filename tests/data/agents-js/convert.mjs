// What @openai/agents-core's mcpToFunctionTool does to MCP input schemas with convertSchemasToStrict
// (or, with the argument "nonstrict", without it: the SDK's default).
// stdin: a JSON array of inputSchemas; stdout: one result per schema, in order:
//   {strict: true, parameters, nulls}  the converted schema, and the arguments the server receives
//                                      when the model sends null for every root property
//   {strict: false, warning}           the SDK's fallback to a non-strict tool, with its logged reason
//   {thrown}                           an exception out of mcpToFunctionTool (the tool listing fails)
//   nonstrict: {strict, parameters}    the tool as the SDK's default mode builds it
// Run by tests/data/agents-js/record.py (needs node and the package installed next to this file
// or on NODE_PATH); nothing here is needed at test time.
import { mcpToFunctionTool } from '@openai/agents-core';

process.env.OPENAI_AGENTS_DONT_LOG_TOOL_DATA = '0';
const convertSchemasToStrict = process.argv[2] !== 'nonstrict';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const schemas = JSON.parse(input);
let received;
const server = {
  name: 'recorder',
  cacheToolsList: false,
  async callTool(_name, args) { received = args; return []; },
};
let warned = [];
console.warn = (...args) => { warned.push(args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ')); };

const out = [];
for (const inputSchema of schemas) {
  warned = [];
  try {
    const t = mcpToFunctionTool({ name: 't', description: '', inputSchema }, server, convertSchemasToStrict);
    if (!convertSchemasToStrict) {
      out.push({ strict: t.strict, parameters: t.parameters });
      continue;
    }
    if (!t.strict) {
      out.push({ strict: false, warning: warned.join('\n') });
      continue;
    }
    const props = Object.keys(t.parameters.properties ?? {});
    let nulls;
    if (props.length) {
      received = undefined;
      try {
        await t.invoke(undefined, JSON.stringify(Object.fromEntries(props.map((p) => [p, null]))));
        nulls = received === undefined ? null : received;
      } catch (e) {
        nulls = { error: String(e && e.message) };
      }
    }
    out.push({ strict: true, parameters: t.parameters, nulls });
  } catch (e) {
    out.push({ thrown: `${e.constructor.name}: ${e.message}` });
  }
}
process.stdout.write(JSON.stringify(out));
