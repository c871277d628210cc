/**
 * The SIM provider adapter: SIMBOSS's HTTP API, where a card's details are a form POST to
 * {SIM_API_URL}/device/detail with appid, iccid, timestamp (ms) and sign — the SHA-256 hex of
 * the parameters sorted as 'name=value' joined by '&', followed by the app secret. Answers are
 * { success, code, message, data }.
 */
import { createHash } from 'node:crypto';
import type { SimCardDto } from '@sluice/shared/sim.schema';

export interface ProviderAccount {
  appId: string;
  appSecret: string;
}

export type CardLookup =
  | { found: true; card: Omit<SimCardDto, 'SimAccount'> }
  | { found: false; message: string }
  | { error: 'unreachable' | 'provider'; message: string };

const TIMEOUT_MS = 10_000;

export function signRequest(params: Record<string, string>, secret: string): string {
  const pairs = Object.entries(params)
    .map(([k, v]) => `${k}=${v}`)
    .sort();
  return createHash('sha256')
    .update(pairs.join('&') + secret)
    .digest('hex');
}

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const megabytes = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};

/** Codes with which the provider says it does not know the card. */
const NOT_FOUND_CODES = new Set(['404', '1004', 'DEVICE_NOT_FOUND', 'ICCID_NOT_FOUND']);

export async function lookupCard(baseUrl: string, account: ProviderAccount, iccid: string): Promise<CardLookup> {
  const params: Record<string, string> = { appid: account.appId, iccid, timestamp: String(Date.now()) };
  const body = new URLSearchParams({ ...params, sign: signRequest(params, account.appSecret) });
  let response: Response;
  try {
    response = await fetch(`${baseUrl.replace(/\/+$/, '')}/device/detail`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    return { error: 'unreachable', message: '' };
  }
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    return { error: 'provider', message: `HTTP ${String(response.status)}` };
  }
  const a = (answer && typeof answer === 'object' ? answer : {}) as Record<string, unknown>;
  const code = text(a.code);
  const ok = a.success === true || code === '0';
  if (!ok) {
    const message = text(a.message) || `HTTP ${String(response.status)}`;
    if (response.status === 404 || NOT_FOUND_CODES.has(code)) return { found: false, message };
    return { error: 'provider', message };
  }
  const d = (a.data && typeof a.data === 'object' ? a.data : {}) as Record<string, unknown>;
  return {
    found: true,
    card: {
      Iccid: text(d.iccid) || iccid,
      Imsi: text(d.imsi),
      Msisdn: text(d.msisdn),
      Carrier: text(d.carrier),
      Status: text(d.status),
      DataPlanMB: megabytes(d.totalDataVolume),
      DataUsedMB: megabytes(d.usedDataVolume),
      ActivatedAt: text(d.startDate) || text(d.openDate),
      ExpiresAt: text(d.expireDate),
    },
  };
}
