// The same kind of server on the TypeScript SDK's successor packages. Captured with
// `mcplint probe --protocol-version 2025-11-25 --save server-v2.capture.json -- node server-v2.mjs`
// (@modelcontextprotocol/server 2.4.0, zod 4.6.7): see tests/data/README.md.
import { McpServer } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";

const server = new McpServer({ name: "zod-shapes-v2", version: "1.0.0" });
const none = async () => ({ content: [] });
server.registerTool("open_object", { inputSchema: z.object({ q: z.string(), n: z.int().optional(), e: z.email() }) }, none);
server.registerTool("strict_object", { inputSchema: z.strictObject({ q: z.string(), o: z.object({ x: z.string() }) }) }, none);
server.registerTool("plain_shape", { inputSchema: { q: z.string() } }, none);
server.registerTool("no_input", { description: "Takes nothing." }, none);
await server.connect(new StdioServerTransport());
