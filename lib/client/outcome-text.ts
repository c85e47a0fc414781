/** Plain words for failures that arrive as values (JSON-RPC errors and Loupe's own). */
import type { LoupeError, RpcError } from '../wire/wire.ts';

export function isRpcError(error: RpcError | LoupeError): error is RpcError {
  return typeof error.code === 'number';
}

export function describeFailure(error: RpcError | LoupeError): string {
  return isRpcError(error) ? `JSON-RPC error ${error.code}: ${error.message}` : `${error.message} (${error.code})`;
}
