import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

/**
 * ESPHome's api.proto (vendored in ./proto/ from the copy @2colors/esphome-native-api ships,
 * unchanged), loaded with protobufjs. Each message's wire type id is its `option (id)`; the map
 * both ways is read from the file, so a newer api.proto is a file copy, not a code change.
 *
 * Resolved from the package root so the same path works from src/ (tests) and dist/ (installed).
 */
const PROTO = fileURLToPath(new URL('../../../src/ha/satellite/proto/api.proto', import.meta.url));

export type Msg = Record<string, unknown>;

export interface ApiProto {
  /** The wire id of a message name; throws for a name api.proto does not have. */
  idOf(name: string): number;
  /** The message name of a wire id, or null for an id api.proto does not have. */
  nameOf(id: number): string | null;
  encode(name: string, fields: Msg): Uint8Array;
  /** Decodes a payload; throws (protobufjs's message) on bytes that are not that message. */
  decode(id: number, bytes: Uint8Array): { name: string; msg: Msg };
}

let cached: ApiProto | null = null;

export function apiProto(): ApiProto {
  if (cached) return cached;
  const root = new protobuf.Root();
  // api_options.proto imports descriptor.proto for its custom options; protobufjs ships that file.
  const descriptor = createRequire(import.meta.url).resolve('protobufjs/google/protobuf/descriptor.proto');
  root.resolvePath = (origin, target) => (target === 'google/protobuf/descriptor.proto' ? descriptor : protobuf.util.path.resolve(origin, target));
  root.loadSync(PROTO);
  root.resolveAll();
  const byId = new Map<number, protobuf.Type>();
  const byName = new Map<string, number>();
  for (const t of Object.values(root.nested ?? {})) {
    if (!(t instanceof protobuf.Type)) continue;
    const id = t.options?.['(id)'] as number | undefined;
    if (!id) continue;
    byId.set(id, t);
    byName.set(t.name, id);
  }
  cached = {
    idOf(name) {
      const id = byName.get(name);
      if (id === undefined) throw new Error(`api.proto has no message ${name}`);
      return id;
    },
    nameOf: (id) => byId.get(id)?.name ?? null,
    encode(name, fields) {
      const t = byId.get(this.idOf(name))!;
      const err = t.verify(fields);
      if (err) throw new Error(`${name}: ${err}`);
      return t.encode(t.fromObject(fields)).finish();
    },
    decode(id, bytes) {
      const t = byId.get(id);
      if (!t) throw new Error(`unknown message type ${id}`);
      const m = t.decode(bytes);
      return { name: t.name, msg: t.toObject(m, { longs: Number, enums: Number, defaults: true, bytes: Buffer }) as Msg };
    },
  };
  return cached;
}
