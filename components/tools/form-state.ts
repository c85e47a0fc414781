/**
 * The tool form's state, in two parts: the arguments (form data, or JSON text, and switching
 * between them), and the guard before sending (validation, "send anyway", JSON fields that do not
 * parse). Hooks only; the markup is tool-form.tsx.
 */
import { useRef, useState } from 'react';
import { validationIssues, type SchemaCheck, type ValidationIssue } from '../../lib/schema/tool-schema.ts';
import type { JsonFieldContext } from './json-field.tsx';

export interface ArgumentsState {
  json: boolean;
  data: unknown;
  text: string;
  switchError?: string;
  /** Changes when the form must start over from `data` (the JSON editor handed data back, a reset). */
  epoch: number;
  setData(data: unknown): void;
  setText(text: string): void;
  /** Switch to the JSON editor (true) or back to the form (false, if the JSON parses). */
  toggle(on: boolean): void;
  reset(): void;
  /** Replace the arguments with `value` (in the form and in the JSON text). */
  fill(value: unknown): void;
}

export function useArguments(initial: unknown, startAsJson: boolean): ArgumentsState {
  const [json, setJson] = useState(startAsJson);
  const [data, setData] = useState<unknown>(initial);
  const [text, setText] = useState(() => JSON.stringify(initial ?? {}, null, 2));
  const [switchError, setSwitchError] = useState<string>();
  const [epoch, setEpoch] = useState(0);
  const toggle = (on: boolean) => {
    if (on) {
      setText(JSON.stringify(data ?? {}, null, 2));
      setJson(true);
      return;
    }
    try {
      setData(JSON.parse(text));
      setEpoch((n) => n + 1);
      setJson(false);
      setSwitchError(undefined);
    } catch {
      setSwitchError('Fix the JSON before going back to the form');
    }
  };
  const reset = () => {
    setData(undefined);
    setText('{}');
    setEpoch((n) => n + 1);
  };
  const fill = (value: unknown) => {
    setData(value);
    setText(JSON.stringify(value ?? {}, null, 2));
    setSwitchError(undefined);
    setEpoch((n) => n + 1);
  };
  return { json, data, text, switchError, epoch, setData, setText, toggle, reset, fill };
}

export interface Pending {
  args: unknown;
  issues: ValidationIssue[];
}

export interface SendGuard {
  /** Arguments that did not validate, waiting for "Send anyway". */
  pending?: Pending;
  /** Why nothing can be sent now (a JSON field that does not parse). */
  blocked?: string;
  context: JsonFieldContext;
  attempt(args: unknown, fromForm: boolean): void;
  sendAnyway(): void;
  dismiss(): void;
}

export function useSendGuard(check: SchemaCheck, onRun: (args: unknown) => void): SendGuard {
  const [pending, setPending] = useState<Pending>();
  const [blocked, setBlocked] = useState<string>();
  const [, setInvalidCount] = useState(0);
  const contextRef = useRef<JsonFieldContext>(undefined);
  contextRef.current ??= { invalidJson: new Map(), onInvalidChange: () => setInvalidCount(contextRef.current?.invalidJson.size ?? 0) };
  const context = contextRef.current;
  const attempt = (args: unknown, fromForm: boolean) => {
    if (fromForm && context.invalidJson.size > 0) {
      setBlocked(`Fix the JSON of ${[...context.invalidJson.values()].join(', ')} first`);
      return;
    }
    setBlocked(undefined);
    const issues = check.ok ? validationIssues(check, args) : [];
    setPending(issues.length === 0 ? undefined : { args, issues });
    if (issues.length === 0) onRun(args);
  };
  const sendAnyway = () => {
    if (!pending) return;
    setPending(undefined);
    onRun(pending.args);
  };
  return { pending, blocked, context, attempt, sendAnyway, dismiss: () => setPending(undefined) };
}
