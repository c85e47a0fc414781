import { describe, expect, it } from 'vitest';
import { isAllowedHost, isAllowedOrigin, isLoopbackAddress, newToken, tokenMatches } from './security.ts';

const policy = { port: 6280 };

describe('security checks', () => {
  it('makes long random tokens and compares them exactly', () => {
    const t = newToken();
    expect(t.length).toBeGreaterThanOrEqual(32);
    expect(newToken()).not.toBe(t);
    expect(tokenMatches(t, t)).toBe(true);
    expect(tokenMatches(t, t.slice(1))).toBe(false);
    expect(tokenMatches(t, null)).toBe(false);
    expect(tokenMatches(t, '')).toBe(false);
  });

  it('accepts only loopback Host headers on our port', () => {
    expect(isAllowedHost('127.0.0.1:6280', policy)).toBe(true);
    expect(isAllowedHost('localhost:6280', policy)).toBe(true);
    expect(isAllowedHost('[::1]:6280', policy)).toBe(true);
    expect(isAllowedHost('evil.example', policy)).toBe(false);
    expect(isAllowedHost('evil.example:6280', policy)).toBe(false);
    expect(isAllowedHost('127.0.0.1:9999', policy)).toBe(false);
    expect(isAllowedHost('localhost.evil.example:6280', policy)).toBe(false);
    expect(isAllowedHost(undefined, policy)).toBe(false);
    expect(isAllowedHost('192.168.1.5:6280', { port: 6280, extraHosts: ['192.168.1.5'] })).toBe(true);
  });

  it('accepts only our own origin, or none', () => {
    expect(isAllowedOrigin(undefined, policy)).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:6280', policy)).toBe(true);
    expect(isAllowedOrigin('http://localhost:6280', policy)).toBe(true);
    expect(isAllowedOrigin('http://evil.example', policy)).toBe(false);
    expect(isAllowedOrigin('null', policy)).toBe(false);
    expect(isAllowedOrigin('https://127.0.0.1:6280', policy)).toBe(false);
    expect(isAllowedOrigin('http://127.0.0.1:1234', policy)).toBe(false);
  });

  it('knows loopback addresses', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('127.1.2.3')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('0.0.0.0')).toBe(false);
  });
});
