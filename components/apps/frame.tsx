/**
 * The sandbox frame of an MCP Apps view (issue 24): an iframe on the sandbox's own loopback origin
 * (the spec's sandbox proxy; the view runs in a frame inside it). The page is only a pipe: a
 * message is taken from this frame's window and the sandbox's origin and nothing else, and handed
 * on as its JSON text; what the host sends the view is posted to that window, for that origin only.
 *
 * `allow-same-origin` is what the spec asks of the sandbox proxy's frame: its origin is another
 * port than Loupe's, so it gives the sandbox nothing of Loupe's page; the view's own frame, inside
 * it, has no such flag (proxy/apps/sandbox-page.ts).
 */
import { useEffect, useRef, type CSSProperties, type ReactNode } from 'react';

export interface ViewFrameProps {
  /** The view's id: a new one is a new frame. */
  view: string;
  tool: string;
  sandboxUrl: string;
  sandboxOrigin: string;
  /** The iframe `allow` attribute (the view's `_meta.ui.permissions`). */
  allow: string;
  /** A message the sandbox posted, as text. */
  onMessage(text: string): void;
  /** Takes the host's messages for the view (as text) from now on; returns the function that lets go. */
  attach(post: (text: string) => void): () => void;
  style?: CSSProperties;
  className?: string;
}

/** A posted value as JSON text; undefined for what JSON cannot hold (a cycle, a bare undefined). */
function textOf(data: unknown): string | undefined {
  try {
    const text = JSON.stringify(data);
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

export function ViewFrame({ view, tool, sandboxUrl, sandboxOrigin, allow, onMessage, attach, style, className = '' }: ViewFrameProps): ReactNode {
  const ref = useRef<HTMLIFrameElement>(null);
  // The latest callbacks, without subscribing anew on every render.
  const callbacks = useRef({ onMessage, attach });
  useEffect(() => {
    callbacks.current = { onMessage, attach };
  }, [onMessage, attach]);

  useEffect(() => {
    const frame = ref.current;
    if (!frame) return;
    const received = (event: MessageEvent) => {
      if (event.source !== frame.contentWindow || event.origin !== sandboxOrigin) return;
      const text = textOf(event.data);
      if (text !== undefined) callbacks.current.onMessage(text);
    };
    window.addEventListener('message', received);
    const detach = callbacks.current.attach((text) => {
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        return;
      }
      frame.contentWindow?.postMessage(message, sandboxOrigin);
    });
    return () => {
      window.removeEventListener('message', received);
      detach();
    };
  }, [view, sandboxOrigin]);

  return (
    <iframe
      ref={ref}
      src={sandboxUrl}
      title={`View of ${tool}`}
      sandbox="allow-scripts allow-same-origin"
      allow={allow}
      referrerPolicy="no-referrer"
      style={style}
      className={`block border-0 bg-white ${className}`}
    />
  );
}
