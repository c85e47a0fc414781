/**
 * Collections (issue 27): saved calls grouped under a name, each with the assertions that make it a
 * test. The one shape of a collection file: the workspace file's `x-mcp-loupe.collections`, or a file
 * of its own `{ "collections": [...] }` (what `--test FILE` reads; either works). A leaf module (zod
 * only), like model/workspace-schemas.ts, so the wire can carry collections without a cycle.
 *
 * One key decides an assertion's kind (the shape a person writes by hand, and reads in a diff):
 *   { "isError": false }                                   the result is (or is not) an error
 *   { "path": "$.content[0].text", "equals": "Echo: hi" }  the value at a JSONPath equals (deeply)
 *   { "path": "$.content[0].text", "matches": "^Echo" }    … matches a regular expression
 *   { "path": "$.structuredContent.sum", "type": "number" } … has a JSON type
 *   { "path": "$.nextCursor", "exists": false }            … is there (or is not)
 *   { "outputSchema": true }                               structuredContent validates against the tool's outputSchema
 *   { "textContains": "hello" }                            some text content contains it
 *   { "durationUnderMs": 500 }                             the answer came in under N ms
 *   { "notification": "notifications/progress" }           a notification with this method came while the call ran
 *   { "refusedByRule": "no deletes" }                      an interception rule refused the call (`true`: any rule)
 * A path's `$` is the call's `result`, or its JSON-RPC `error` object when it failed: the same root
 * as `--verify --ignore` (lib/headless/verify.ts), in the same JSONPath (lib/json/json-path.ts).
 *
 * Variables: `{{name}}` in any string of `target`, `arguments` or `params`. A string that is only
 * `{{name}}` takes the variable's value with its type; inside a longer string, its text. Values come
 * from the collection's `variables`, then from earlier calls' `extract` (a JSONPath into their
 * result), then from `--var NAME=VALUE` on the command line, later ones winning.
 */
import { z } from 'zod';

const Path = z.string().min(1).startsWith('$');

export const AssertionSchema = z.union([
  z.object({ isError: z.boolean() }).strict(),
  z.object({ path: Path, equals: z.unknown() }).strict(),
  z.object({ path: Path, matches: z.string() }).strict(),
  z.object({ path: Path, type: z.enum(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']) }).strict(),
  z.object({ path: Path, exists: z.boolean() }).strict(),
  z.object({ outputSchema: z.literal(true) }).strict(),
  z.object({ textContains: z.string() }).strict(),
  z.object({ durationUnderMs: z.number().positive() }).strict(),
  z.object({ notification: z.string().min(1) }).strict(),
  z.object({ refusedByRule: z.union([z.string().min(1), z.literal(true)]) }).strict(),
]);

export const CollectionCallSchema = z.object({
  /** Unique within its collection: the test's name in reports and JUnit. */
  name: z.string().min(1).max(200),
  kind: z.enum(['tool', 'resource', 'prompt', 'request']),
  /** Tool name, resource URI or prompt name; for `request`, the JSON-RPC method. */
  target: z.string().min(1),
  /** Tool or prompt arguments. */
  arguments: z.record(z.string(), z.unknown()).optional(),
  /** A raw request's params (`kind: "request"` only). */
  params: z.record(z.string(), z.unknown()).optional(),
  assert: z.array(AssertionSchema).optional(),
  /** Variables for the calls after this one: name → JSONPath into this call's result. */
  extract: z.record(z.string(), Path).optional(),
  /** Per-call timeout in ms (default: the runner's, 60 s). */
  timeoutMs: z.number().positive().optional(),
});

export const CollectionSchema = z.object({
  name: z.string().min(1).max(200),
  /** In a workspace of several servers, the server it runs against (the page's default). */
  server: z.string().optional(),
  variables: z.record(z.string(), z.unknown()).optional(),
  calls: z.array(CollectionCallSchema),
});

export const CollectionFileSchema = z.object({ collections: z.array(CollectionSchema) });

export type Assertion = z.infer<typeof AssertionSchema>;
export type CollectionCall = z.infer<typeof CollectionCallSchema>;
export type Collection = z.infer<typeof CollectionSchema>;
