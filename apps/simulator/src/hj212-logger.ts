/**
 * A simulated HJ 212-2017 data logger: a station model's effluent analysers and flow meter
 * reported as minute data (2051) over TCP, each upload asking for an answer (Flag=5). An upload
 * the server did not answer is sent again, oldest first, after the next connect (a logger's
 * store-and-forward). Codes: w01018 COD, w21003 NH3-N, w21011 TP, w21001 TN, w01001 pH and
 * w00000 flow in L/s (the model's m³/h ÷ 3.6).
 */
import net, { type Socket } from 'node:net';
import { Hj212Framer, buildHj212Packet, formatHj212Time, parseHj212Packet } from '@sluice/shared/hj212';
import { STATION_KEYS } from '@sluice/shared/station-keys';
import { StationModel } from './station-model.ts';

export interface Hj212LoggerOptions {
  host: string;
  port: number;
  mn: string;
  password: string;
  seed?: number;
  /** Minutes east of UTC of the logger's clock (DataTime), +08:00 by default. */
  offsetMinutes?: number;
}

const CODES: [code: string, key: string, scale: number][] = [
  ['w01018', STATION_KEYS.codOut, 1],
  ['w21003', STATION_KEYS.nh3nOut, 1],
  ['w21011', STATION_KEYS.tpOut, 1],
  ['w21001', STATION_KEYS.tnOut, 1],
  ['w01001', STATION_KEYS.phOut, 1],
  ['w00000', STATION_KEYS.inflow, 1 / 3.6],
];

export class Hj212Logger {
  readonly options: Hj212LoggerOptions;
  private readonly model: StationModel;
  private socket: Socket | undefined;
  /** Uploads not answered yet, by QN. */
  private readonly unanswered = new Map<string, string>();
  private lastQn = 0;
  private readonly waiters = new Map<string, () => void>();
  answered = 0;

  constructor(options: Hj212LoggerOptions) {
    this.options = options;
    this.model = new StationModel({ seed: options.seed ?? 1, offsetMinutes: options.offsetMinutes ?? 480 });
  }

  /** Connects (again), and sends what is still unanswered. */
  async connect(): Promise<void> {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = net.connect(this.options.port, this.options.host, () => {
        s.off('error', reject);
        resolve(s);
      });
      s.once('error', reject);
    });
    socket.setEncoding('latin1');
    const framer = new Hj212Framer();
    socket.on('data', (chunk: string) => {
      for (const r of framer.push(chunk)) {
        if (!r.ok) continue;
        const parsed = parseHj212Packet(r.packet);
        if (parsed.ok && parsed.value.cn === '9014' && parsed.value.qn && this.unanswered.delete(parsed.value.qn)) {
          this.answered += 1;
          this.waiters.get(parsed.value.qn)?.();
          this.waiters.delete(parsed.value.qn);
        }
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (this.socket === socket) this.socket = undefined;
    });
    this.socket = socket;
    for (const packet of this.unanswered.values()) socket.write(packet, 'latin1');
  }

  /** The minute upload of the minute holding `at` (the model stepped to it); sent when connected. */
  sendMinute(at = Date.now()): string {
    const minute = Math.floor(at / 60_000) * 60_000;
    this.model.step(minute);
    this.lastQn = Math.max(Date.now(), this.lastQn + 1);
    const qn = formatHj212Time(this.lastQn, this.options.offsetMinutes ?? 480, true);
    const groups: [string, string][][] = [[['DataTime', formatHj212Time(minute, this.options.offsetMinutes ?? 480)]]];
    for (const [code, key, scale] of CODES) {
      const value = this.model.v[key];
      if (value === undefined) continue;
      const text = String(Number((value * scale).toFixed(3)));
      groups.push([
        [`${code}-Avg`, text],
        [`${code}-Min`, text],
        [`${code}-Max`, text],
        [`${code}-Flag`, 'N'],
      ]);
    }
    const packet = buildHj212Packet({
      qn,
      st: '32',
      cn: '2051',
      pw: this.options.password,
      mn: this.options.mn,
      flag: 5,
      cp: groups,
    });
    this.unanswered.set(qn, packet);
    this.socket?.write(packet, 'latin1');
    return qn;
  }

  /** Resolves when the server has answered the upload with this QN. */
  answer(qn: string): Promise<void> {
    if (!this.unanswered.has(qn)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.set(qn, resolve));
  }

  /** The model's value of a data point now (what the last upload held). */
  value(key: string): number | undefined {
    return this.model.v[key];
  }

  get connected(): boolean {
    return this.socket !== undefined && !this.socket.destroyed;
  }

  get pending(): number {
    return this.unanswered.size;
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }
}
