/**
 * One provider's settings in the Playground (issue 15): Provider, Base URL, API key, Model, with
 * the second model's set labelled `Second …` when comparing. The API key field is uncontrolled
 * and emptied as soon as its text is handed on: the key is never React state, and the page keeps
 * only what the proxy answers (a reference), shown here as words about where the key comes from.
 */
import { useId, useRef, type ReactNode } from 'react';
import { buttonClass, inputClass, labelClass } from '../ui/ui.tsx';

export type ProviderChoice = 'openai-compatible' | 'anthropic';

export interface ProviderFieldsProps {
  /** `Second ` for the compared model's set, else empty. */
  prefix: '' | 'Second ';
  kind: ProviderChoice;
  baseUrl: string;
  model: string;
  /** Where the key comes from, in words (`Using OPENAI_API_KEY from Loupe's environment`). */
  keyWords: string;
  keyError?: string;
  keyPending: boolean;
  /** A typed key is in use, which Forget key lets go. */
  canForget: boolean;
  models: readonly string[];
  modelsNote?: string;
  onKind(kind: ProviderChoice): void;
  onBaseUrl(url: string): void;
  /** The endpoint's model list is being fetched. */
  listingModels: boolean;
  /** Fetch the endpoint's model list (only ever on the person's press: Loupe calls no provider by itself). */
  onListModels(): void;
  onKey(key: string): void;
  onForget(): void;
  onModel(model: string): void;
}

/** `Second provider`, `Second base URL`, `Second API key`: an acronym keeps its capitals. */
const cap = (prefix: string, word: string) => (!prefix ? word : /^[A-Z]{2}/.test(word) ? `${prefix}${word}` : `${prefix}${word.charAt(0).toLowerCase()}${word.slice(1)}`);

type KeyFieldProps = Pick<ProviderFieldsProps, 'prefix' | 'keyWords' | 'keyError' | 'keyPending' | 'canForget' | 'onKey' | 'onForget'> & { base: string };

/** The API key field: uncontrolled, its text handed on (on leaving it, or Enter) and the field emptied at once. */
function KeyField(props: KeyFieldProps): ReactNode {
  const { base: id, prefix } = props;
  const keyRef = useRef<HTMLInputElement>(null);
  const handOver = () => {
    const input = keyRef.current;
    if (!input || input.value.trim() === '') return;
    const key = input.value;
    // Emptied before anything else happens: the text lives in the field for no longer than needed.
    input.value = '';
    props.onKey(key);
  };
  return (
    <div>
      <label className={labelClass} htmlFor={`${id}-key`}>{cap(prefix, 'API key')}</label>
      <input
        id={`${id}-key`}
        ref={keyRef}
        type="password"
        autoComplete="off"
        className={inputClass}
        placeholder={props.keyPending ? 'Handing the key to Loupe…' : 'Paste a key (held by Loupe only)'}
        aria-describedby={`${id}-key-words`}
        onBlur={handOver}
        onKeyDown={(e) => {
          if (e.key === 'Enter') handOver();
        }}
      />
      <p id={`${id}-key-words`} className="mt-1 text-xs text-zinc-600 dark:text-zinc-300">
        {props.keyError ? <span className="text-red-700 dark:text-red-300">{props.keyError}</span> : props.keyWords}
        {props.canForget && (
          <button type="button" className="ml-2 underline" onClick={props.onForget}>
            {cap(prefix, 'Forget key')}
          </button>
        )}
      </p>
    </div>
  );
}

type ModelFieldProps = Pick<ProviderFieldsProps, 'prefix' | 'model' | 'models' | 'modelsNote' | 'listingModels' | 'onListModels' | 'onModel'> & { base: string };

/** The model: typed, or picked from the endpoint's list once `List models` has fetched it. */
function ModelField(props: ModelFieldProps): ReactNode {
  const { base: id, prefix } = props;
  return (
    <div>
      <label className={labelClass} htmlFor={`${id}-model`}>{cap(prefix, 'Model')}</label>
      <div className="flex gap-2">
        <input id={`${id}-model`} className={inputClass} value={props.model} spellCheck={false} onChange={(e) => props.onModel(e.target.value)} />
        <button type="button" className={`${buttonClass} shrink-0`} disabled={props.listingModels} onClick={props.onListModels}>
          {cap(prefix, 'List models')}
        </button>
      </div>
      {/* Not a datalist: an input with a list is a combobox, and `Model` is promised as a textbox. */}
      {props.models.length > 0 && (
        <select
          aria-label={cap(prefix, 'Models offered')}
          className={`${inputClass} mt-1`}
          value={props.models.includes(props.model) ? props.model : ''}
          onChange={(e) => {
            if (e.target.value !== '') props.onModel(e.target.value);
          }}
        >
          <option value="">Pick one of the endpoint’s models…</option>
          {props.models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      )}
      {props.modelsNote && <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-300">{props.modelsNote}</p>}
    </div>
  );
}

export function ProviderFields(props: ProviderFieldsProps): ReactNode {
  const id = useId();
  const { prefix } = props;
  return (
    <fieldset className="grid gap-2 sm:grid-cols-2">
      <legend className="sr-only">{prefix ? 'Second model’s settings' : 'Model settings'}</legend>
      <div>
        <label className={labelClass} htmlFor={`${id}-kind`}>{cap(prefix, 'Provider')}</label>
        <select id={`${id}-kind`} className={inputClass} value={props.kind} onChange={(e) => props.onKind(e.target.value as ProviderChoice)}>
          <option value="openai-compatible">OpenAI-compatible</option>
          <option value="anthropic">Anthropic</option>
        </select>
      </div>
      <div>
        <label className={labelClass} htmlFor={`${id}-url`}>{cap(prefix, 'Base URL')}</label>
        <input id={`${id}-url`} className={inputClass} value={props.baseUrl} spellCheck={false} onChange={(e) => props.onBaseUrl(e.target.value)} />
      </div>
      <KeyField base={id} {...props} />
      <ModelField base={id} {...props} />
    </fieldset>
  );
}

/** A small secondary button, as the Playground's toolbar uses. */
export function SmallButton({ children, onClick, disabled }: { children: ReactNode; onClick(): void; disabled?: boolean }): ReactNode {
  return (
    <button type="button" className={buttonClass} onClick={onClick} disabled={disabled}>
      {children}
    </button>
  );
}
