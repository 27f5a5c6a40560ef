import type { Socket } from 'node:net';
import type { Clock } from '../../core/clock.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { Slot } from './admission.js';
import {
  encodeNoiseFrame,
  encodePlain,
  FrameError,
  handshakeRejection,
  joinNoisePayload,
  NoiseDecoder,
  PlainDecoder,
  splitNoisePayload,
  type PlainFrame,
} from './framing.js';
import { Liveness } from './liveness.js';
import { NoiseResponder } from './noise.js';
import type { ApiProto, Msg } from './proto.js';
import type { Noise } from '@richardhopton/noise-c.wasm';

/** The API version hark speaks: 1.12 is the first where an encrypted client sends no AuthenticationRequest. */
export const API_VERSION = { major: 1, minor: 12 };

/** What a connection asks of the device behind it (the satellite). */
export interface DeviceSide {
  readonly name: string;
  readonly mac: string;
  /** `encrypted`: this API has a key (every connection on it is Noise). */
  deviceInfo(o: { encrypted: boolean }): Msg;
  /** ListEntities*Response messages, in order. */
  entities(): { name: string; msg: Msg }[];
  /** The current state of each entity (on SubscribeStatesRequest). */
  states(): { name: string; msg: Msg }[];
  /** An entity command (SwitchCommandRequest …) or a voice-assistant message from Home Assistant. */
  message(conn: ApiConnection, name: string, msg: Msg): void;
  closed(conn: ApiConnection): void;
  /** Home Assistant's voice-assistant subscription lives on this connection. */
  subscribedOn(conn: ApiConnection): boolean;
}

export interface ConnectionOptions {
  proto: ApiProto;
  device: DeviceSide;
  log: Logger;
  clock: Clock;
  noise: Noise | null;
  key: Buffer | null;
  serverInfo: string;
  maxFrame: number;
  /** Message types already logged as unknown (shared by the server's connections: logged once). */
  unknownTypes: Set<number>;
  onClose?: (c: ApiConnection) => void;
}

/** Messages Home Assistant sends that hark has nothing to do with: accepted and left alone. */
const IGNORED = new Set([
  'SubscribeLogsRequest',
  'SubscribeHomeassistantServicesRequest',
  'SubscribeHomeAssistantStatesRequest',
  'GetTimeResponse',
  'SubscribeBluetoothLEAdvertisementsRequest',
  'UnsubscribeBluetoothLEAdvertisementsRequest',
  'SubscribeBluetoothConnectionsFreeRequest',
  'HomeAssistantStateResponse',
  'PingResponse',
  'DisconnectResponse',
]);

let nextId = 1;

/**
 * One client (Home Assistant) on the native API: framing (plaintext, or Noise when a key is set),
 * the connection-level messages (hello, auth, ping, disconnect, device info, entities, states), and
 * everything else handed to the device side. Bad input closes this connection with a log line
 * naming what was wrong; the server and the daemon go on. A client still in its Noise handshake is
 * told why, as ESPHome tells it (framing.ts handshakeRejection).
 */
export class ApiConnection implements Slot {
  readonly id = nextId++;
  private plain: PlainDecoder | null = null;
  private noiseIn: NoiseDecoder | null = null;
  private noise: NoiseResponder | null = null;
  private helloDone = false;
  private closedFlag = false;
  private readonly live: Liveness;
  clientInfo = '';

  constructor(
    private readonly socket: Socket,
    private readonly o: ConnectionOptions,
  ) {
    this.live = new Liveness(o.clock, { ping: () => this.send('PingRequest'), expire: (why) => this.close(why) });
    if (o.key && o.noise) {
      this.noiseIn = new NoiseDecoder();
      this.noise = new NoiseResponder(o.noise, o.key, { name: o.device.name, mac: o.device.mac });
    } else this.plain = new PlainDecoder(o.maxFrame);
    socket.setNoDelay(true);
    // A Home Assistant that vanished without a FIN (power cut, Wi-Fi gone) is found by TCP keepalive.
    socket.setKeepAlive(true, 30_000);
    socket.on('data', (d) => this.data(d));
    socket.on('error', (err) => this.close(`socket error: ${err.message}`, 'debug'));
    socket.on('close', () => this.close('closed by the client', 'debug'));
  }

  get remote(): string {
    return `${this.socket.remoteAddress}:${this.socket.remotePort}`;
  }

  get encrypted(): boolean {
    return this.noise !== null;
  }

  get isClosed(): boolean {
    return this.closedFlag;
  }

  get setupDone(): boolean {
    return this.helloDone;
  }

  get openedAt(): number {
    return this.live.openedAt;
  }

  get lastTrafficAt(): number {
    return this.live.lastTrafficAt;
  }

  get subscriber(): boolean {
    return this.o.device.subscribedOn(this);
  }

  send(name: string, fields: Msg = {}): void {
    if (this.closedFlag) return;
    const { proto } = this.o;
    const type = proto.idOf(name);
    const payload = proto.encode(name, fields);
    if (this.noise) this.socket.write(encodeNoiseFrame(this.noise.encrypt(joinNoisePayload(type, payload))));
    else this.socket.write(encodePlain(type, payload));
  }

  /** Close this connection; `why` goes in the log line. */
  close(why: string, level: 'warn' | 'info' | 'debug' = 'info'): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    this.live.stop();
    this.o.log[level]('ha satellite: connection closed', { connection: this.id, remote: this.remote, reason: why });
    this.noise?.close();
    this.socket.end();
    // A client that never reads must not keep the socket: destroy after a short grace.
    setTimeout(() => this.socket.destroy(), 500).unref();
    this.o.device.closed(this);
    this.o.onClose?.(this);
  }

  private data(chunk: Buffer): void {
    if (this.closedFlag) return;
    try {
      if (this.plain) for (const f of this.plain.push(chunk)) this.frame(f);
      else {
        const d = this.noiseIn!;
        d.feed(chunk);
        for (let f = d.next(); f && !this.closedFlag; f = d.next()) this.noiseFrame(f);
      }
    } catch (err) {
      if (err instanceof FrameError && err.reject && this.noise && this.noise.state !== 'ready') return this.reject(err);
      const what = err instanceof FrameError ? `bad frame: ${err.message}` : `bad message: ${errorMessage(err)}`;
      this.close(what, 'warn');
    }
  }

  /** ESPHome's answer to a bad frame during the handshake: say why, then close. */
  private reject(err: FrameError): void {
    this.socket.write(handshakeRejection(err.reject!));
    const plaintext = err.reject === 'Bad indicator byte' && err.message.startsWith('a plaintext client');
    if (plaintext)
      this.close("a plaintext client on an encrypted device: told it requires encryption (Home Assistant asks for this device's encryption key)", 'warn');
    else this.close(`handshake refused (${err.reject}): ${err.message}`, 'warn');
  }

  private noiseFrame(frame: Buffer): void {
    const n = this.noise!;
    this.live.traffic();
    if (n.state === 'hello') {
      this.socket.write(encodeNoiseFrame(n.hello(frame)));
      return;
    }
    if (n.state === 'handshake') {
      const r = n.handshake(frame);
      this.socket.write(encodeNoiseFrame(r.reply));
      if (r.error) this.close(`encryption handshake failed: ${r.error} (is Home Assistant using this device's key?)`, 'warn');
      else this.noiseIn!.ready();
      return;
    }
    if (n.state !== 'ready') return;
    this.frame(splitNoisePayload(n.decrypt(frame)));
  }

  private frame(f: PlainFrame): void {
    if (this.closedFlag) return;
    if (this.plain) this.live.traffic();
    const { proto } = this.o;
    const name = proto.nameOf(f.type);
    if (!name) {
      // ESPHome ignores a type it does not know (api_pb2_service.cpp read_message: no case, nothing
      // done); Home Assistant is newer than any device and may send what hark's api.proto lacks.
      if (!this.o.unknownTypes.has(f.type)) {
        this.o.unknownTypes.add(f.type);
        this.o.log.info('ha satellite: ignoring a message type hark does not know (logged once per type)', {
          type: f.type,
          bytes: f.payload.length,
          client: this.clientInfo || this.remote,
        });
      }
      return;
    }
    let msg: Msg;
    try {
      msg = proto.decode(f.type, f.payload).msg;
    } catch (err) {
      throw new FrameError(`${name} (type ${f.type}) did not decode: ${errorMessage(err)}`);
    }
    if (!this.helloDone && name !== 'HelloRequest' && name !== 'PingRequest' && name !== 'DisconnectRequest') {
      throw new FrameError(`${name} before HelloRequest`);
    }
    switch (name) {
      case 'HelloRequest':
        this.helloDone = true;
        this.live.setup();
        this.clientInfo = String(msg.clientInfo ?? '');
        this.o.log.info('ha satellite: client connected', { connection: this.id, remote: this.remote, client: this.clientInfo, encrypted: this.encrypted });
        this.send('HelloResponse', {
          apiVersionMajor: API_VERSION.major,
          apiVersionMinor: API_VERSION.minor,
          serverInfo: this.o.serverInfo,
          name: this.o.device.name,
        });
        return;
      case 'AuthenticationRequest':
        // Password auth is gone from ESPHome; older clients still send this, and are let in.
        this.send('AuthenticationResponse', { invalidPassword: false });
        return;
      case 'PingRequest':
        this.send('PingResponse');
        return;
      case 'DisconnectRequest':
        this.send('DisconnectResponse');
        this.close('the client disconnected');
        return;
      case 'DeviceInfoRequest':
        this.send('DeviceInfoResponse', this.o.device.deviceInfo({ encrypted: this.encrypted }));
        return;
      case 'ListEntitiesRequest':
        for (const e of this.o.device.entities()) this.send(e.name, e.msg);
        this.send('ListEntitiesDoneResponse');
        return;
      case 'SubscribeStatesRequest':
        for (const s of this.o.device.states()) this.send(s.name, s.msg);
        return;
      default:
        if (IGNORED.has(name)) return;
        this.o.device.message(this, name, msg);
    }
  }
}
