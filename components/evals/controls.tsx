/**
 * What the Evals run with and what can be done with them (issue 27): the models (the Playground's
 * own, set up above, and those the eval file names, each ticked to run), a model word to add, the
 * repeat count, and Run evals / Stop evals / Add case / Open eval file / Export eval file / Save
 * evals in workspace. Every decision (can Run go, what is offered) is the container's.
 */
import { useId, useRef, useState, type ReactNode } from 'react';
import { Note, buttonClass, inputClass, labelClass, primaryButtonClass } from '../ui/ui.tsx';

export interface OfferedModel {
  word: string;
  /** `the Playground's model`, `the second model`, or `the eval file`. */
  from: string;
}

export interface EvalControlsProps {
  offered: readonly OfferedModel[];
  chosen: readonly string[];
  repeats: number;
  running: boolean;
  /** Why Run evals cannot go, in words. */
  runProblem?: string;
  problem?: string;
  note?: string;
  /** `Running: 3 of 8 runs done.` or the last run's summary. */
  status?: string;
  onChoose(word: string, on: boolean): void;
  /** Why the word was not added, in words. */
  onAddModel(word: string): string | undefined;
  onRemoveModel(word: string): void;
  onRepeats(n: number): void;
  onRun(): void;
  onStop(): void;
  onAddCase(): void;
  onOpen(name: string, text: string): void;
  onExport(): void;
  onSave(): void;
}

function Models(props: EvalControlsProps): ReactNode {
  const id = useId();
  const [word, setWord] = useState('');
  const [error, setError] = useState<string | undefined>();
  const add = () => {
    const why = props.onAddModel(word);
    setError(why);
    if (why === undefined) setWord('');
  };
  return (
    <fieldset className="space-y-1">
      <legend className={labelClass}>Models to run</legend>
      {props.offered.length === 0 && <Note>No model yet: set one up in the Playground settings above, or add a model word below.</Note>}
      {props.offered.map((m) => (
        <div key={m.word} className="flex flex-wrap items-center gap-2 text-sm">
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={props.chosen.includes(m.word)} onChange={(e) => props.onChoose(m.word, e.target.checked)} />
            <span className="break-all font-mono text-xs">{m.word}</span>
          </label>
          <span className="text-xs text-zinc-600 dark:text-zinc-300">{m.from}</span>
          {m.from === 'the eval file' && (
            <button type="button" className="text-xs underline" onClick={() => props.onRemoveModel(m.word)}>Remove model {m.word}</button>
          )}
        </div>
      ))}
      <div className="flex flex-wrap items-end gap-2 pt-1">
        <div className="min-w-64 flex-1">
          <label className={labelClass} htmlFor={`${id}-word`}>Model to add</label>
          <input id={`${id}-word`} className={inputClass} value={word} spellCheck={false} placeholder="openai-compatible:http://127.0.0.1:11434/v1#llama3.1" onChange={(e) => setWord(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && add()} aria-describedby={`${id}-word-note`} />
        </div>
        <button type="button" className={buttonClass} disabled={word.trim() === ''} onClick={add}>Add model</button>
      </div>
      <p id={`${id}-word-note`} className="text-xs text-zinc-600 dark:text-zinc-300">
        {error ? <span className="text-red-700 dark:text-red-300">{error}</span> : 'anthropic:MODEL, openai:MODEL or openai-compatible:URL#MODEL; its key is the one the Playground uses for that endpoint.'}
      </p>
    </fieldset>
  );
}

function Actions(props: EvalControlsProps): ReactNode {
  const id = useId();
  const file = useRef<HTMLInputElement>(null);
  return (
    <div className="flex flex-wrap items-end gap-2">
      <div>
        <label className={labelClass} htmlFor={`${id}-repeats`}>Repeats</label>
        <input
          id={`${id}-repeats`}
          type="number"
          min={1}
          max={100}
          className={`${inputClass} w-20`}
          value={props.repeats}
          onChange={(e) => props.onRepeats(Math.trunc(Number(e.target.value)))}
        />
      </div>
      <button type="button" className={primaryButtonClass} disabled={props.runProblem !== undefined} onClick={props.onRun}>Run evals</button>
      {props.running && <button type="button" className={buttonClass} onClick={props.onStop}>Stop evals</button>}
      <button type="button" className={buttonClass} disabled={props.running} onClick={props.onAddCase}>Add case</button>
      <button type="button" className={buttonClass} disabled={props.running} onClick={() => file.current?.click()}>Open eval file</button>
      <button type="button" className={buttonClass} onClick={props.onExport}>Export eval file</button>
      <button type="button" className={buttonClass} disabled={props.running} onClick={props.onSave}>Save evals in workspace</button>
      <input
        ref={file}
        type="file"
        accept="application/json,.json,.jsonc"
        className="hidden"
        aria-label="Eval file to open"
        onChange={(e) => {
          const chosen = e.target.files?.[0];
          e.target.value = '';
          if (chosen) void chosen.text().then((content) => props.onOpen(chosen.name, content));
        }}
      />
    </div>
  );
}

export function EvalControls(props: EvalControlsProps): ReactNode {
  return (
    <div className="space-y-3">
      <Models {...props} />
      <Actions {...props} />
      {props.runProblem && !props.running && <Note tone="warn">{props.runProblem}</Note>}
      {props.problem && <Note tone="bad">{props.problem}</Note>}
      {props.note && <Note>{props.note}</Note>}
      <p role="status" className="text-sm text-zinc-700 dark:text-zinc-200">{props.status ?? ''}</p>
    </div>
  );
}
