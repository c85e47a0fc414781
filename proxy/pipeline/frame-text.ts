/**
 * The exact text of a JSON-RPC message, kept beside the parsed object. The stdio tap remembers the
 * line each incoming message was parsed from, and the hub the text the page asked to send; a
 * transport writes that text and the hub relays it, instead of serialising the object again.
 * That is what lets a frame of any depth pass (issue 8: `JSON.stringify` recurses and throws past a
 * few thousand levels, `JSON.parse` does not), and it keeps what the page sees byte-exact.
 * A WeakMap, so the text lives exactly as long as the message object.
 */
const texts = new WeakMap<object, string>();

export function rememberText(message: object, text: string): void {
  texts.set(message, text);
}

export function textOf(message: unknown): string | undefined {
  return message !== null && typeof message === 'object' ? texts.get(message) : undefined;
}
