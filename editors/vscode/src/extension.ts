// Starts `python -m mcplint server` (the Language Server Protocol over stdio) for JSON, YAML and
// Python files; everything else (diagnostics, quick fixes, fix all, hover) is the server's.
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";

let client: LanguageClient | undefined;

async function interpreter(): Promise<string> {
  const configured = vscode.workspace.getConfiguration("mcplint").get<string>("python", "").trim();
  if (configured) {
    return configured;
  }
  // The Python extension's selected interpreter, when it is installed (its settings API).
  const python = vscode.extensions.getExtension("ms-python.python");
  if (python) {
    try {
      const api = python.isActive ? python.exports : await python.activate();
      const path = api?.environments?.getActiveEnvironmentPath?.()?.path;
      if (typeof path === "string" && path) {
        return path;
      }
    } catch {
      // fall through to python3
    }
  }
  return process.platform === "win32" ? "python" : "python3";
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const settings = vscode.workspace.getConfiguration("mcplint");
  const command = await interpreter();
  const serverOptions: ServerOptions = { command, args: ["-m", "mcplint", "server"] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "json" },
      { scheme: "file", language: "jsonc" },
      { scheme: "file", language: "yaml" },
      { scheme: "file", language: "python" },
      { scheme: "file", pattern: "**/.codex/config.toml" },
    ],
    initializationOptions: {
      profiles: settings.get<string[]>("profiles", []),
      unsafeFixes: settings.get<boolean>("unsafeFixes", false),
      importTimeout: settings.get<number>("importTimeout", 30),
      python: command,
    },
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher("**/{.mcplint.yaml,.mcplint.yml,pyproject.toml}"),
    },
  };
  client = new LanguageClient("mcplint", "mcplint", serverOptions, clientOptions);
  try {
    await client.start();
  } catch (e) {
    vscode.window.showErrorMessage(
      `mcplint: could not start \`${command} -m mcplint server\` (install it there with ` +
        `pip install "mcplint[lsp]", or set mcplint.python): ${e}`,
    );
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand("mcplint.restart", async () => {
      await client?.stop();
      await start(context);
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration("mcplint")) {
        await client?.stop();
        await start(context);
      }
    }),
  );
  await start(context);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
