/**
 * What `mcp-loupe --gateway` and the HTTP mock print once they listen (issue 21, item 4): the
 * endpoint (`Gateway for MCP clients: URL` on stdout; the mock's `listening at URL` on stderr,
 * which scripts read), then the per-launch token and a client config to paste for Claude Code,
 * VS Code and Cursor. The token is printed on the user's own terminal, never put in a command line
 * of Loupe's. Under `--gateway-no-auth` or `--mock-no-auth`, a warning for stderr instead.
 */

export interface GatewayAnnouncement {
  url: string;
  /** Undefined under `--gateway-no-auth`. */
  token?: string;
  /** `--label`, else the target's name: the server's name in the clients' configs. */
  name?: string;
  /** The target in words (`node build/index.js`). */
  what: string;
}

/** A server name the clients accept (letters, digits, `-` and `_`). */
export function clientName(name: string | undefined, fallback = 'loupe-gateway'): string {
  const cleaned = (name ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return cleaned === '' ? fallback : cleaned;
}

/** The token (`Gateway token (…): T`, `Mock token (…): T`), then a config that gives it to each client. */
function tokenLines(what: 'Gateway' | 'Mock', url: string, token: string, server: string): string[] {
  const headers = { Authorization: `Bearer ${token}` };
  return [
    `${what} token (new at every launch; clients send it as the header "Authorization: Bearer <token>"): ${token}`,
    `  Claude Code:                claude mcp add --transport http ${server} ${url} --header "Authorization: Bearer ${token}"`,
    `  VS Code (.vscode/mcp.json): ${JSON.stringify({ servers: { [server]: { type: 'http', url, headers } } })}`,
    `  Cursor (mcp.json):          ${JSON.stringify({ mcpServers: { [server]: { url, headers } } })}`,
  ];
}

/** The lines for stdout: the endpoint first, then (with a token) how to give it to a client. */
export function gatewayLines({ url, token, name }: GatewayAnnouncement): string {
  const endpoint = `Gateway for MCP clients: ${url}`;
  if (token === undefined) return `${endpoint}\n`;
  return `${[endpoint, ...tokenLines('Gateway', url, token, clientName(name))].join('\n')}\n`;
}

/** The stderr warning of `--gateway-no-auth`, in words. */
export function noAuthWarning({ url, what }: GatewayAnnouncement): string {
  return `mcp-loupe: WARNING: --gateway-no-auth: the gateway at ${url} asks for no token: anyone on this machine (any local user or program) can start ${what} as you through it.\n`;
}

export interface MockAnnouncement {
  url: string;
  /** Undefined under `--mock-no-auth`. */
  token?: string;
  /** The recording served, as the user named it. */
  file: string;
  /** The server's name in the clients' configs (the recording's file name). */
  name?: string;
}

/**
 * The HTTP mock's lines for stderr, after the one with its URL (stdout is the protocol's when the
 * mock is on stdio, and stays empty over HTTP): the token and the client configs, or the warning of
 * `--mock-no-auth`.
 */
export function mockLines({ url, token, file, name }: MockAnnouncement): string {
  if (token === undefined) {
    return `mcp-loupe: WARNING: --mock-no-auth: the mock at ${url} asks for no token: anyone on this machine (any local user or program) can read the recording ${file} through it.\n`;
  }
  return `${tokenLines('Mock', url, token, clientName(name, 'loupe-mock')).join('\n')}\n`;
}
