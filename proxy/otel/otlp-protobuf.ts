/**
 * An OTLP/HTTP protobuf body (`ExportTraceServiceRequest`, opentelemetry-proto
 * `collector/trace/v1/trace_service.proto`) read into the OTLP JSON shape, which
 * lib/otel/otlp-json.ts reads into spans: one reader of spans for both encodings.
 *
 * The wire format is read with the OpenTelemetry transformer's own `ProtobufReader` (the package
 * ships that reader, which its exporters use for the collector's answers, but no decoder of export
 * requests, nor the .proto files protobufjs would need). The field numbers below are the .proto's.
 * 64-bit fixed fields (times, doubles) are read here: the reader has no method for them.
 */
import { ProtobufReader } from '@opentelemetry/otlp-transformer/build/src/common/protobuf/protobuf-reader.js';

type Json = Record<string, unknown>;
const VARINT = 0;
const FIXED64 = 1;
const LENGTH = 2;
const FIXED32 = 5;

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

function fixed64(reader: ProtobufReader, buf: Uint8Array): DataView {
  if (reader.pos + 8 > buf.length) throw new Error('truncated fixed64');
  const view = new DataView(buf.buffer, buf.byteOffset + reader.pos, 8);
  reader.pos += 8;
  return view;
}

const nanos = (view: DataView) => view.getBigUint64(0, true).toString();

/** Reads each field of a message: `on` returns false for a field it does not take, which is skipped. */
function fields(buf: Uint8Array, on: (field: number, wire: number, reader: ProtobufReader) => boolean): void {
  const reader = new ProtobufReader(buf);
  while (!reader.isAtEnd()) {
    const { fieldNumber, wireType } = reader.readTag();
    if (!on(fieldNumber, wireType, reader)) reader.skip(wireType);
  }
}

function anyValue(buf: Uint8Array, depth: number): Json {
  let out: Json = {};
  fields(buf, (field, wire, r) => {
    if (field === 1 && wire === LENGTH) out = { stringValue: r.readString() };
    else if (field === 2 && wire === VARINT) out = { boolValue: r.readVarint() !== 0 };
    else if (field === 3 && wire === VARINT) out = { intValue: String(r.readVarint()) };
    else if (field === 4 && wire === FIXED64) out = { doubleValue: fixed64(r, buf).getFloat64(0, true) };
    else if (field === 5 && wire === LENGTH && depth < 8) {
      const values: Json[] = [];
      fields(r.readBytes(), (f, w, inner) => (f === 1 && w === LENGTH ? (values.push(anyValue(inner.readBytes(), depth + 1)), true) : false));
      out = { arrayValue: { values } };
    } else return false;
    return true;
  });
  return out;
}

function keyValue(buf: Uint8Array): Json {
  const kv: Json = {};
  fields(buf, (field, wire, r) => {
    if (field === 1 && wire === LENGTH) kv.key = r.readString();
    else if (field === 2 && wire === LENGTH) kv.value = anyValue(r.readBytes(), 0);
    else return false;
    return true;
  });
  return kv;
}

function event(buf: Uint8Array): Json {
  const e: Json = { attributes: [] };
  fields(buf, (field, wire, r) => {
    if (field === 1 && wire === FIXED64) e.timeUnixNano = nanos(fixed64(r, buf));
    else if (field === 2 && wire === LENGTH) e.name = r.readString();
    else if (field === 3 && wire === LENGTH) (e.attributes as Json[]).push(keyValue(r.readBytes()));
    else return false;
    return true;
  });
  return e;
}

function status(buf: Uint8Array): Json {
  const s: Json = {};
  fields(buf, (field, wire, r) => {
    if (field === 2 && wire === LENGTH) s.message = r.readString();
    else if (field === 3 && wire === VARINT) s.code = r.readVarint();
    else return false;
    return true;
  });
  return s;
}

function span(buf: Uint8Array): Json {
  const s: Json = { attributes: [], events: [] };
  fields(buf, (field, wire, r) => {
    if (wire === LENGTH && (field === 1 || field === 2 || field === 4)) s[field === 1 ? 'traceId' : field === 2 ? 'spanId' : 'parentSpanId'] = hex(r.readBytes());
    else if (field === 3 && wire === LENGTH) s.traceState = r.readString();
    else if (field === 5 && wire === LENGTH) s.name = r.readString();
    else if (field === 6 && wire === VARINT) s.kind = r.readVarint();
    else if ((field === 7 || field === 8) && wire === FIXED64) s[field === 7 ? 'startTimeUnixNano' : 'endTimeUnixNano'] = nanos(fixed64(r, buf));
    else if (field === 9 && wire === LENGTH) (s.attributes as Json[]).push(keyValue(r.readBytes()));
    else if (field === 11 && wire === LENGTH) (s.events as Json[]).push(event(r.readBytes()));
    else if (field === 15 && wire === LENGTH) s.status = status(r.readBytes());
    else if (field === 16 && wire === FIXED32) r.pos += 4;
    else return false;
    return true;
  });
  return s;
}

function attributesOf(buf: Uint8Array, field: number): Json[] {
  const list: Json[] = [];
  fields(buf, (f, w, r) => (f === field && w === LENGTH ? (list.push(keyValue(r.readBytes())), true) : false));
  return list;
}

function scopeSpans(buf: Uint8Array): Json {
  const out: Json = { spans: [] };
  fields(buf, (field, wire, r) => {
    if (field === 1 && wire === LENGTH) {
      const scope: Json = {};
      fields(r.readBytes(), (f, w, inner) => (f === 1 && w === LENGTH ? ((scope.name = inner.readString()), true) : false));
      out.scope = scope;
    } else if (field === 2 && wire === LENGTH) (out.spans as Json[]).push(span(r.readBytes()));
    else return false;
    return true;
  });
  return out;
}

/** The body as OTLP JSON, or a sentence saying why it is not an export request. */
export function decodeTraceRequest(body: Uint8Array): { ok: true; value: Json } | { ok: false; error: string } {
  try {
    const resourceSpans: Json[] = [];
    fields(body, (field, wire, r) => {
      if (field !== 1 || wire !== LENGTH) return false;
      const group: Json = { scopeSpans: [] };
      fields(r.readBytes(), (f, w, inner) => {
        if (f === 1 && w === LENGTH) group.resource = { attributes: attributesOf(inner.readBytes(), 1) };
        else if (f === 2 && w === LENGTH) (group.scopeSpans as Json[]).push(scopeSpans(inner.readBytes()));
        else return false;
        return true;
      });
      resourceSpans.push(group);
      return true;
    });
    return { ok: true, value: { resourceSpans } };
  } catch (error) {
    return { ok: false, error: `The body is not an OTLP protobuf export request (${error instanceof Error ? error.message : String(error)}).` };
  }
}
