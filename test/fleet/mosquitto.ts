import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';
import { userInfo } from 'node:os';
import mqtt, { type MqttClient } from 'mqtt';

/** A free TCP port on loopback (bound and released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * A real Mosquitto (Debian's), started by the test with its own config on 127.0.0.1 and a free
 * port — never the system service. Persistence on, so a restart keeps sessions and retained
 * messages like a real broker box does. Optional user/password (then anonymous is refused).
 */
export class Mosquitto {
  private child: ChildProcess | null = null;
  readonly url: string;
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {
    this.url = `mqtt://127.0.0.1:${port}`;
  }

  static async start(dir: string, opts: { user?: { name: string; password: string } } = {}): Promise<Mosquitto> {
    mkdirSync(dir, { recursive: true });
    const port = await freePort();
    const lines = [`listener ${port} 127.0.0.1`, 'persistence true', `persistence_location ${dir}/`, 'log_dest stderr', 'log_type error', 'log_type warning'];
    // Started as root, Mosquitto drops to its own user, which cannot write the persistence file here:
    // it would come back from a restart with no retained message. It stays the user that started it.
    if (userInfo().uid === 0) lines.push('user root');
    if (opts.user) {
      const pw = join(dir, 'passwd');
      writeFileSync(pw, '');
      execFileSync('mosquitto_passwd', ['-b', pw, opts.user.name, opts.user.password]);
      lines.push('allow_anonymous false', `password_file ${pw}`);
    } else lines.push('allow_anonymous true');
    writeFileSync(join(dir, 'mosquitto.conf'), lines.join('\n') + '\n');
    const m = new Mosquitto(dir, port);
    await m.resume();
    return m;
  }

  /** Start (again, on the same port and persistence). Resolves once it accepts connections. */
  async resume(): Promise<void> {
    this.child = spawn('mosquitto', ['-c', join(this.dir, 'mosquitto.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      if (await canConnect(this.port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`mosquitto did not listen on ${this.port} within 5 s`);
  }

  /** Stop it (SIGTERM: it saves its persistence file) and wait for the exit. */
  async stop(): Promise<void> {
    const c = this.child;
    this.child = null;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => (c.kill('SIGKILL'), resolve()), 3000);
      c.once('exit', () => (clearTimeout(t), resolve()));
      c.kill('SIGTERM');
    });
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

/** A subscriber that records every message (topic, text, retained), and waits for one. */
export class Recorder {
  readonly messages: { topic: string; text: string; retain: boolean; at: number }[] = [];
  private waiters: { pred: (m: Recorder['messages'][number]) => boolean; resolve: () => void }[] = [];
  private constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload, packet) => {
      const m = { topic, text: payload.toString('utf8'), retain: packet.retain, at: Date.now() };
      this.messages.push(m);
      this.waiters = this.waiters.filter((w) => (w.pred(m) ? (w.resolve(), false) : true));
    });
  }

  static async connect(
    url: string,
    filters: string[],
    opts: { clientId?: string; clean?: boolean; username?: string; password?: string } = {},
  ): Promise<Recorder> {
    const client = mqtt.connect(url, {
      reconnectPeriod: 100,
      clientId: opts.clientId ?? `rec-${Math.random().toString(16).slice(2)}`,
      clean: opts.clean ?? true,
      ...(opts.username ? { username: opts.username, password: opts.password } : {}),
    });
    const r = new Recorder(client);
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    if (filters.length) await client.subscribeAsync(filters, { qos: 1 });
    return r;
  }

  on(topic: string): { text: string; retain: boolean }[] {
    return this.messages.filter((m) => m.topic === topic);
  }
  json(topic: string): Record<string, unknown>[] {
    return this.on(topic).map((m) => JSON.parse(m.text) as Record<string, unknown>);
  }

  waitFor(pred: (m: Recorder['messages'][number]) => boolean, timeoutMs: number, what: string): Promise<void> {
    if (this.messages.some(pred)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const t = setTimeout(
        () =>
          reject(
            new Error(
              `timed out after ${timeoutMs} ms waiting for ${what}; got: ${this.messages
                .map((m) => m.topic)
                .slice(-20)
                .join(', ')}`,
            ),
          ),
        timeoutMs,
      );
      this.waiters.push({ pred, resolve: () => (clearTimeout(t), resolve()) });
    });
  }

  async close(): Promise<void> {
    await this.client.endAsync(true);
  }
}
