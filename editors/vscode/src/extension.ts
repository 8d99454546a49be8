// The VS Code client: starts `pw lsp` for the workspace and hands it the editor's
// Pocketwatch documents, and runs `pw dap` for the debugger type "pocketwatch".
// Highlighting comes from the TextMate grammar alone.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

/** The pw command: the setting, else the workspace's own install, else the PATH's. */
function serverCommand(folder: string | undefined): string {
  const set = vscode.workspace.getConfiguration('pocketwatch').get<string>('server.command');
  if (set) return set;
  const local = folder ? join(folder, 'node_modules', '.bin', process.platform === 'win32' ? 'pw.cmd' : 'pw') : '';
  return local && existsSync(local) ? local : 'pw';
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const config = vscode.workspace.getConfiguration('pocketwatch');
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  // TransportKind.stdio adds --stdio: the server runs as `pw lsp --stdio`
  const server: ServerOptions = {
    command: serverCommand(folder),
    args: [...config.get<string[]>('server.args', []), 'lsp'],
    transport: TransportKind.stdio,
    options: folder ? { cwd: folder } : undefined,
  };
  const watcher = vscode.workspace.createFileSystemWatcher('**/*.pw');
  context.subscriptions.push(watcher);
  const options: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'pocketwatch' },
      { scheme: 'untitled', language: 'pocketwatch' },
    ],
    synchronize: { fileEvents: watcher },
    initializationOptions: { scripts: config.get<string[] | null>('scripts', null) },
  };
  // the debugger is the same command: `pw dap` on stdin and stdout
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory('pocketwatch', {
      createDebugAdapterDescriptor: (session) => {
        const root = session.workspaceFolder?.uri.fsPath ?? folder;
        return new vscode.DebugAdapterExecutable(serverCommand(root), [...config.get<string[]>('server.args', []), 'dap'], root ? { cwd: root } : undefined);
      },
    }),
  );
  // F5 with no launch.json: debug the workspace's world, as the initial configuration does
  context.subscriptions.push(
    vscode.debug.registerDebugConfigurationProvider('pocketwatch', {
      resolveDebugConfiguration: (workspace, config) => {
        if (config.type || config.request || config.name) return config;
        if (vscode.window.activeTextEditor?.document.languageId !== 'pocketwatch') return config;
        return { type: 'pocketwatch', request: 'launch', name: 'Debug the world', program: workspace?.uri.fsPath ?? folder ?? '.' };
      },
    }),
  );
  client = new LanguageClient('pocketwatch', 'Pocketwatch', server, options);
  await client.start();
}

export function deactivate(): Promise<void> | undefined {
  return client?.stop();
}
