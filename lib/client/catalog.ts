/**
 * Resources, resource templates and prompts as Loupe keeps them once read from the server's lists
 * (the reading is in app/_stores/list-specs.ts); the components that show them take these same shapes.
 */
import type { IconView } from '../content/icons.ts';

export interface ResourceEntry {
  uri: string;
  name?: string;
  title?: string;
  mimeType?: string;
  description?: string;
  size?: number;
  icons: IconView[];
}

export interface TemplateEntry {
  uriTemplate: string;
  name?: string;
  title?: string;
  mimeType?: string;
  description?: string;
  icons: IconView[];
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required: boolean;
}

export interface PromptEntry {
  name: string;
  title?: string;
  description?: string;
  arguments: PromptArgument[];
  icons: IconView[];
}
