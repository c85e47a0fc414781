import * as sdk from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, isModernVersion, LOG_LEVEL_KEY, MODERN_VERSION, PROTOCOL_VERSION_KEY, SERVER_INFO_KEY } from './modern-meta.ts';

describe('the 2026-07-28 vocabulary', () => {
  it('is the v2 SDK’s', () => {
    expect([PROTOCOL_VERSION_KEY, CLIENT_INFO_KEY, CLIENT_CAPABILITIES_KEY, LOG_LEVEL_KEY, SERVER_INFO_KEY]).toEqual([
      sdk.PROTOCOL_VERSION_META_KEY,
      sdk.CLIENT_INFO_META_KEY,
      sdk.CLIENT_CAPABILITIES_META_KEY,
      sdk.LOG_LEVEL_META_KEY,
      sdk.SERVER_INFO_META_KEY,
    ]);
  });

  it('tells a modern version by its date', () => {
    expect([MODERN_VERSION, '2027-01-01', '2025-11-25', undefined].map(isModernVersion)).toEqual([true, true, false, false]);
  });
});
