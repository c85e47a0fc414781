/**
 * The exact text of an outgoing JSON-RPC message, kept beside the parsed object: the text the page
 * asked to send (the hub), a rule's or a person's rewrite; the transport writes that text instead
 * of serialising the object again. (An incoming message's text travels with it as the Transport's
 * `extra`, frame-record.ts.)
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
