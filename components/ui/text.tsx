/**
 * Server-supplied strings are untrusted: rendered as React text only, with control and bidi
 * formatting characters made visible so that they cannot reorder or hide the text around them.
 */
import type { ReactNode } from 'react';

// C0 controls except \t \n \r, DEL, C1 controls, bidi embeddings/overrides/isolates, LRM/RLM/ALM,
// zero-width characters, line/paragraph separators, BOM.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u2028-\u202E\u2060-\u2069\uFEFF]/g;

/** Replace invisible/formatting characters with a visible `⟨U+XXXX⟩` marker. */
export function visibleText(text: string): string {
  return text.replace(INVISIBLE, (ch) => `⟨U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/** Untrusted inline text, bidi-isolated. */
export function Text({ children, className }: { children: string | undefined; className?: string }): ReactNode {
  if (children === undefined) return null;
  return (
    <bdi className={className} dir="auto">
      {visibleText(children)}
    </bdi>
  );
}

/** Untrusted multi-line text in a monospace block. */
export function Pre({ children, className = '', mono = true }: { children: string; className?: string; mono?: boolean }): ReactNode {
  return (
    <pre className={`whitespace-pre-wrap break-words [unicode-bidi:plaintext] ${mono ? 'font-mono text-xs' : 'font-sans'} ${className}`}>
      {visibleText(children)}
    </pre>
  );
}
