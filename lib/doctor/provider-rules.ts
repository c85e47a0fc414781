/**
 * What each LLM provider accepts in a tool definition (issue 14), as data, each rule with the
 * document it comes from and the date that document was read. Providers change these rules; keeping
 * them here, apart from the code that applies them (doctor-providers.ts, provider-clean.ts), means
 * a changed document is a changed line here, and the report can say how old a rule is.
 *
 * Only what the documents say is written down. Where the documents are silent (a keyword neither
 * listed as supported nor as refused), nothing is claimed. One rule comes from the provider's own
 * error message as users report it rather than from its documentation (Anthropic's top-level
 * combinators); its source says so.
 */
import type { FindingSource } from '../model/doctor.ts';

export type Provider = 'openai-strict' | 'openai' | 'anthropic' | 'gemini';
export const PROVIDERS: readonly Provider[] = ['openai-strict', 'openai', 'anthropic', 'gemini'];

/** The day these documents were read. */
export const READ = '2026-12-01';

const doc = (label: string, url: string): FindingSource => ({ label, url, read: READ });

export const DOCS = {
  openaiReference: doc('OpenAI API reference: Chat Completions tools[].function', 'https://platform.openai.com/docs/api-reference/chat/create'),
  openaiStrictMode: doc('OpenAI function calling guide: Strict mode', 'https://developers.openai.com/api/docs/guides/function-calling#strict-mode'),
  openaiSchemas: doc('OpenAI Structured Outputs: Supported schemas', 'https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas'),
  anthropicTools: doc('Anthropic tool use: Define tools', 'https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools'),
  anthropicMessages: doc('Anthropic Messages API reference: tools[].input_schema', 'https://platform.claude.com/docs/en/api/messages'),
  anthropicTopLevel: doc(
    'Anthropic Messages API error "input_schema does not support oneOf, allOf, or anyOf at the top level" (reported by users; not in the tool-use documentation)',
    'https://github.com/anthropics/claude-code/issues/27337',
  ),
  geminiDeclaration: doc('Gemini API reference: FunctionDeclaration', 'https://ai.google.dev/api/caching#FunctionDeclaration'),
  geminiSchema: doc('Gemini API reference: Schema', 'https://ai.google.dev/api/caching#Schema'),
  vertexDeclaration: doc('Vertex AI reference: FunctionDeclaration', 'https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/FunctionDeclaration'),
} as const;

export interface NameRule {
  /** The characters allowed, one character class (no anchors, no length). */
  chars: RegExp;
  maxLength: number;
  /** The allowed characters in words, for messages. */
  words: string;
  source: FindingSource;
}

export interface ProviderProfile {
  provider: Provider;
  /** The provider in words, for messages. */
  label: string;
  name: NameRule;
  /** A rule on the first character of a name, documented for part of the provider's platforms only. */
  nameStart?: { chars: RegExp; words: string; source: FindingSource };
  /** The parameters schema must be `type: "object"`. */
  rootObject: FindingSource;
  /** Combinators refused at the top of the schema. */
  rootCombinators?: { keywords: readonly string[]; source: FindingSource };
  /**
   * A closed keyword set: `accepted` is what the document lists, `annotations` are descriptive
   * keywords Loupe does not flag; anything else is refused (`source` says where the document says
   * so). Absent: the provider takes JSON Schema and documents no subset.
   */
  keywords?: { accepted: readonly string[]; annotations: readonly string[]; source: FindingSource };
  /** Keywords the document names as not supported (a subset of what `keywords` refuses). */
  refused?: { keywords: readonly string[]; source: FindingSource };
  /** The `format` values the document lists; any other is refused. */
  formats?: { accepted: readonly string[]; source: FindingSource };
  /** Every object must say `additionalProperties: false` and require every property. */
  strictObjects?: { additionalProperties: FindingSource; required: FindingSource };
  limits?: {
    properties: number;
    depth: number;
    stringLength: number;
    enumValues: number;
    /** A string enum with more than `over` values may total at most `length` characters. */
    largeEnum: { over: number; length: number };
    source: FindingSource;
  };
  /** `$ref` / `$defs` cannot be sent: references must be inlined. */
  noRefs?: FindingSource;
  /** `type` is one type, never a list (nullability is `nullable: true`). */
  singleType?: FindingSource;
  /** `enum` holds strings only. */
  stringEnums?: FindingSource;
  /** The function's description is marked required. */
  descriptionRequired?: FindingSource;
  /** A rule on top-level parameter names, documented for part of the provider's platforms only. */
  parameterNames?: { pattern: RegExp; words: string; source: FindingSource };
  /**
   * Sent without `strict`, a schema is silently turned into a strict one by part of the API
   * (OpenAI's Responses API), which makes optional fields required.
   */
  silentStrict?: FindingSource;
}

const OPENAI_NAME: NameRule = {
  chars: /[a-zA-Z0-9_-]/,
  maxLength: 64,
  words: 'letters a-z and A-Z, digits, underscores and dashes, at most 64 characters',
  source: DOCS.openaiReference,
};

/** Descriptive keywords: they change nothing the model may send, so Loupe does not flag them. */
const ANNOTATIONS = ['$schema', '$id', '$comment', 'title', 'description', 'examples', 'deprecated', 'readOnly', 'writeOnly'] as const;

const openaiStrict: ProviderProfile = {
  provider: 'openai-strict',
  label: 'OpenAI (strict: true)',
  name: OPENAI_NAME,
  rootObject: DOCS.openaiSchemas,
  // "Root objects must not be anyOf and must be an object."
  rootCombinators: { keywords: ['anyOf', 'oneOf', 'allOf'], source: DOCS.openaiSchemas },
  keywords: {
    // "Supported types", "Supported properties", "Definitions are supported", "Recursive schemas are
    // supported"; const is counted in the documented string-size limit.
    accepted: [
      'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', '$ref', '$defs', 'definitions',
      'pattern', 'format', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'minItems', 'maxItems',
    ],
    annotations: ANNOTATIONS,
    // "If you turn on Structured Outputs by supplying strict: true and call the API with an
    // unsupported JSON Schema, you will receive an error."
    source: DOCS.openaiSchemas,
  },
  refused: { keywords: ['allOf', 'not', 'dependentRequired', 'dependentSchemas', 'if', 'then', 'else'], source: DOCS.openaiSchemas },
  formats: { accepted: ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'], source: DOCS.openaiSchemas },
  strictObjects: { additionalProperties: DOCS.openaiStrictMode, required: DOCS.openaiStrictMode },
  // "A schema may have up to 5000 object properties total, with up to 10 levels of nesting", "total
  // string length of all property names, definition names, enum values, and const values cannot
  // exceed 120,000 characters", "up to 1000 enum values across all enum properties", "For a single
  // enum property with string values, the total string length of all enum values cannot exceed
  // 15,000 characters when there are more than 250 enum values."
  limits: { properties: 5000, depth: 10, stringLength: 120_000, enumValues: 1000, largeEnum: { over: 250, length: 15_000 }, source: DOCS.openaiSchemas },
};

const openai: ProviderProfile = {
  provider: 'openai',
  label: 'OpenAI (strict: false)',
  name: OPENAI_NAME,
  // "described as a JSON Schema object"; no parameters is `{"type": "object", "properties": {}}`.
  rootObject: DOCS.openaiReference,
  // "If you omit strict, … Responses requests will normalize your schema into strict mode (for
  // example, by setting additionalProperties: false and marking all fields as required), … while
  // Chat Completions requests remain non-strict by default."
  silentStrict: DOCS.openaiStrictMode,
};

const anthropic: ProviderProfile = {
  provider: 'anthropic',
  label: 'Anthropic',
  name: { chars: /[a-zA-Z0-9_-]/, maxLength: 64, words: 'letters a-z and A-Z, digits, underscores and dashes, at most 64 characters', source: DOCS.anthropicTools },
  rootObject: DOCS.anthropicMessages,
  rootCombinators: { keywords: ['oneOf', 'allOf', 'anyOf'], source: DOCS.anthropicTopLevel },
};

const gemini: ProviderProfile = {
  provider: 'gemini',
  label: 'Gemini',
  // "Must be a-z, A-Z, 0-9, or contain underscores, colons, dots, and dashes, with a maximum length of 64."
  name: { chars: /[a-zA-Z0-9_.:-]/, maxLength: 64, words: 'letters a-z and A-Z, digits, underscores, colons, dots and dashes, at most 64 characters', source: DOCS.geminiDeclaration },
  // Vertex AI only: "Must start with a letter or an underscore."
  nameStart: { chars: /[a-zA-Z_]/, words: 'a letter or an underscore', source: DOCS.vertexDeclaration },
  rootObject: DOCS.geminiDeclaration,
  keywords: {
    // The fields of Schema, "a select subset of an OpenAPI 3.0 schema object". Unknown fields are
    // refused: `default` is listed "so that developers who send schemas with a default field don't
    // get unknown-field errors".
    accepted: [
      'type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required', 'minProperties',
      'maxProperties', 'minLength', 'maxLength', 'pattern', 'example', 'anyOf', 'propertyOrdering', 'default', 'items', 'minimum', 'maximum',
    ],
    annotations: [],
    source: DOCS.geminiSchema,
  },
  noRefs: DOCS.geminiSchema,
  // `type` is one value of the Type enum; "nullable: Indicates if the value may be null."
  singleType: DOCS.geminiSchema,
  // `enum[]`: string.
  stringEnums: DOCS.geminiSchema,
  // "description: Required. A brief description of the function." (Vertex AI marks it optional.)
  descriptionRequired: DOCS.geminiDeclaration,
  // Vertex AI only: "Parameter names must start with a letter or an underscore and must only contain
  // chars a-z, A-Z, 0-9, or underscores with a maximum length of 64."
  parameterNames: { pattern: /^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/, words: 'start with a letter or an underscore and hold only letters, digits and underscores, at most 64 characters', source: DOCS.vertexDeclaration },
};

export const PROFILES: Record<Provider, ProviderProfile> = { 'openai-strict': openaiStrict, openai, anthropic, gemini };
