// The in-process MCP server both harnesses (this folder's and ../js-gemini-cli's) list tools from:
// raw JSON-RPC on the server end of a linked pair of transports, so the client's own validation of
// tools/list runs on exactly what the tool list holds. It imports nothing, so it loads from either
// folder whatever node_modules sits beside it.
//
//   serve(serverSide, () => tools)   answers initialize, tools/list (the tools the function returns
//                                    at the time of the request) and -32601 for anything else
export function serve(transport, listed) {
  transport.onmessage = async (msg) => {
    if (msg.id === undefined) return;
    let result;
    if (msg.method === 'initialize') {
      result = { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'harness', version: '1.0.0' } };
    } else if (msg.method === 'tools/list') {
      result = { tools: listed() };
    } else {
      await transport.send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'not found' } });
      return;
    }
    await transport.send({ jsonrpc: '2.0', id: msg.id, result });
  };
}
