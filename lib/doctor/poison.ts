/**
 * Tool poisoning checks (issue 14, point 6). A host puts tool names, descriptions and schema
 * descriptions into the model's context as they are, so every one of them is an instruction channel
 * the user who approved the server rarely reads: text hidden in invisible characters, wording that
 * tells the model to read ~/.ssh or send data elsewhere, steering toward another server's tools, or a
 * description that changes after the user approved it (hash pinning catches that).
 *
 * These are heuristics over text, not proof. The patterns are data below, each with why it is there,
 * tuned so that server-everything, server-filesystem and server-memory raise nothing for their normal
 * descriptions (doctor-poison.test.ts starts them and says what each raises). Severity follows harm:
 * hidden characters and requests for secret files or for sending data away are errors, wording aimed
 * at the model is a warning, pointing at one of the server's own tools is info.
 */
import type { DoctorInput, Finding, FindingSource, FindingSubject, Severity } from '../model/doctor.ts';
import { formatPath, type PathKey } from '../json/json-path.ts';
import { stringifySafe } from '../json/safe-json.ts';

type ItemKind = 'tool' | 'prompt' | 'resource' | 'resource-template';

const SPEC = 'https://modelcontextprotocol.io/specification/2025-11-25/server';
const RESOURCES_SECURITY: FindingSource = { label: 'MCP 2025-11-25, Resources: Security Considerations', url: `${SPEC}/resources#security-considerations` };
const SECURITY: Record<ItemKind, FindingSource> = {
  tool: { label: 'MCP 2025-11-25, Tools: Security Considerations', url: `${SPEC}/tools#security-considerations` },
  prompt: { label: 'MCP 2025-11-25, Prompts: Security', url: `${SPEC}/prompts#security` },
  resource: RESOURCES_SECURITY, 'resource-template': RESOURCES_SECURITY,
};
const PINNING: FindingSource = { label: 'MCP 2025-11-25, Tools: User Interaction Model (make clear which tools are exposed to the model)', url: `${SPEC}/tools#user-interaction-model` };
const TR36: FindingSource = { label: 'Unicode Technical Report #36: Unicode Security Considerations', url: 'https://www.unicode.org/reports/tr36/' };
const TR9: FindingSource = { label: 'Unicode Standard Annex #9: Unicode Bidirectional Algorithm', url: 'https://www.unicode.org/reports/tr9/' };

const LABEL: Record<ItemKind, string> = { tool: 'Tool', prompt: 'Prompt', resource: 'Resource', 'resource-template': 'Resource template' };
const LISTS: readonly [ItemKind, keyof DoctorInput['lists']][] = [['tool', 'tools'], ['prompt', 'prompts'], ['resource', 'resources'], ['resource-template', 'resourceTemplates']];
/** What of each item reaches the model (icons, `_meta`, URIs do not, or are not prose). */
const FIELDS: Record<ItemKind, readonly string[]> = {
  tool: ['name', 'title', 'description', 'annotations', 'inputSchema', 'outputSchema'],
  prompt: ['name', 'title', 'description', 'arguments'],
  resource: ['name', 'title', 'description'], 'resource-template': ['name', 'title', 'description'],
};
const PROSE_KEYS = new Set(['description', 'title']);
/** Regular expressions are not text for a reader: an invisible character in one may be the point (a pattern that rejects it). */
const SKIP_KEYS = new Set(['pattern']);
// Caps, so that a hostile list (deep schemas, huge descriptions, thousands of tools) costs bounded time and output.
const MAX_NODES = 20_000;
const MAX_DEPTH = 64;
const MAX_TEXT = 100_000;
const MAX_PER_RULE = 50;
const QUOTE_LENGTH = 80;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** One string of one item that a model reads; `prose` for descriptions and titles (the rest is checked for hidden characters only). */
type Text = { kind: ItemKind; name: string; path: string; text: string; prose: boolean; property?: boolean };

function textsOf(kind: ItemKind, item: Record<string, unknown>): Text[] {
  const name = typeof item.name === 'string' ? item.name : typeof item.uri === 'string' ? item.uri : '(unnamed)';
  const out: Text[] = [];
  const stack: [unknown, PathKey[]][] = FIELDS[kind].filter((f) => item[f] !== undefined).map((f): [unknown, PathKey[]] => [item[f], [f]]).reverse();
  for (let nodes = 0; stack.length > 0 && nodes < MAX_NODES; nodes++) {
    const [value, keys] = stack.pop()!;
    const last = keys[keys.length - 1];
    if (keys.length > MAX_DEPTH) continue;
    if (typeof value === 'string') out.push({ kind, name, path: formatPath(keys).slice(2), text: value.slice(0, MAX_TEXT), prose: typeof last === 'string' && PROSE_KEYS.has(last) });
    else if (Array.isArray(value)) for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], [...keys, i]]);
    else if (isRecord(value)) {
      const entries = Object.entries(value).filter(([k]) => !SKIP_KEYS.has(k));
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i][1], [...keys, entries[i][0]]]);
      // A property's name reaches the model as much as its description does.
      if (last === 'properties') for (const k of Object.keys(value)) out.push({ kind, name, path: `the name of the property ${formatPath([...keys, k]).slice(2)}`, text: k, prose: false, property: true });
    }
  }
  return out;
}

// ---------------------------------------------------------------- hidden characters (TR#36, TR#9)

type Hidden = 'tags' | 'bidi' | 'invisible';

const NAMES: Record<number, string> = {
  0x00ad: 'SOFT HYPHEN', 0x034f: 'COMBINING GRAPHEME JOINER', 0x061c: 'ARABIC LETTER MARK', 0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER', 0x180e: 'MONGOLIAN VOWEL SEPARATOR', 0x200b: 'ZERO WIDTH SPACE', 0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER', 0x200e: 'LEFT-TO-RIGHT MARK', 0x200f: 'RIGHT-TO-LEFT MARK', 0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING', 0x202c: 'POP DIRECTIONAL FORMATTING', 0x202d: 'LEFT-TO-RIGHT OVERRIDE', 0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER', 0x2061: 'FUNCTION APPLICATION', 0x2062: 'INVISIBLE TIMES', 0x2063: 'INVISIBLE SEPARATOR', 0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE', 0x2067: 'RIGHT-TO-LEFT ISOLATE', 0x2068: 'FIRST STRONG ISOLATE', 0x2069: 'POP DIRECTIONAL ISOLATE',
  0x3164: 'HANGUL FILLER', 0xfeff: 'ZERO WIDTH NO-BREAK SPACE', 0xffa0: 'HALFWIDTH HANGUL FILLER', 0xe0001: 'LANGUAGE TAG', 0xe007f: 'CANCEL TAG',
};
const BIDI = new Set([0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);
/** Directional marks (not embeddings, overrides or isolates) are how right-to-left text is written correctly. */
const BIDI_MARKS = new Set([0x061c, 0x200e, 0x200f]);
/** Letters that render as nothing; used to make names and text that look empty or like other names. */
const FILLERS = new Set([0x034f, 0x115f, 0x1160, 0x3164, 0xffa0]);
/** Format characters that are visible (Arabic prepended concatenation marks): Cf, but nothing hidden. */
const VISIBLE_CF = new Set([0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06dd, 0x070f, 0x0890, 0x0891, 0x08e2, 0x110bd, 0x110cd]);
const FORMAT = /^[\p{Cf}\p{Co}]$/u;
const RTL_TEXT = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const PICTOGRAPH = /^[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]$/u;
const JOINING_SCRIPT_LETTER = /^[\p{L}\p{M}]$/u;
const LATIN = /^\p{Script=Latin}$/u;

const isTag = (cp: number) => cp >= 0xe0000 && cp <= 0xe007f;
const isSelector = (cp: number) => (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
const ch = (cp: number | undefined) => (cp === undefined ? '' : String.fromCodePoint(cp));

/** Every hidden character of a text with its kind, leaving out the uses Unicode intends (emoji, joiners in scripts that need them, flags). */
function hiddenCharacters(text: string): { at: number; cp: number; kind: Hidden }[] {
  if (/^[\0-\xAC]*$/.test(text)) return []; // below U+00AD SOFT HYPHEN nothing is hidden: most text is done here
  const cps = Array.from(text, (c) => c.codePointAt(0)!);
  const found: { at: number; cp: number; kind: Hidden }[] = [];
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i];
    if (cp < 0xad) continue;
    const prev = () => ch(cps[i - 1]);
    const next = () => ch(cps[i + 1]);
    if (isTag(cp)) {
      let end = i;
      while (end < cps.length && isTag(cps[end])) end++;
      const run = cps.slice(i, end);
      // A subdivision flag (🏴 + lowercase tag letters + CANCEL TAG, e.g. Scotland) is what tag characters are for now.
      const flag = cps[i - 1] === 0x1f3f4 && run[run.length - 1] === 0xe007f && run.slice(0, -1).every((c) => (c >= 0xe0030 && c <= 0xe0039) || (c >= 0xe0061 && c <= 0xe007a));
      if (!flag) for (let j = i; j < end; j++) found.push({ at: j, cp: cps[j], kind: 'tags' });
      i = end - 1;
    } else if (BIDI.has(cp)) {
      if (!(BIDI_MARKS.has(cp) && RTL_TEXT.test(text))) found.push({ at: i, cp, kind: 'bidi' });
    } else if (cp === 0x200c || cp === 0x200d) {
      const inEmoji = cp === 0x200d && PICTOGRAPH.test(prev()) && PICTOGRAPH.test(next());
      const inScript = [prev(), next()].every((c) => JOINING_SCRIPT_LETTER.test(c) && !LATIN.test(c));
      if (!inEmoji && !inScript) found.push({ at: i, cp, kind: 'invisible' });
    } else if (isSelector(cp)) {
      // One selector after a character picks a glyph; a run of them carries nothing visible but can carry bytes.
      if (isSelector(cps[i - 1] ?? 0) || isSelector(cps[i + 1] ?? 0) || i === 0) found.push({ at: i, cp, kind: 'invisible' });
    } else if (FILLERS.has(cp) || (!VISIBLE_CF.has(cp) && FORMAT.test(ch(cp)))) found.push({ at: i, cp, kind: 'invisible' });
  }
  return found;
}

const characterName = (cp: number) => `${hex(cp)} ${NAMES[cp] ?? (/\p{Co}/u.test(ch(cp)) ? 'PRIVATE USE' : 'FORMAT CHARACTER')}`;

/** "U+200B ZERO WIDTH SPACE ×2, U+2060 WORD JOINER": the kinds found, the most frequent first, at most five; selectors as one kind. */
function characterList(cps: number[]): string {
  const counts = new Map<number | string, number>();
  for (const cp of cps) {
    const key = isSelector(cp) ? 'variation selectors' : cp;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const kinds = [...counts].sort((a, b) => b[1] - a[1]);
  const shown = kinds.slice(0, 5).map(([key, n]) => `${typeof key === 'number' ? characterName(key) : key}${n > 1 ? ` ×${n}` : ''}`);
  return shown.join(', ') + (kinds.length > 5 ? ` and ${kinds.length - 5} other kinds` : '');
}

/** What tag characters spell (each mirrors an ASCII character), or what a run of variation selectors carries as UTF-8 bytes. */
function smuggled(cps: number[], kind: Hidden): string | undefined {
  if (kind === 'tags') return cps.filter((cp) => cp >= 0xe0020 && cp <= 0xe007e).map((cp) => String.fromCharCode(cp - 0xe0000)).join('') || undefined;
  const bytes = cps.filter(isSelector).map((cp) => (cp <= 0xfe0f ? cp - 0xfe00 : cp - 0xe0100 + 16));
  if (bytes.length < 4) return undefined;
  const text = new TextDecoder('utf-8').decode(new Uint8Array(bytes));
  return /^[\p{L}\p{N}\p{P}\p{S}\p{Zs}\n]+$/u.test(text) ? text : undefined;
}

/** The text with every hidden character written as <U+XXXX>, whitespace collapsed, cut to `max` characters. */
function visible(text: string, max = Infinity): string {
  const shown = text.replace(/[\p{Cf}\p{Co}\u115F\u1160\u3164\uFFA0]|\u034F|[\uFE00-\uFE0F]|[\u{E0100}-\u{E01EF}]/gu, (c) => `<${hex(c.codePointAt(0)!)}>`).replace(/\s+/g, ' ').trim();
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
}

const place = (t: Text) => (t.path === 'name' || t.path === 'title' || t.path === 'description' ? `its ${t.path}` : visible(t.path));
const about = (t: Text): FindingSubject => ({ kind: t.kind, name: t.name });
const thing = (t: Text) => `${LABEL[t.kind]} "${visible(t.name, QUOTE_LENGTH)}"`;

function unicodeFindings(t: Text): Finding[] {
  const hidden = hiddenCharacters(t.text);
  const out: Finding[] = [];
  for (const kind of ['tags', 'bidi', 'invisible'] as const) {
    const these = hidden.filter((h) => h.kind === kind);
    if (these.length === 0) continue;
    const cps = these.map((h) => h.cp);
    const secret = smuggled(cps, kind);
    const first = `first at character ${these[0].at + 1}`;
    const where = `${place(t)} (${characterList(cps)}, ${first})`;
    const base = { severity: 'error' as const, about: about(t) };
    if (kind === 'tags') out.push({ ...base, rule: 'poison-unicode-tags', source: TR36, message: `${thing(t)} hides text in ${these.length} invisible Unicode tag characters in ${place(t)} (${first})${secret ? `, which spell "${visible(secret, QUOTE_LENGTH)}"` : ''}.`, fix: 'Remove the tag characters (U+E0000–U+E007F): a model reads them as text while a person reviewing the server sees nothing.' });
    else if (kind === 'bidi') out.push({ ...base, rule: 'poison-unicode-bidi', source: TR9, message: `${thing(t)} has bidirectional control characters in ${where}, so people see the text in a different order than the model reads it.`, fix: 'Remove the bidirectional controls; text that mixes right-to-left and left-to-right scripts is ordered by the display without them.' });
    else out.push({ ...base, rule: 'poison-unicode-invisible', source: TR36, message: `${thing(t)} has ${these.length} invisible character${these.length === 1 ? '' : 's'} in ${where}${secret ? `, which carry the hidden text "${visible(secret, QUOTE_LENGTH)}"` : ''}.`, fix: 'Remove the invisible characters; if nobody put them there on purpose, check where the text comes from.' });
  }
  return out;
}

// ---------------------------------------------------------------- wording aimed at the model

interface PhraseRule {
  rule: string;
  severity: Severity;
  /** Completes "Tool "x" … in its description: "quote"". */
  what: string;
  fix: string;
  patterns: RegExp[];
}

/**
 * The phrases, as data. Each is anchored on wording an honest description has no reason to use
 * toward the model; checked against the three reference servers (none of their descriptions match).
 */
const PHRASES: readonly PhraseRule[] = [
  // The classic injection opener: it only makes sense addressed to a model that already has instructions.
  { rule: 'poison-override-instructions', severity: 'warning', what: 'tells the model to set aside its other instructions', fix: 'Describe what the tool does; never address the model\'s other instructions.',
    patterns: [/\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)?(?:previous|prior|earlier|preceding|above|other|existing|original)\s+(?:instructions?|directions?|rules|prompts?|guidelines|messages)/gi] },
  // Secrecy toward the user is the mark of a description working against the person it serves.
  { rule: 'poison-hide-from-user', severity: 'warning', what: 'tells the model to keep something from the user', fix: 'Remove the instruction to hide things from the user; the host decides what the user sees.',
    patterns: [/\b(?:do\s+not|don['’]t|never|without)\s+(?:\w+\s+){0,3}?(?:tell|telling|mention|mentioning|inform|informing|notify|notifying|alert|alerting|reveal|revealing|show|showing|let|letting)\s+(?:\w+\s+){0,4}?(?:the\s+)?user\b(?!['’]s)/gi,
      /\bthe\s+user\s+(?:must|should|need|needs)\s+not\s+(?:know|see|notice|be\s+told)|\bkeep\s+(?:this|it)\s+(?:a\s+)?secret/gi] },
  // Commands to the model rather than a description of the tool; poisoned descriptions lean on them ("you MUST call this first").
  { rule: 'poison-imperative', severity: 'warning', what: 'gives the model an order', fix: 'Say what the tool needs ("path must be absolute") instead of ordering the model.',
    patterns: [/\byou\s+(?:must|are\s+required\s+to|are\s+obliged\s+to)\b/gi, /\b(?:always|first)\s+(?:call|use|run|invoke)\s+this\s+tool\s+(?:before|first)\b/gi] },
  // Pseudo-markup that imitates the host's own framing so the model gives it priority.
  { rule: 'poison-pseudo-tag', severity: 'warning', what: 'uses markup that imitates instructions from the host', fix: 'Remove the <IMPORTANT>-style tags; a description is plain text about the tool.',
    patterns: [/<\s*\/?\s*(?:important|system|instructions?|admin|secret|hidden|critical)\b[^>]{0,40}>/gi, /\[\s*(?:system|inst|important)\s*\]/gi] },
  // A tool has no business talking about the model's prompt; this is how descriptions try to rewrite or extract it.
  { rule: 'poison-system-prompt', severity: 'warning', what: 'talks about the model\'s system prompt', fix: 'Remove the reference to the system prompt; describe the tool only.',
    patterns: [/\b(?:system|developer)\s+(?:prompt|message|instructions)\b|\bhidden\s+instructions\b/gi] },
  // Hosts render descriptions as Markdown or HTML, where a comment is invisible to people and not to the model.
  { rule: 'poison-html-comment', severity: 'warning', what: 'has an HTML comment (invisible once rendered)', fix: 'Remove the HTML comment or make its text part of the visible description.',
    patterns: [/<!--[\s\S]{0,500}?(?:-->|$)/g] },
  // Files that hold keys and passwords: no tool description needs the model to open them.
  { rule: 'poison-sensitive-file', severity: 'error', what: 'points the model at a file that holds keys or passwords', fix: 'Remove the reference to the secret file; a tool that needs a credential should read it from its own configuration.',
    patterns: [/(?:~|\$HOME|%USERPROFILE%)?\/?\.ssh\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|(?<![\w.])\.env\b|\/etc\/(?:passwd|shadow|sudoers)\b/gi,
      /(?:~\/)?(?:\.aws\/credentials|\.git-credentials|(?<![\w.])\.(?:netrc|npmrc|pgpass)\b|\bcredentials\.json\b|\.kube\/config|\.docker\/config\.json|\.cursor\/mcp\.json|claude_desktop_config\.json|\bwallet\.dat\b)/gi] },
  // Asking the model to fetch or pass secrets; a warning, since a secrets tool may honestly say "returns the API key".
  { rule: 'poison-secret-request', severity: 'warning', what: 'asks the model to read or pass on secrets', fix: 'Do not ask the model for credentials; the server should hold its own.',
    patterns: [/\b(?:read|open|cat|load|include|attach|pass|send|copy|print|dump|provide)\b[^.\n]{0,50}?\b(?:credentials|secrets|passwords?|api[\s_-]?keys?|private\s+keys?|ssh\s+keys?|access\s+tokens?)\b/gi] },
  // A way out for data: a URL with parameters is a ready-made channel, and so is "send … to" an address. Not "upload to a
  // remote server": that is how an honest transfer tool describes itself.
  { rule: 'poison-exfiltration', severity: 'error', what: 'asks the model to send data somewhere else', fix: 'Remove the address and the request to send data; a tool sends what it needs itself, through its own code.',
    patterns: [/\bhttps?:\/\/[^\s"'<>`]+\?[^\s"'<>`]*=/gi,
      /\b(?:send|upload|post|forward|transmit|exfiltrate|leak|submit|mail|e-?mail|copy)(?:s|ed|ing)?\b[^.\n]{0,60}?\b(?:to|into)\s+(?:https?:\/\/|[\w.+-]+@[\w-]+\.[\w.]+|(?:this|the\s+following|our)\s+(?:url|endpoint|webhook|address))/gi,
      /\bwebhook\.site\b|\brequestbin\b|\bngrok\.io\b/gi] },
  // Collecting the conversation into an argument sends it to the server with the next call. A verb is required: a chat
  // server honestly "gets the conversation history" of a channel.
  { rule: 'poison-context-harvest', severity: 'error', what: 'asks the model to hand over the conversation', fix: 'Ask only for the arguments the tool needs; never for the conversation or earlier messages.',
    patterns: [/\b(?:include|pass|put|add|append|attach|send|provide|copy|paste)\b[^.\n]{0,40}?\b(?:(?:entire|whole|full)\s+)?(?:conversation(?:\s+history)?|chat\s+history|previous\s+messages|context\s+window)\b/gi] },
];

/** The match and the rest of its sentence when the match alone says little, cut to QUOTE_LENGTH. */
function quoteAt(text: string, index: number, length: number): string {
  const rest = length >= 40 ? '' : text.slice(index + length, index + length + 2 * QUOTE_LENGTH);
  const stop = rest.search(/[.!?](?=\s|$)|\n/);
  return visible(text.slice(index, index + length) + (stop < 0 ? rest : rest.slice(0, stop)), QUOTE_LENGTH);
}

function phraseFindings(t: Text): Finding[] {
  const out: Finding[] = [];
  for (const p of PHRASES) {
    const hits = p.patterns.flatMap((re) => [...t.text.matchAll(re)]).sort((a, b) => a.index - b.index);
    if (hits.length === 0) continue;
    const more = hits.length > 1 ? ` (and ${hits.length - 1} more like it)` : '';
    out.push({ severity: p.severity, about: about(t), rule: p.rule, source: SECURITY[t.kind], fix: p.fix, message: `${thing(t)} ${p.what} in ${place(t)}: "${quoteAt(t.text, hits[0].index, hits[0][0].length)}"${more}.` });
  }
  return out;
}

// ---------------------------------------------------------------- references to other tools and servers

/** A word written the way tool names are and prose is not: snake_case, dotted.name, camelCase. Hyphenated words are too often English ("read-only"). */
const TOOLISH = /^(?:[A-Za-z][A-Za-z0-9]*(?:_{1,2}[A-Za-z0-9]+)+|[A-Za-z][A-Za-z0-9]+(?:\.[A-Za-z][A-Za-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]*)$/;
/** Words shaped like tool names that are not: file and domain names, environment variables (ALL_CAPS), naming styles, platforms. */
const NOT_A_TOOL: readonly RegExp[] = [/\.(?:js|ts|mjs|cjs|py|json|md|txt|sh|ya?ml|toml|csv|html?|xml|exe|dll|so|com|org|net|io|dev|ai|app)$/i, /^[A-Z0-9_]+$/, /^(?:snake_case|camelCase|macOS|iOS|iPadOS|watchOS|tvOS|iPhone|iPad)$/];
/** A word followed by one of these is an argument or a setting, not a tool ("use page_size to…" is caught by the schema's own names). */
const NOT_A_TOOL_AFTER = /^\s*(?:parameters?|arguments?|args?|fields?|propert(?:y|ies)|options?|flags?|keys?|values?|columns?|variables?|attributes?|settings?|headers?)\b/i;
/** Where a word is taken for a tool's name; `named`: the wording says it is a tool, so a quoted plain word counts too. */
const REFERENCES: readonly { re: RegExp; named: boolean }[] = [
  { re: /\b(?:call|calls|calling|use|uses|using|invoke|invokes|invoking|run|runs|running|prefer|try|instead\s+of|rather\s+than|in\s+place\s+of)\s+(?:the\s+)?([`'"]?)([\w.-]+)\1/gi, named: false },
  { re: /(?<![\w.-])([`'"]?)([\w.-]+)\1\s+tool\b/gi, named: true },
  { re: /\btool\s+(?:named|called)\s+([`'"]?)([\w.-]+)\1/gi, named: true },
];
const CROSS_SERVER: readonly RegExp[] = [
  /\b(?:other|another|different|external|third[- ]party)\s+(?:mcp\s+)?servers?\b/gi,
  /\b(?:any|all|every)\s+other\s+tools?\b/gi,
  /\b(?:instead\s+of|rather\s+than|in\s+place\s+of)\s+(?:the\s+|using\s+(?:the\s+)?)?(?:[\w.-]+\s+){0,2}?tools?\b/gi,
];

/** The server's tool names (lowercased: a reference in another case is still to the same tool) and every property name of its schemas. */
type Known = { tools: ReadonlySet<string>; properties: ReadonlySet<string> };

function referenceFindings(t: Text, known: Known): Finding[] {
  const out: Finding[] = [];
  const siblings = new Map<string, string>();
  const unknown = new Map<string, string>();
  for (const { re, named } of REFERENCES) {
    for (const m of t.text.matchAll(re)) {
      const word = m[2].replace(/[.-]+$/, '');
      const quote = quoteAt(t.text, m.index, m[0].length);
      if (word.toLowerCase() === t.name.toLowerCase() || known.properties.has(word)) continue;
      if (known.tools.has(word.toLowerCase())) siblings.set(word, quote);
      else if (((named && m[1] !== '') || TOOLISH.test(word)) && /^[A-Za-z]/.test(word) && !NOT_A_TOOL.some((re) => re.test(word)) && !NOT_A_TOOL_AFTER.test(t.text.slice(m.index + m[0].length, m.index + m[0].length + 40))) unknown.set(word, quote);
    }
  }
  const base = { about: about(t), source: SECURITY[t.kind] };
  for (const [word, q] of unknown) out.push({ ...base, severity: 'warning', rule: 'poison-unknown-tool', message: `${thing(t)} names a tool "${visible(word)}" that this server does not have, in ${place(t)}: "${q}".`, fix: 'Name only this server\'s own tools; a description that steers the model toward another server\'s tool can take over calls meant for it.' });
  const cross = CROSS_SERVER.flatMap((re) => [...t.text.matchAll(re)]).sort((a, b) => a.index - b.index).filter((m) => !m[0].split(/\s+/).map((w) => w.replace(/[`'"]/g, '')).some((w) => siblings.has(w) || unknown.has(w)));
  if (cross.length > 0) out.push({ ...base, severity: 'warning', rule: 'poison-cross-server', message: `${thing(t)} talks about other servers or other tools in ${place(t)}: "${quoteAt(t.text, cross[0].index, cross[0][0].length)}".`, fix: 'Describe this tool only; telling the model how to use other servers\' tools is how one server takes over another\'s calls.' });
  for (const [word, q] of siblings) out.push({ ...base, severity: 'info', rule: 'poison-sibling-tool', message: `${thing(t)} points the model to this server's tool "${visible(word)}" in ${place(t)}: "${q}".`, fix: 'Nothing to change if that is meant; keep references to tools the server really has.' });
  return out;
}

// ---------------------------------------------------------------- hash pinning

/**
 * Why FNV-1a and not SHA-256: lib/ runs in the page and the proxy and must not import node:crypto,
 * and WebCrypto's digest is asynchronous while the rules are synchronous pure functions. A pin is for
 * noticing a change (an update, a server that rewrites its descriptions after approval), and 64
 * bits make an accidental collision negligible; it is not a defence against a server that crafts a
 * collision on purpose. The prefix names the algorithm, so a stronger one can replace it later
 * without old pins reading as changes.
 */
const PIN_PREFIX = 'fnv1a64:';
const PIN_FIELDS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/** FNV-1a 64 over the UTF-8 bytes, 16 hex digits; in 32-bit halves (BigInt is ten times slower): prime = 2^40 + 0x1B3, so
 *  h × prime = h × 0x1B3 + (low half << 40), and every product stays below 2^53. */
export function fnv1a64(text: string): string {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (const byte of new TextEncoder().encode(text)) {
    lo = (lo ^ byte) >>> 0;
    const low = lo * 0x1b3;
    hi = (hi * 0x1b3 + Math.floor(low / 0x100000000) + ((lo << 8) >>> 0)) >>> 0;
    lo = low >>> 0;
  }
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

/** Keys sorted at every level, so that a server that reorders a schema's keys keeps its pin. */
function canonical(value: unknown, depth = 0): unknown {
  // Past this depth values are kept as sent: a hostile depth must not overflow the stack.
  if (depth > 200) return value;
  if (Array.isArray(value)) return value.map((v) => canonical(v, depth + 1));
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical(value[k], depth + 1)]));
}

/** A content hash per tool name (the first of a duplicated name), over what the model is given: name, title, description, schemas, annotations. */
export function toolPins(tools: unknown[]): Record<string, string> {
  const pins = new Map<string, string>();
  for (const tool of tools) {
    if (!isRecord(tool) || typeof tool.name !== 'string' || pins.has(tool.name)) continue;
    const picked: Record<string, unknown> = {};
    for (const field of PIN_FIELDS) if (tool[field] !== undefined) picked[field] = canonical(tool[field]);
    pins.set(tool.name, PIN_PREFIX + fnv1a64(stringifySafe(picked) ?? ''));
  }
  // fromEntries, so that a tool named "__proto__" is an own key like any other.
  return Object.fromEntries(pins);
}

function pinFindings(tools: unknown[], pins: Record<string, string>): Finding[] {
  const now = toolPins(tools);
  const out: Finding[] = [];
  const tool = (name: string): FindingSubject => ({ kind: 'tool', name });
  for (const [name, hash] of Object.entries(now)) {
    const was = Object.hasOwn(pins, name) ? pins[name] : undefined;
    if (was === undefined) out.push({ severity: 'info', about: tool(name), rule: 'poison-pin-new', source: PINNING, message: `Tool "${visible(name)}" is new since this server was last seen in the workspace.`, fix: 'Read its description and schema before a model uses it.' });
    else if (typeof was === 'string' && was.startsWith(PIN_PREFIX) && was !== hash) out.push({ severity: 'warning', about: tool(name), rule: 'poison-pin-changed', source: PINNING, message: `Tool "${visible(name)}": its description or schema changed since this server was last seen in the workspace.`, fix: 'Read the tool\'s description and schemas as they are now before a model uses it; if you expected the change, accept it so that the new version is pinned.' });
  }
  for (const name of Object.keys(pins)) if (!Object.hasOwn(now, name)) out.push({ severity: 'info', about: tool(name), rule: 'poison-pin-removed', source: PINNING, message: `Tool "${visible(name)}" was offered when this server was last seen in the workspace and is gone now.`, fix: 'Nothing to change if it was removed on purpose; otherwise check the server\'s version and configuration.' });
  return out;
}

// ---------------------------------------------------------------- all of it

/** Keeps at most MAX_PER_RULE findings of each rule and says how many more there were. */
function capped(findings: Finding[]): Finding[] {
  const count = new Map<string, number>();
  const kept = findings.filter((f) => count.set(f.rule, (count.get(f.rule) ?? 0) + 1).get(f.rule)! <= MAX_PER_RULE);
  for (const [rule, n] of count) {
    if (n > MAX_PER_RULE) kept.push({ ...findings.find((f) => f.rule === rule)!, about: { kind: 'server' }, message: `${n - MAX_PER_RULE} more findings of the rule ${rule} are not listed (only the first ${MAX_PER_RULE} are).` });
  }
  return kept;
}

/**
 * The poisoning findings of one server: hidden characters, wording aimed at the model, references
 * to other tools and servers, in every tool, prompt, resource and resource template; and, when
 * `input.pins` holds the hashes from the last time (undefined: never seen, nothing to compare), the
 * tools that changed, appeared or went away. Pins are not compared when tools/list failed.
 */
export function poisonFindings(input: DoctorInput): Finding[] {
  const tools = input.lists.tools?.items ?? [];
  const texts = LISTS.flatMap(([kind, list]) => (input.lists[list]?.items ?? []).filter(isRecord).flatMap((item) => textsOf(kind, item)));
  const known: Known = {
    tools: new Set(tools.filter(isRecord).map((t) => t.name).filter((n): n is string => typeof n === 'string').map((n) => n.toLowerCase())),
    properties: new Set(texts.filter((t) => t.property).map((t) => t.text)),
  };
  const findings = texts.flatMap((t) => [...unicodeFindings(t), ...(t.prose ? [...phraseFindings(t), ...referenceFindings(t, known)] : [])]);
  if (input.pins && input.lists.tools && !input.lists.tools.error) findings.push(...pinFindings(tools, input.pins));
  return capped(findings);
}
