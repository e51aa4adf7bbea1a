// Runs the MCP Inspector's own `--strict` schema lint (core/json/schemaLint.ts, as bundled in the
// package's clients/cli/build/index.js) over the tools read as JSON on stdin, and writes its findings
// as JSON: one list per tool of {rule, severity, schema, path}.
//   node harness.mjs <the package's directory> < tools.json
// The lint's source is taken whole from the bundle, between its two module markers, and run as is.
import { readFileSync } from "node:fs";
import { join } from "node:path";

const pkg = process.argv[2];
const bundle = readFileSync(join(pkg, "clients", "cli", "build", "index.js"), "utf8");
const start = bundle.indexOf("// ../../core/json/schemaLint.ts");
const end = bundle.indexOf("\n// ", start + 10);
if (start < 0 || end < 0) throw new Error("schemaLint.ts not found in the bundle");
const lintTools = new Function(bundle.slice(start, end) + "\nreturn lintTools;")();

const tools = JSON.parse(readFileSync(0, "utf8"));
const out = tools.map((tool) => {
  const found = lintTools([tool]);
  return found.length ? found[0].findings.map(({ rule, severity, schema, path }) => ({ rule, severity, schema, path })) : [];
});
process.stdout.write(JSON.stringify(out));
