/**
 * Resource templates (RFC 6570 URI templates, spec: server/resources#resource-templates): which
 * variables a template has, and the URI for the values the user typed. The SDK's own UriTemplate
 * does the work, so Loupe expands a template exactly as a TypeScript server matches it.
 */
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';

export type ParsedTemplate = { ok: true; variables: string[] } | { ok: false; error: string };

/** The variable names of a template, in order, each once; an unparsable template is a value. */
export function templateVariables(template: string): ParsedTemplate {
  try {
    const names = new UriTemplate(template).variableNames;
    return { ok: true, variables: [...new Set(names)] };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Expand a template. Empty values are left out (RFC 6570: undefined), so `{?q}` disappears rather
 * than becoming `?q=`. Never throws: a failure is a value.
 */
export function expandTemplate(template: string, values: Readonly<Record<string, string>>): { ok: true; uri: string } | { ok: false; error: string } {
  try {
    const variables: Record<string, string> = {};
    for (const [name, value] of Object.entries(values)) if (value !== '') variables[name] = value;
    return { ok: true, uri: new UriTemplate(template).expand(variables) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
