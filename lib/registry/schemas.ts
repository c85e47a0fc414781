/**
 * Loupe's own JSON Schemas (draft-07) for an MCP Registry `server.json`, written for Loupe from the
 * registry's documented format. They are not a copy of the registry's published schema files: the
 * layout, the `$defs` and their names are Loupe's, and they check what Loupe reads and launches
 * (see entry.ts and launch.ts), no more.
 *
 * Versions covered, by the `$schema` URL a file names:
 * - 2025-12-11 (current): a remote may declare `variables` for `{name}`s in its URL, and every
 *   transport URL (a package's or a remote's) must start with http:// or https:// and hold no
 *   whitespace (a pattern, since a URL with `{name}`s in it is not yet a valid URI).
 * - 2025-10-17: remotes have no `variables`; a remote's URL must be a full URI; a package's
 *   transport URL is only required to be a string.
 * Everything else is the same in both.
 *
 * validate.ts relies on this shape: a choice between kinds (a transport, an argument, a remote) is
 * an `anyOf` of `$ref`s whose targets each list their `type` in `properties.type.enum`, and a
 * positional argument's "valueHint or value" is an `anyOf` of single `required`s.
 */

export type JsonSchema = Record<string, unknown>;

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/** The `$schema` URL a file names for a version. */
export const schemaUrl = (version: string): string => `https://static.modelcontextprotocol.io/schemas/${version}/server.schema.json`;

/** Where a version's schema is registered in Ajv (Loupe's, so never mistaken for the registry's). */
export const schemaId = (version: string): string => `urn:loupe:server-json:${version}`;

const text = { type: 'string' } as const;
const flag = { type: 'boolean' } as const;
const uri = { type: 'string', format: 'uri' } as const;
const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
const listOf = (name: string) => ({ type: 'array', items: ref(name) });
/** A kind picked by its `type`: validate.ts reads the allowed values from here. */
const kind = (type: string) => ({ type: 'string', enum: [type] });

/** What every configurable value may say of itself (an argument, a variable, a header, an env var). */
const valueFields = {
  description: text,
  isRequired: flag,
  isSecret: flag,
  format: { type: 'string', enum: ['string', 'number', 'boolean', 'filepath'] },
  value: text,
  default: text,
  placeholder: text,
  choices: { type: 'array', items: text },
};

/** A fixed `value` may hold `{name}`s, each described in `variables`. */
const templatedFields = {
  ...valueFields,
  variables: { type: 'object', additionalProperties: ref('variable') },
};

interface VersionRules {
  version: string;
  /** How a remote's URL is checked. */
  remoteUrl: JsonSchema;
  /** How a package transport's URL is checked. */
  packageUrl: JsonSchema;
  remoteVariables: boolean;
}

const httpUrl = { type: 'string', pattern: '^https?://\\S+$' };

/** The parts a package or remote is made of (`$defs`): the same in both versions but for URLs and remote variables. */
function definitions(rules: VersionRules): JsonSchema {
  const http = (type: string, url: JsonSchema, variables: boolean): JsonSchema => ({
    type: 'object',
    required: ['type', 'url'],
    properties: {
      type: kind(type),
      url,
      headers: listOf('namedValue'),
      ...(variables ? { variables: { type: 'object', additionalProperties: ref('variable') } } : {}),
    },
  });
  return {
    repository: {
      type: 'object',
      required: ['url', 'source'],
      properties: { url: uri, source: text, subfolder: text, id: text },
    },
    icon: {
      type: 'object',
      required: ['src'],
      properties: {
        src: { ...uri, maxLength: 255 },
        mimeType: { type: 'string', enum: ['image/png', 'image/jpeg', 'image/jpg', 'image/svg+xml', 'image/webp'] },
        sizes: { type: 'array', items: { type: 'string', pattern: '^(any|[0-9]+x[0-9]+)$' } },
        theme: { type: 'string', enum: ['light', 'dark'] },
      },
    },
    variable: { type: 'object', properties: valueFields },
    namedValue: {
      type: 'object',
      required: ['name'],
      properties: { name: text, ...templatedFields },
    },
    positional: {
      type: 'object',
      required: ['type'],
      properties: { type: kind('positional'), valueHint: text, isRepeated: flag, ...templatedFields },
      anyOf: [{ required: ['valueHint'] }, { required: ['value'] }],
    },
    named: {
      type: 'object',
      required: ['type', 'name'],
      properties: { type: kind('named'), name: text, isRepeated: flag, ...templatedFields },
    },
    argument: { anyOf: [ref('positional'), ref('named')] },
    stdio: { type: 'object', required: ['type'], properties: { type: kind('stdio') } },
    packageStreamableHttp: http('streamable-http', rules.packageUrl, false),
    packageSse: http('sse', rules.packageUrl, false),
    package: {
      type: 'object',
      required: ['registryType', 'identifier', 'transport'],
      properties: {
        registryType: text,
        registryBaseUrl: uri,
        identifier: { type: 'string', minLength: 1 },
        // A pinned version: "latest" is not one.
        version: { type: 'string', minLength: 1, not: { const: 'latest' } },
        fileSha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        runtimeHint: text,
        transport: { anyOf: [ref('stdio'), ref('packageStreamableHttp'), ref('packageSse')] },
        runtimeArguments: listOf('argument'),
        packageArguments: listOf('argument'),
        environmentVariables: listOf('namedValue'),
      },
    },
    remoteStreamableHttp: http('streamable-http', rules.remoteUrl, rules.remoteVariables),
    remoteSse: http('sse', rules.remoteUrl, rules.remoteVariables),
    remote: { anyOf: [ref('remoteStreamableHttp'), ref('remoteSse')] },
  };
}

function serverJsonSchema(rules: VersionRules): JsonSchema {
  return {
    $schema: DRAFT_07,
    $id: schemaId(rules.version),
    title: `server.json, MCP Registry format ${rules.version} (Loupe's description)`,
    type: 'object',
    required: ['name', 'description', 'version'],
    properties: {
      $schema: uri,
      // Reverse-DNS namespace, a slash, then the server's own name.
      name: { type: 'string', minLength: 3, maxLength: 200, pattern: '^[A-Za-z0-9.-]+/[A-Za-z0-9._-]+$' },
      description: { type: 'string', minLength: 1, maxLength: 100 },
      title: { type: 'string', minLength: 1, maxLength: 100 },
      version: { type: 'string', minLength: 1, maxLength: 255 },
      websiteUrl: uri,
      repository: ref('repository'),
      icons: listOf('icon'),
      packages: listOf('package'),
      remotes: listOf('remote'),
      _meta: { type: 'object' },
    },
    $defs: definitions(rules),
  };
}

export interface SchemaVersion {
  version: string;
  /** The `$schema` URL that names this version in a file. */
  url: string;
  /** The schema's `$id` in Ajv. */
  id: string;
  schema: JsonSchema;
}

/** Newest first: the first is the current version. */
export const SCHEMA_VERSIONS: readonly SchemaVersion[] = [
  { version: '2025-12-11', remoteUrl: httpUrl, packageUrl: httpUrl, remoteVariables: true },
  { version: '2025-10-17', remoteUrl: uri, packageUrl: text, remoteVariables: false },
].map((rules) => ({ version: rules.version, url: schemaUrl(rules.version), id: schemaId(rules.version), schema: serverJsonSchema(rules) }));
