/**
 * The sandbox proxy's document (issue 24; the spec's "Sandbox proxy" section): framed by Loupe's
 * page on the sandbox's origin, it tells the host it is ready (`ui/notifications/sandbox-proxy-ready`),
 * loads the view in an inner frame when the host sends `ui/notifications/sandbox-resource-ready`,
 * and passes every other message between the host and the view as it is. It creates no message
 * of its own but the ready notification.
 *
 * The inner frame is sandboxed without `allow-same-origin`: the view runs in an opaque origin, so
 * it can read neither this document (nor its URL's token) nor any storage; its own policy (a
 * header of its response, sandbox-server.ts) limits what it may load or reach. The view's HTML
 * is what the sandbox server serves for it, the same text the host sends in
 * `sandbox-resource-ready` (which is recorded): the proxy read it, and built its policy, not a page.
 *
 * Only messages from Loupe's page (its origin, the parent window) and from the inner frame's window
 * are taken; anything else posted here is ignored.
 */
export interface SandboxPageOptions {
  nonce: string;
  hostOrigin: string;
  viewUrl: string;
  allow: string;
}

/** A value for a `<script>`: JSON with `<` escaped, so that no string can close the element. */
function scriptValue(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export function sandboxPage({ nonce, hostOrigin, viewUrl, allow }: SandboxPageOptions): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Loupe sandbox</title>
<style>html,body{margin:0;height:100%;overflow:hidden;background:transparent}iframe{border:0;width:100%;height:100%;display:block}</style>
</head><body><script nonce="${nonce}">
(() => {
  const HOST = ${scriptValue(hostOrigin)};
  const VIEW = ${scriptValue(viewUrl)};
  const ALLOW = ${scriptValue(allow)};
  const SANDBOX = 'ui/notifications/sandbox-';
  let inner = null;
  const toHost = (message) => window.parent.postMessage(message, HOST);
  const load = () => {
    inner = document.createElement('iframe');
    inner.setAttribute('sandbox', 'allow-scripts allow-forms');
    if (ALLOW) inner.setAttribute('allow', ALLOW);
    inner.setAttribute('title', 'The server\\u2019s view');
    inner.src = VIEW;
    document.body.appendChild(inner);
  };
  window.addEventListener('message', (event) => {
    if (event.source === window.parent && event.origin === HOST) {
      const message = event.data;
      const method = message && typeof message === 'object' ? message.method : undefined;
      if (typeof method === 'string' && method.startsWith(SANDBOX)) {
        if (method === SANDBOX + 'resource-ready' && !inner) load();
        return;
      }
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(message, '*');
      return;
    }
    if (inner && event.source === inner.contentWindow) toHost(event.data);
  });
  toHost({ jsonrpc: '2.0', method: SANDBOX + 'proxy-ready', params: {} });
})();
</script></body></html>
`;
}
