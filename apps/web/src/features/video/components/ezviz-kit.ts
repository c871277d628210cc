/**
 * EZVIZ's web player kit (EZUIKit, npm `ezuikit-js` 9.0.x) for ezopen:// addresses. The server
 * serves its browser build and its WASM decoders itself (by default; EZVIZ_KIT_URL), so the kit
 * is one script loaded the first time such a camera plays, given up on after KIT_LOAD_TIMEOUT_MS.
 * The package ships no typings (DefinitelyTyped's @types/ezuikit-js describes 8.x, without env,
 * language or the named export); the settings below are the constructor options its README
 * documents for 9.0.x, and e2e/video.spec.ts reads them back from the real kit.
 */

/** How long the kit's script may take to load before the console falls back. */
export const KIT_LOAD_TIMEOUT_MS = 15_000;

/** What the console passes to `new EZUIKit.EZUIKitPlayer(…)`, callbacks aside. */
export interface KitPlayerSettings {
  /** The id of the element the kit draws into. */
  id: string;
  /** ezopen://open.ys7.com/{serial}/{channel}.live (or .hd.live, .rec, .cloud.rec). */
  url: string;
  accessToken: string;
  width: number;
  height: number;
  /** The kit's fixed layouts with controls: PC live or PC playback. */
  template: 'pcLive' | 'pcRec';
  /** The EZVIZ platform the kit asks for stream addresses (its default is open.ys7.com). */
  env: { domain: string };
  /** Where the kit loads its decoders from (its default is EZVIZ's CDN). */
  staticPath?: string;
  /** Sound on at start. */
  audio: boolean;
  /** The kit's own texts: zh or en. */
  language: 'zh' | 'en';
}

/** What the kit gives its error callback (README: handleError; code and msg as its sources set them). */
export interface KitError {
  type?: string;
  code?: number | string;
  retcode?: number | string;
  msg?: string;
}

export interface KitPlayer {
  stop?: () => unknown;
  destroy?: () => unknown;
  /** README: player.eventEmitter.on(event, listener). */
  eventEmitter?: { on: (event: string, listener: (...args: unknown[]) => void) => unknown };
}

/**
 * The kit's 'message' event (its own toast: text, type) of a stream that could not be opened or
 * broke. A failed address call (fetchError) reaches only this event, not handleError, so the
 * console listens to both. Other types (talk, PTZ, seek, speed) are the kit's own controls' notes.
 */
const STREAM_FAILURES = new Set(['fetchError', 'socketError', 'playError', 'reloadError', 'validateCodeError']);

/** A 'message' event's text when it says the stream failed. */
export function kitFailureMessage(text: unknown, type: unknown): string | undefined {
  if (typeof type !== 'string' || !STREAM_FAILURES.has(type)) return undefined;
  return typeof text === 'string' && text.trim() !== '' ? text.trim() : type;
}

export interface EzvizKit {
  EZUIKitPlayer: new (
    settings: KitPlayerSettings & { handleSuccess: () => void; handleError: (error: KitError) => void },
  ) => KitPlayer;
}

declare global {
  interface Window {
    EZUIKit?: EzvizKit;
  }
}

/** The kit's settings for one camera: its address and token, the platform it talks to, the stage's size, the user's language. */
export function kitPlayerSettings(input: {
  id: string;
  url: string;
  accessToken: string;
  apiUrl: string;
  staticPath: string | null;
  language: string;
  width: number;
  height: number;
}): KitPlayerSettings {
  const url = input.url.trim();
  // Recordings (…/1.rec, …/1.cloud.rec) get the playback layout, live addresses the live one.
  const recording = /\.rec(\?|$)/i.test(url);
  // The kit draws nothing in a zero-sized box (a hidden stage): 16:9 at a usable minimum.
  const width = Math.max(320, Math.round(input.width));
  const height = Math.max(180, Math.round(input.height || (width * 9) / 16));
  return {
    id: input.id,
    url,
    accessToken: input.accessToken,
    width,
    height,
    template: recording ? 'pcRec' : 'pcLive',
    env: { domain: input.apiUrl.replace(/\/+$/, '') },
    ...(input.staticPath ? { staticPath: input.staticPath.replace(/\/+$/, '') } : {}),
    audio: false,
    language: input.language.toLowerCase().startsWith('zh') ? 'zh' : 'en',
  };
}

/** The kit's own words for an error, if it gave any. */
export function kitErrorText(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { msg } = error as KitError;
  return typeof msg === 'string' && msg.trim() !== '' ? msg.trim() : undefined;
}

const loading = new Map<string, Promise<EzvizKit>>();

/**
 * Loads the kit's script once per address. A failed load (blocked, offline, no EZUIKit in it,
 * or nothing after `timeoutMs`) rejects and is forgotten, so that a retry loads it afresh.
 */
export function loadEzvizKit(src: string, timeoutMs = KIT_LOAD_TIMEOUT_MS): Promise<EzvizKit> {
  const known = loading.get(src);
  if (known) return known;
  const promise = new Promise<EzvizKit>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    const settle = (error?: Error) => {
      clearTimeout(timer);
      script.onload = null;
      script.onerror = null;
      const kit = window.EZUIKit;
      if (!error && kit && typeof kit.EZUIKitPlayer === 'function') {
        resolve(kit);
        return;
      }
      script.remove();
      loading.delete(src);
      reject(error ?? new Error(`${src} did not define EZUIKit`));
    };
    const timer = setTimeout(() => {
      settle(new Error(`${src} did not load within ${String(timeoutMs)} ms`));
    }, timeoutMs);
    script.onload = () => {
      settle();
    };
    script.onerror = () => {
      settle(new Error(`${src} could not be loaded`));
    };
    document.head.appendChild(script);
  });
  loading.set(src, promise);
  return promise;
}
