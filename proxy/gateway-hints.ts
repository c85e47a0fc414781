/**
 * What `mcp-loupe --gateway` prints once it listens (issue 21, item 4): the endpoint on its own line
 * (`Gateway for MCP clients: URL`, which scripts read), the per-launch token, and a client config to
 * paste for Claude Code, VS Code and Cursor. The token is printed on the user's own terminal, never
 * put in a command line of Loupe's. Under `--gateway-no-auth`, a warning for stderr instead.
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
export function clientName(name: string | undefined): string {
  const cleaned = (name ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return cleaned === '' ? 'loupe-gateway' : cleaned;
}

/** The lines for stdout: the endpoint first, then (with a token) how to give it to a client. */
export function gatewayLines({ url, token, name }: GatewayAnnouncement): string {
  const lines = [`Gateway for MCP clients: ${url}`];
  if (token === undefined) return `${lines[0]}\n`;
  const server = clientName(name);
  const headers = { Authorization: `Bearer ${token}` };
  lines.push(
    `Gateway token (new at every launch; clients send it as the header "Authorization: Bearer <token>"): ${token}`,
    `  Claude Code:                claude mcp add --transport http ${server} ${url} --header "Authorization: Bearer ${token}"`,
    `  VS Code (.vscode/mcp.json): ${JSON.stringify({ servers: { [server]: { type: 'http', url, headers } } })}`,
    `  Cursor (mcp.json):          ${JSON.stringify({ mcpServers: { [server]: { url, headers } } })}`,
  );
  return `${lines.join('\n')}\n`;
}

/** The stderr warning of `--gateway-no-auth`, in words. */
export function noAuthWarning({ url, what }: GatewayAnnouncement): string {
  return `mcp-loupe: WARNING: --gateway-no-auth: the gateway at ${url} asks for no token: anyone on this machine (any local user or program) can start ${what} as you through it.\n`;
}
