// The shapes a TypeScript MCP server's zod writes, as the official SDK sends them. Captured with
// `mcplint probe --protocol-version 2025-11-25 --save server.capture.json -- node server.mjs`
// (@modelcontextprotocol/sdk 1.32.2, zod 4.6.7): see tests/data/README.md.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import * as z3 from "zod/v3";
import * as z4 from "zod/v4";

const server = new McpServer({ name: "zod-shapes", version: "1.0.0" });
const none = async () => ({ content: [] });
// a plain shape: the SDK wraps it in z.object, and zod 4 leaves that open on input
server.registerTool("plain_shape", { inputSchema: { query: z4.string(), limit: z4.number().optional() } }, none);
server.registerTool("plain_empty", { inputSchema: {} }, none);
// a nested z.object is open too; z.strictObject and .strict() close it
server.registerTool("nested_open", { inputSchema: z4.strictObject({ filter: z4.object({ tag: z4.string() }) }) }, none);
server.registerTool("strict_object", { inputSchema: z4.strictObject({ query: z4.string() }) }, none);
server.registerTool("dot_strict", { inputSchema: z4.object({ query: z4.string() }).strict() }, none);
// zod 3's objects, through the SDK's zod-to-json-schema, are closed already
server.registerTool("zod3_shape", { inputSchema: { query: z3.string() } }, none);
// a default zod fills in when the argument is left out (the SDK parses the arguments with the schema)
server.registerTool("with_default", { inputSchema: z4.strictObject({ sort: z4.enum(["name", "size"]).default("name") }) }, none);
// what zod 4 writes by itself: the safe-integer bounds of .int(), and a pattern beside a string format
server.registerTool("written_by_zod", { inputSchema: z4.strictObject({ count: z4.int(), page: z4.int().min(1),
  email: z4.email(), since: z4.iso.datetime(), site: z4.url() }) }, none);
// what zod's own constructs write: a discriminated union's oneOf, a tuple, a record, .length(n), z.any(),
// a recursive schema (under "definitions" in draft-07)
const A = z4.strictObject({ kind: z4.literal("a"), x: z4.string() });
const B = z4.strictObject({ kind: z4.literal("b"), y: z4.number() });
const Tree = z4.strictObject({ name: z4.string(), get children() { return z4.array(Tree); } });
server.registerTool("zod_constructs", { inputSchema: z4.strictObject({ pick: z4.discriminatedUnion("kind", [A, B]),
  pair: z4.tuple([z4.string(), z4.number()]), tally: z4.record(z4.string(), z4.number()), code: z4.string().length(5),
  anything: z4.any(), tree: Tree }) }, none);
// no inputSchema: the SDK's own {"type": "object", "properties": {}}, which no zod wrote
server.registerTool("no_input", { description: "Takes nothing." }, none);
await server.connect(new StdioServerTransport());
