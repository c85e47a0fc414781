import { describe, expect, it } from 'vitest';
import { boundText, maskBody, maskByPattern, maskForm, maskHeaders, maskJson, maskSecret, maskUrl, maskValues, SECRET_FIELDS } from './mask.ts';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.payload.signature';

describe('maskHeaders', () => {
  it('masks Authorization keeping its scheme, and says how long the value was', () => {
    const out = maskHeaders({ Authorization: `Bearer ${TOKEN}` });
    expect(out.authorization).toBe(`Bearer •••• (${TOKEN.length} chars, secret)`);
    expect(JSON.stringify(out)).not.toContain(TOKEN);
  });

  it('masks Basic client authentication (client_secret_basic)', () => {
    const basic = Buffer.from('loupe-test-client:loupe-test-secret').toString('base64');
    const out = maskHeaders([['authorization', `Basic ${basic}`]]);
    expect(out.authorization).toBe(`Basic •••• (${basic.length} chars, secret)`);
  });

  it('masks Proxy-Authorization, Cookie and Set-Cookie whole', () => {
    const out = maskHeaders({ 'Proxy-Authorization': 'Basic abc', Cookie: 'sid=s3cr3t; theme=dark', 'Set-Cookie': 'sid=s3cr3t; HttpOnly' });
    expect(out['proxy-authorization']).toBe('Basic •••• (3 chars, secret)');
    expect(out.cookie).toBe(maskSecret('sid=s3cr3t; theme=dark'));
    expect(out['set-cookie']).toBe(maskSecret('sid=s3cr3t; HttpOnly'));
  });

  it('masks any header whose name looks like a credential', () => {
    const out = maskHeaders({ 'X-Auth-Token': 'aaaa', 'X-Client-Secret': 'bbbb', 'X-Api-Key': 'cccc', 'My-Apikey': 'dddd', 'X-Password': 'eeee', 'X-Credential': 'ffff', 'X-Signature': 'gggg' });
    for (const value of Object.values(out)) expect(value).toBe(maskSecret('aaaa'));
  });

  it('keeps ordinary headers, including the WWW-Authenticate challenge a person must read', () => {
    const challenge = 'Bearer resource_metadata="http://127.0.0.1:1/.well-known/oauth-protected-resource/mcp", scope="read"';
    const out = maskHeaders(new Headers({ 'Content-Type': 'application/json', 'WWW-Authenticate': challenge, 'Mcp-Session-Id': 'abc' }));
    expect(out).toEqual({ 'content-type': 'application/json', 'www-authenticate': challenge, 'mcp-session-id': 'abc' });
  });

  it('masks headers the user marked secret, whatever their names', () => {
    expect(maskHeaders({ 'X-Tenant': 'acme-secret-tenant' }, ['x-tenant'])['x-tenant']).toBe(maskSecret('acme-secret-tenant'));
    expect(maskHeaders({ 'X-Tenant': 'acme' })['x-tenant']).toBe('acme');
  });

  it('masks the code in a Location header (a redirect to the callback carries it)', () => {
    const out = maskHeaders({ Location: 'http://127.0.0.1:6280/oauth/callback?code=abcdef123&state=xyz' });
    expect(out.location).toBe(`http://127.0.0.1:6280/oauth/callback?code=${maskSecret('abcdef123')}&state=xyz`);
  });
});

describe('maskForm', () => {
  it('masks every secret field of a form body and keeps the rest as written', () => {
    const body = 'grant_type=authorization_code&code=C0DE&code_verifier=V3R1F13R&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&client_id=loupe&client_secret=s%2Bcret';
    expect(maskForm(body)).toBe(
      `grant_type=authorization_code&code=${maskSecret('C0DE')}&code_verifier=${maskSecret('V3R1F13R')}&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&client_id=loupe&client_secret=${maskSecret('s+cret')}`,
    );
  });

  it.each([...SECRET_FIELDS])('masks %s in a form body', (field) => {
    expect(maskForm(`a=1&${field}=value123`)).toBe(`a=1&${field}=${maskSecret('value123')}`);
  });

  it('counts the decoded length (+ is a space, %XX a byte)', () => {
    expect(maskForm('password=a+b%21')).toBe(`password=${maskSecret('a b!')}`);
  });

  it('leaves fields that only contain a secret word alone (code_challenge is public)', () => {
    expect(maskForm('code_challenge=abc&code_challenge_method=S256&state=s')).toBe('code_challenge=abc&code_challenge_method=S256&state=s');
  });
});

describe('maskJson', () => {
  it.each([...SECRET_FIELDS])('masks %s in a JSON body', (field) => {
    const masked = maskJson(JSON.stringify({ [field]: 'value123', other: 'kept' }))!;
    expect(JSON.parse(masked)).toEqual({ [field]: maskSecret('value123'), other: 'kept' });
  });

  it('masks nested fields and fields in arrays', () => {
    const masked = maskJson(JSON.stringify({ a: { b: [{ refresh_token: 'RRRRRRRR' }] } }))!;
    expect(masked).not.toContain('RRRRRRRR');
    expect(JSON.parse(masked)).toEqual({ a: { b: [{ refresh_token: maskSecret('RRRRRRRR') }] } });
  });

  it('returns the text unchanged when nothing is secret, and undefined when it is not JSON', () => {
    const text = '{ "issuer" : "http://x" }';
    expect(maskJson(text)).toBe(text);
    expect(maskJson('<html>')).toBeUndefined();
  });

  it('keeps a JSON-RPC error code (a number) as it is', () => {
    const text = '{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"bad"}}';
    expect(maskJson(text)).toBe(text);
  });

  it('keeps a pretty-printed body pretty', () => {
    expect(maskJson('{\n  "access_token": "abcdefgh"\n}')).toBe(`{\n  "access_token": "${maskSecret('abcdefgh')}"\n}`);
  });
});

describe('maskBody', () => {
  it('goes by the content type for forms', () => {
    expect(maskBody('code=abc', 'application/x-www-form-urlencoded;charset=UTF-8')).toBe(`code=${maskSecret('abc')}`);
  });

  it('goes by the content type or the look for JSON', () => {
    expect(maskBody('{"client_secret":"xyz"}', 'application/json')).toBe(`{"client_secret":"${maskSecret('xyz')}"}`);
    expect(maskBody('  {"client_secret":"xyz"}')).toBe(`{"client_secret":"${maskSecret('xyz')}"}`);
  });

  it('masks by pattern what does not parse: a body cut short, a page with a link', () => {
    expect(maskBody('{"access_token":"abcdefgh","token_type":"Bea', 'application/json')).toBe(`{"access_token":"${maskSecret('abcdefgh')}","token_type":"Bea`);
    expect(maskBody('<a href="http://x/cb?code=QQQ&amp;state=1">back</a>', 'text/html')).toBe(`<a href="http://x/cb?code=${maskSecret('QQQ')}&amp;state=1">back</a>`);
  });

  it('masks an event stream by pattern', () => {
    expect(maskBody('event: message\ndata: {"id_token":"IIIIIIII"}\n\n', 'text/event-stream')).toBe(`event: message\ndata: {"id_token":"${maskSecret('IIIIIIII')}"}\n\n`);
  });
});

describe('maskByPattern', () => {
  it('does not touch words that merely contain a field name', () => {
    expect(maskByPattern('postcode=123 barcode="x" "zipcode": "y"')).toBe('postcode=123 barcode="x" "zipcode": "y"');
  });
});

describe('maskUrl', () => {
  it('masks secret fields in the query and the fragment, and nothing else', () => {
    expect(maskUrl('https://as/authorize?client_id=c&code_challenge=abc&state=s')).toBe('https://as/authorize?client_id=c&code_challenge=abc&state=s');
    expect(maskUrl('http://cb/?state=s#access_token=TTTT&token_type=bearer')).toBe(`http://cb/?state=s#access_token=${maskSecret('TTTT')}&token_type=bearer`);
    expect(maskUrl('http://cb/path')).toBe('http://cb/path');
  });
});

describe('maskValues', () => {
  it('masks known secret values wherever they appear', () => {
    expect(maskValues(`echo: ${TOKEN}!`, [TOKEN])).toBe(`echo: ${maskSecret(TOKEN)}!`);
  });

  it('ignores values too short to be secrets (they would mask innocent text)', () => {
    expect(maskValues('a b c', ['a'])).toBe('a b c');
  });
});

describe('boundText', () => {
  it('keeps short text and says how much of a long one was left out', () => {
    expect(boundText('abc', 5)).toBe('abc');
    expect(boundText('abcdefgh', 5)).toBe('abcde… (3 more characters not shown)');
  });
});
