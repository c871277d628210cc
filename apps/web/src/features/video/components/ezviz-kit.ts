/**
 * EZVIZ's web player kit (EZUIKit) for ezopen:// addresses. The kit is too heavy to bundle (WASM
 * decoders, tens of megabytes), so it is loaded from EZVIZ's origin (the server's EZVIZ_KIT_URL)
 * the first time such a camera plays, and given up on after KIT_LOAD_TIMEOUT_MS.
 */

/** How long the kit's script may take to load before the console falls back. */
export const KIT_LOAD_TIMEOUT_MS = 15_000;

/** What the console passes to `new EZUIKit.EZUIKitPlayer(…)`, callbacks aside. */
export interface KitPlayerSettings {
  /** The id of the element the kit draws into. */
  id: string;
  url: string;
  accessToken: string;
  width: number;
  height: number;
  /** The kit's template with controls: its PC live or PC playback layout. */
  template: 'pcLive' | 'pcRec';
  env: { domain: string };
  audio: boolean;
}

export interface KitPlayer {
  stop?: () => unknown;
  destroy?: () => unknown;
}

export interface EzvizKit {
  EZUIKitPlayer: new (
    settings: KitPlayerSettings & { handleSuccess: () => void; handleError: (error: unknown) => void },
  ) => KitPlayer;
}

declare global {
  interface Window {
    EZUIKit?: EzvizKit;
  }
}

/** The kit's settings for one camera: its address and token, the platform it talks to, the stage's size. */
export function kitPlayerSettings(input: {
  id: string;
  url: string;
  accessToken: string;
  apiUrl: string;
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
    audio: false,
  };
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
