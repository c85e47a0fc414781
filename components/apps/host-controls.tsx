/**
 * The host context beside an MCP Apps view (issue 24): what a host would tell the view of itself
 * (display mode, theme, locale, time zone, platform, touch and hover, the container's size, the
 * safe-area insets). Each change is one patch, sent to the view as `host-context-changed`; the
 * fields show the context the proxy holds, not a copy of their own.
 */
import type { ReactNode } from 'react';
import type { DisplayMode, HostContextPatch } from '../../lib/wire/wire.ts';
import { inputClass, labelClass } from '../ui/ui.tsx';
import { useSentAhead } from '../ui/use-sent-ahead.ts';

export interface HostControlsProps {
  /** The view's host context, as the proxy holds it. */
  context: Readonly<Record<string, unknown>>;
  displayMode: DisplayMode;
  /** The modes the view declared: the others cannot be chosen. */
  viewModes: readonly DisplayMode[];
  /** Why nothing can be changed now (the view is closed), or undefined. */
  disabledReason?: string;
  onChange(patch: HostContextPatch): void;
}

export const MODE_WORDS: Record<DisplayMode, string> = { inline: 'inline', fullscreen: 'fullscreen', pip: 'picture-in-picture' };
const INSETS = ['top', 'right', 'bottom', 'left'] as const;
type Insets = Record<(typeof INSETS)[number], number>;
type Dimensions = { width?: number; height?: number };

const record = (value: unknown): Record<string, unknown> => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const stringOf = (value: unknown): string => (typeof value === 'string' ? value : '');
const numberOf = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** A number field's text as pixels: empty is undefined (flexible), anything else a whole number ≥ 0 or nothing. */
function pixels(text: string): number | undefined | null {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 ? Math.round(n) : null;
}

/**
 * A field sent when it is left or Enter is pressed (not at every key): drawn anew from `value`
 * whenever the proxy's value changes.
 */
function CommitField({ label, value, type = 'text', placeholder, disabled, onCommit }: { label: string; value: string; type?: 'text' | 'number'; placeholder?: string; disabled: boolean; onCommit(text: string): void }): ReactNode {
  const commit = (text: string) => {
    if (text !== value) onCommit(text);
  };
  return (
    <label className="block min-w-0">
      <span className={labelClass}>{label}</span>
      <input
        key={value}
        type={type}
        min={type === 'number' ? 0 : undefined}
        defaultValue={value}
        placeholder={placeholder}
        disabled={disabled}
        className={inputClass}
        onBlur={(e) => commit(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(e.currentTarget.value);
        }}
      />
    </label>
  );
}

function Choice<T extends string>({ label, value, options, disabled, onChange }: { label: string; value: string; options: ReadonlyArray<{ value: T; label: string; disabled?: boolean }>; disabled: boolean; onChange(value: T): void }): ReactNode {
  return (
    <label className="block min-w-0">
      <span className={labelClass}>{label}</span>
      <select className={inputClass} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as T)}>
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

function Check({ label, checked, disabled, onChange }: { label: string; checked: boolean; disabled: boolean; onChange(on: boolean): void }): ReactNode {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" className="size-4 accent-sky-600" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

function Size({ context, disabled, onChange }: { context: Readonly<Record<string, unknown>>; disabled: boolean; onChange(patch: HostContextPatch): void }): ReactNode {
  const dims = record(context.containerDimensions);
  const width = numberOf(dims.width);
  const height = numberOf(dims.height);
  const ahead = useSentAhead<Dimensions>({ width, height });
  const send = (next: Dimensions) => {
    ahead.sent(next);
    onChange({ containerDimensions: { ...(next.width !== undefined ? { width: next.width } : {}), ...(next.height !== undefined ? { height: next.height } : {}) } });
  };
  const field = (label: 'Width' | 'Height', value: number | undefined, key: 'width' | 'height') => (
    <CommitField
      label={label}
      type="number"
      placeholder="flexible"
      value={value === undefined ? '' : String(value)}
      disabled={disabled}
      onCommit={(text) => {
        const px = pixels(text);
        if (px !== null) send({ ...ahead.base(), [key]: px });
      }}
    />
  );
  return (
    <fieldset className="grid grid-cols-2 gap-2">
      <legend className={labelClass}>Container size (px, empty = flexible)</legend>
      {field('Width', width, 'width')}
      {field('Height', height, 'height')}
    </fieldset>
  );
}

function SafeArea({ context, disabled, onChange }: { context: Readonly<Record<string, unknown>>; disabled: boolean; onChange(patch: HostContextPatch): void }): ReactNode {
  const given = record(context.safeAreaInsets);
  const insets = Object.fromEntries(INSETS.map((side) => [side, numberOf(given[side]) ?? 0])) as Insets;
  const ahead = useSentAhead<Insets>(insets);
  return (
    <fieldset className="grid grid-cols-4 gap-2">
      <legend className={labelClass}>Safe-area insets (px)</legend>
      {INSETS.map((side) => (
        <CommitField
          key={side}
          label={side[0].toUpperCase() + side.slice(1)}
          type="number"
          value={String(insets[side])}
          disabled={disabled}
          onCommit={(text) => {
            const px = pixels(text);
            const next = { ...ahead.base(), [side]: px ?? 0 };
            ahead.sent(next);
            onChange({ safeAreaInsets: next });
          }}
        />
      ))}
    </fieldset>
  );
}

export function HostControls({ context, displayMode, viewModes, disabledReason, onChange }: HostControlsProps): ReactNode {
  const disabled = disabledReason !== undefined;
  const device = record(context.deviceCapabilities);
  const modes = (Object.keys(MODE_WORDS) as DisplayMode[]).map((mode) => ({ value: mode, label: MODE_WORDS[mode] + (viewModes.includes(mode) ? '' : ' (not declared by the view)'), disabled: !viewModes.includes(mode) }));
  return (
    <fieldset className="min-w-0 space-y-2 rounded-md border border-zinc-200 p-2 dark:border-zinc-700" title={disabledReason}>
      <legend className="px-1 text-sm font-semibold">Host context</legend>
      <div className="grid grid-cols-2 gap-2">
        <Choice label="Display mode" value={displayMode} options={modes} disabled={disabled} onChange={(mode) => onChange({ displayMode: mode })} />
        <Choice label="Theme" value={stringOf(context.theme) || 'light'} options={[{ value: 'light', label: 'light' }, { value: 'dark', label: 'dark' }]} disabled={disabled} onChange={(theme) => onChange({ theme })} />
        <CommitField label="Locale" value={stringOf(context.locale)} placeholder="en-US" disabled={disabled} onCommit={(locale) => onChange({ locale: locale.trim() })} />
        <CommitField label="Time zone" value={stringOf(context.timeZone)} placeholder="UTC" disabled={disabled} onCommit={(timeZone) => onChange({ timeZone: timeZone.trim() })} />
        <Choice label="Platform" value={stringOf(context.platform) || 'web'} options={(['web', 'desktop', 'mobile'] as const).map((p) => ({ value: p, label: p }))} disabled={disabled} onChange={(platform) => onChange({ platform })} />
        <div className="flex items-end gap-4 pb-1">
          <Check label="Touch" checked={device.touch === true} disabled={disabled} onChange={(touch) => onChange({ deviceCapabilities: { touch, hover: device.hover === true } })} />
          <Check label="Hover" checked={device.hover === true} disabled={disabled} onChange={(hover) => onChange({ deviceCapabilities: { touch: device.touch === true, hover } })} />
        </div>
      </div>
      <Size context={context} disabled={disabled} onChange={onChange} />
      <SafeArea context={context} disabled={disabled} onChange={onChange} />
    </fieldset>
  );
}
