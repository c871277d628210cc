/**
 * An ezopen:// address in EZVIZ's web player kit (loaded from EZVIZ on first use). The kit not
 * loading is reported apart from a playing error, so that the caller can fall back to HLS.
 */
import { useEffect, useId, useRef } from 'react';
import { kitPlayerSettings, loadEzvizKit, type KitPlayer } from './ezviz-kit';

export function EzvizKitPlayer({
  kitUrl,
  apiUrl,
  url,
  accessToken,
  label,
  onPlaying,
  onError,
  onUnavailable,
}: {
  kitUrl: string;
  apiUrl: string;
  url: string;
  accessToken: string;
  label: string;
  onPlaying: () => void;
  onError: () => void;
  /** The kit could not be loaded. */
  onUnavailable: () => void;
}) {
  // The kit finds its box by id; React's ids hold colons, which the kit's selectors do not take.
  const id = `ezviz-kit-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const box = useRef<HTMLDivElement>(null);
  const callbacks = useRef({ onPlaying, onError, onUnavailable });
  useEffect(() => {
    callbacks.current = { onPlaying, onError, onUnavailable };
  });

  useEffect(() => {
    let cancelled = false;
    let player: KitPlayer | undefined;
    loadEzvizKit(kitUrl).then(
      (kit) => {
        const element = box.current;
        if (cancelled || !element) return;
        const settings = kitPlayerSettings({
          id,
          url,
          accessToken,
          apiUrl,
          width: element.clientWidth,
          height: element.clientHeight,
        });
        try {
          player = new kit.EZUIKitPlayer({
            ...settings,
            handleSuccess: () => {
              if (!cancelled) callbacks.current.onPlaying();
            },
            handleError: () => {
              if (!cancelled) callbacks.current.onError();
            },
          });
        } catch {
          callbacks.current.onError();
        }
      },
      () => {
        if (!cancelled) callbacks.current.onUnavailable();
      },
    );
    return () => {
      cancelled = true;
      try {
        if (player?.destroy) void player.destroy();
        else void player?.stop?.();
      } catch {
        // The kit's own teardown failing leaves nothing of ours to clean.
      }
    };
  }, [kitUrl, apiUrl, url, accessToken, id]);

  return <div ref={box} id={id} className="sluice-video-element" role="region" aria-label={label} data-testid="ezviz-kit" />;
}
