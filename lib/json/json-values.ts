/**
 * Reading values out of untrusted JSON (a provider's reply, a server's frame) without throwing:
 * an object that is not an array, a string, a finite number, or undefined.
 */
export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
