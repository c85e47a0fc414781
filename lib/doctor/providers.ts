/**
 * LLM compatibility (issue 14, point 4): for each tool and each provider — OpenAI with and without
 * `strict`, Anthropic, Gemini — one finding per rule of provider-rules.ts the tool breaks, with the
 * schema Loupe would send that provider instead. A tool that passes every MCP check can still be
 * refused by the model API its host forwards it to; the author should hear it from Loupe first.
 *
 * Severity: error when the provider refuses the definition, warning when it takes it but changes
 * what it means (or when only part of the provider's platforms refuse it).
 */
import type { Finding, FindingSource, DoctorInput, Severity } from '../model/doctor.ts';
import { analyzeSchema, isObj, isObjectSchema, where, type SchemaAnalysis, type SchemaRule, type Violation } from './provider-clean.ts';
import { PROFILES, PROVIDERS, type Provider, type ProviderProfile } from './provider-rules.ts';

export type { Provider };
export { PROVIDERS };

/** What Loupe would send `provider` instead of `schema`, and every change in words. */
export function cleanSchemaFor(provider: Provider, schema: unknown): { schema: unknown; changes: string[] } {
  const { schema: cleaned, changes } = analyzeSchema(provider, schema);
  return { schema: cleaned, changes };
}

type Tally = { properties: number; depth: number; chars: number; enumValues: number; largeEnums: { at: string; chars: number }[] };

/** Counts what OpenAI's size limits count, over the schema that would be sent. */
function tally(node: unknown, path: string[], t: Tally, depth: number, over: number): void {
  // The cleaned schema is bounded (provider-clean.ts), but a guard costs nothing.
  if (!isObj(node) || path.length > 400) return;
  const here = isObjectSchema(node) ? depth + 1 : depth;
  t.depth = Math.max(t.depth, here);
  for (const key of ['properties', '$defs', 'definitions'] as const) {
    const map = node[key];
    if (!isObj(map)) continue;
    if (key === 'properties') t.properties += Object.keys(map).length;
    for (const [name, sub] of Object.entries(map)) {
      t.chars += name.length;
      tally(sub, [...path, key, name], t, key === 'properties' ? here : 0, over);
    }
  }
  if (Array.isArray(node.enum)) {
    t.enumValues += node.enum.length;
    const length = node.enum.reduce((n: number, v) => n + String(v).length, 0);
    t.chars += length;
    if (node.enum.length > over && node.enum.every((v) => typeof v === 'string')) t.largeEnums.push({ at: where(path), chars: length });
  }
  if (node.const !== undefined) t.chars += String(node.const).length;
  for (const key of ['items', 'additionalProperties', 'not']) tally(node[key], [...path, key], t, here, over);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    const list = node[key];
    if (Array.isArray(list)) list.forEach((v, i) => tally(v, [...path, key, String(i)], t, here, over));
  }
}

/** The rules no rewrite can mend (size limits, parameter names), checked on the schema that would be sent. */
function unmendable(profile: ProviderProfile, sent: unknown): Violation[] {
  const found: Violation[] = [];
  const { limits, parameterNames } = profile;
  if (limits) {
    const t: Tally = { properties: 0, depth: 0, chars: 0, enumValues: 0, largeEnums: [] };
    tally(sent, [], t, 0, limits.largeEnum.over);
    const check = (figure: number, limit: number, what: string) => {
      if (figure > limit) found.push({ rule: 'limit', where: 'the root', detail: `${figure} ${what} (the limit is ${limit})` });
    };
    check(t.properties, limits.properties, 'object properties');
    check(t.depth, limits.depth, 'levels of nesting');
    check(t.chars, limits.stringLength, 'characters of property names, definition names, enum and const values');
    check(t.enumValues, limits.enumValues, 'enum values');
    for (const e of t.largeEnums.filter((e) => e.chars > limits.largeEnum.length)) {
      found.push({ rule: 'limit', where: 'the root', detail: `${e.chars} characters in the enum of more than ${limits.largeEnum.over} values at ${e.at} (the limit is ${limits.largeEnum.length})` });
    }
  }
  if (parameterNames && isObj(sent) && isObj(sent.properties)) {
    const bad = Object.keys(sent.properties).filter((name) => !parameterNames.pattern.test(name));
    if (bad.length > 0) found.push({ rule: 'parameter-name', where: 'the root', detail: bad.join(', ') });
  }
  return found;
}

/** The cleaned schema, its changes, and every rule the original breaks for `provider`. */
export function providerAnalysis(provider: Provider, schema: unknown): SchemaAnalysis {
  const analysis = analyzeSchema(provider, schema);
  return { ...analysis, violations: [...analysis.violations, ...unmendable(PROFILES[provider], analysis.schema)] };
}

/**
 * `name` with every character the provider refuses replaced by `_`, a `_` in front where it must
 * not start as it does, cut to the provider's length. `part`: a piece of a longer name (only the
 * characters are cleaned).
 */
export function cleanName(name: string, provider: Provider, part = false): string {
  const { name: rule, nameStart } = PROFILES[provider];
  let out = [...name].map((c) => (rule.chars.test(c) ? c : '_')).join('');
  if (part) return out;
  if (out === '') out = 'tool';
  if (nameStart && !nameStart.chars.test(out[0])) out = `_${out}`;
  return [...out].slice(0, rule.maxLength).join('');
}

interface Context {
  tool: string;
  profile: ProviderProfile;
  analysis: SchemaAnalysis;
}

type Draft = { severity: Severity; rule: string; message: string; fix: string; source: FindingSource };

const q = (s: string) => JSON.stringify(s);

/** `x (at a), y (at b)`, at most six, for a message. */
function listed(violations: readonly Violation[], withWhere = true): string {
  const items = [...new Set(violations.map((v) => (withWhere && v.where !== 'the root' ? `${v.detail} (at ${v.where})` : v.detail)))];
  const shown = items.slice(0, 6).join(', ');
  return items.length > 6 ? `${shown} and ${items.length - 6} more` : shown;
}

function nameDrafts({ tool, profile }: Context): Draft[] {
  const drafts: Draft[] = [];
  const p = profile.provider;
  const bad = [...new Set([...tool].filter((c) => !profile.name.chars.test(c)))];
  if (bad.length > 0) {
    const shown = bad.map((c) => (c === ' ' ? 'a space' : q(c))).join(', ');
    drafts.push({
      severity: 'error',
      rule: `${p}-name-characters`,
      message: `Tool ${q(tool)} has ${shown} in its name; ${profile.label} accepts only ${profile.name.words}.`,
      fix: `Rename the tool, for example to ${q(cleanName(tool, p))} (Loupe's export renames it for you).`,
      source: profile.name.source,
    });
  }
  if ([...tool].length > profile.name.maxLength || tool === '') {
    drafts.push({
      severity: 'error',
      rule: `${p}-name-length`,
      message: tool === '' ? `A tool has an empty name; ${profile.label} needs a name of 1 to ${profile.name.maxLength} characters.` : `Tool ${q(tool)} has a name of ${[...tool].length} characters; ${profile.label} accepts at most ${profile.name.maxLength}.`,
      fix: `Give the tool a name of ${profile.name.maxLength} characters or fewer.`,
      source: profile.name.source,
    });
  }
  if (profile.nameStart && tool !== '' && !profile.nameStart.chars.test(tool[0])) {
    drafts.push({
      severity: 'warning',
      rule: `${p}-name-start`,
      message: `Tool ${q(tool)} starts with ${q(tool[0])}; Gemini on Vertex AI needs a name that starts with ${profile.nameStart.words}.`,
      fix: `Start the name with a letter.`,
      source: profile.nameStart.source,
    });
  }
  return drafts;
}

type Words = (tool: string, found: Violation[], profile: ProviderProfile) => { message: string; fix: string };

const SCHEMA_WORDS: Record<SchemaRule, Words> = {
  'root-type': (t, f, p) => ({
    message: `Tool ${q(t)} has an input schema that is ${f[0].detail === 'missing' ? 'missing' : f[0].detail}, not an object schema; ${p.label} accepts only "type": "object" at the top.`,
    fix: `Make inputSchema an object schema: {"type": "object", "properties": {…}}.`,
  }),
  'root-combinator': (t, f, p) => ({
    message: `Tool ${q(t)} puts ${listed(f, false)} at the top of its input schema, which ${p.label} refuses.`,
    fix: `Keep the top of the schema a plain object: describe the alternatives in the description, or send the cleaned schema, which merges them.`,
  }),
  keyword: (t, f, p) => ({
    message: `Tool ${q(t)} uses ${listed(f)} in its input schema, outside the JSON Schema subset ${p.label} accepts.`,
    fix: `Remove those keywords, or send the cleaned schema, which drops them and keeps simple values in the descriptions.`,
  }),
  format: (t, f, p) => ({
    message: `Tool ${q(t)} uses the format ${listed(f)}, which ${p.label} does not support.`,
    fix: `Use one of ${p.formats?.accepted.join(', ')}, or drop the format and say it in the description.`,
  }),
  'additional-properties': (t, f) => ({
    message: `Tool ${q(t)} has objects without "additionalProperties": false (${[...new Set(f.map((v) => v.where))].slice(0, 6).join(', ')}); OpenAI strict mode requires it on every object.`,
    fix: `Add "additionalProperties": false to every object in the schema, or send the tool with "strict": false.`,
  }),
  required: (t, f) => ({
    message: `Tool ${q(t)} has optional properties (${listed(f)}); OpenAI strict mode requires every property to be listed in "required".`,
    fix: `List every property in "required" and let optional ones be null ("type": ["string", "null"]), or send the tool with "strict": false.`,
  }),
  ref: (t, f, p) => ({
    message: `Tool ${q(t)} uses references (${listed(f)}); ${p.label} takes no "$ref" or "$defs".`,
    fix: `Write the referenced schemas out in place; the cleaned schema does this.`,
  }),
  'recursive-ref': (t, f, p) => ({
    message: `Tool ${q(t)} has a recursive schema (${listed(f)}); ${p.label} cannot express recursion, so the cleaned schema cuts it and the model sees no structure below the cut.`,
    fix: `Write out the levels the model needs instead of the recursive reference.`,
  }),
  'type-list': (t, f, p) => ({
    message: `Tool ${q(t)} gives lists of types (${listed(f)}); ${p.label} takes one type per schema, with "nullable": true for null.`,
    fix: `Use one type with "nullable": true, or anyOf for several types.`,
  }),
  'enum-strings': (t, f, p) => ({
    message: `Tool ${q(t)} has an enum with values that are not strings (${listed(f)}); ${p.label} accepts string enum values only.`,
    fix: `Use string values in the enum, or list the allowed values in the description.`,
  }),
  limit: (t, f, p) => ({
    message: `Tool ${q(t)} has an input schema over ${p.label}'s size limits: ${listed(f, false)}.`,
    fix: `Split the tool into smaller tools or flatten its input schema.`,
  }),
  'parameter-name': (t, f, p) => ({
    message: `Tool ${q(t)} has parameter names that Gemini on Vertex AI does not accept (${listed(f, false)}); they must ${p.parameterNames?.words}.`,
    fix: `Rename those parameters.`,
  }),
};

function ruleSource(profile: ProviderProfile, rule: SchemaRule): FindingSource {
  const sources: Partial<Record<SchemaRule, FindingSource | undefined>> = {
    'root-type': profile.rootObject,
    'root-combinator': profile.rootCombinators?.source,
    keyword: profile.keywords?.source,
    format: profile.formats?.source,
    'additional-properties': profile.strictObjects?.additionalProperties,
    required: profile.strictObjects?.required,
    ref: profile.noRefs,
    'recursive-ref': profile.noRefs,
    'type-list': profile.singleType,
    'enum-strings': profile.stringEnums,
    limit: profile.limits?.source,
    'parameter-name': profile.parameterNames?.source,
  };
  return sources[rule] ?? profile.rootObject;
}

function schemaDrafts({ tool, profile, analysis }: Context): Draft[] {
  const byRule = new Map<SchemaRule, Violation[]>();
  for (const v of analysis.violations) byRule.set(v.rule, [...(byRule.get(v.rule) ?? []), v]);
  return [...byRule].map(([rule, found]) => ({
    // Vertex AI's parameter-name rule is not the Gemini API's: a warning, not a refusal.
    severity: rule === 'parameter-name' ? 'warning' : 'error',
    rule: `${profile.provider}-${rule}`,
    ...SCHEMA_WORDS[rule](tool, found, profile),
    source: ruleSource(profile, rule),
  }));
}

function otherDrafts({ tool, profile }: Context, raw: Record<string, unknown>): Draft[] {
  const drafts: Draft[] = [];
  if (profile.descriptionRequired && (typeof raw.description !== 'string' || raw.description.trim() === '')) {
    drafts.push({
      severity: 'warning',
      rule: `${profile.provider}-description`,
      message: `Tool ${q(tool)} has no description; the Gemini API marks a function's description as required.`,
      fix: `Add a description saying what the tool does and when to use it.`,
      source: profile.descriptionRequired,
    });
  }
  if (profile.silentStrict) {
    const strict = providerAnalysis('openai-strict', raw.inputSchema).violations;
    // What changes meaning: optional properties made required, objects open to other keys closed
    // (an object that merely omits additionalProperties and lists its properties means the same).
    if (strict.some((v) => v.rule === 'required' || (v.rule === 'additional-properties' && v.detail !== '"missing"'))) {
      drafts.push({
        severity: 'warning',
        rule: `${profile.provider}-silent-strict`,
        message: `Tool ${q(tool)} has optional properties or objects that accept other keys, and OpenAI's Responses API turns a tool sent without "strict": false into a strict one, which makes every property required and refuses other keys.`,
        fix: `Send the tool with "strict": false (Loupe's export does), or make its schema strict-compatible.`,
        source: profile.silentStrict,
      });
    }
  }
  return drafts;
}

/** Every provider finding for every tool of `input` (all four providers unless `providers` says otherwise). */
export function providerFindings(input: DoctorInput, providers: readonly Provider[] = PROVIDERS): Finding[] {
  const findings: Finding[] = [];
  for (const raw of input.lists.tools?.items ?? []) {
    // A tool without a name is the lint's finding; there is nothing to call it by here.
    if (!isObj(raw) || typeof raw.name !== 'string') continue;
    for (const provider of providers) {
      const profile = PROFILES[provider];
      const context: Context = { tool: raw.name, profile, analysis: providerAnalysis(provider, raw.inputSchema) };
      const drafts = [...nameDrafts(context), ...schemaDrafts(context), ...otherDrafts(context, raw)];
      for (const d of drafts) findings.push({ ...d, about: { kind: 'tool', name: raw.name }, provider, cleaned: context.analysis.schema });
    }
  }
  return findings;
}
